// Issue 31 item 16 as the README's walk-through meets it: the built server started from a directory with the default
// DATA_DIR (./data) and no PUBLIC_URL, on a port other than the CLI's default, and the built CLI run from the same
// directory with neither PORT nor PUBLIC_URL. The CLI names the database it uses on stderr, reaches the server's
// through its socket, and builds the invitation link from the server's own address; run from another directory it
// makes no database of its own; with the server stopped it builds no link from a guess.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, it } from 'node:test'
import { builtEnv, runBuilt } from '../helpers/built-process.ts'
import { freePort } from '../helpers/smtp.ts'
import { tempDir } from '../helpers/temp.ts'

const ROOT = resolve(import.meta.dirname, '../..')

/** The built CLI run from `cwd` with exactly `vars` (no DATA_DIR, PORT, PUBLIC_URL or DATABASE_URL of the test run's). */
function cli(cwd: string, vars: Record<string, string>, ...argv: string[]): Promise<{ code: number, stdout: string, stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [join(ROOT, 'dist/cli/main.js'), ...argv], { cwd, env: builtEnv({ MAIL_SANDBOX: 'on', ...vars }), timeout: 120_000 },
      (err, stdout, stderr) => done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }))
  })
}

describe('the CLI beside the running embedded server', () => {
  it('uses the server\'s database and address; elsewhere it makes no database; stopped, it guesses no address', async (t) => {
    const here = tempDir('beside')
    const pglite = join(here, 'data', 'pglite')
    // `migrate` is the one command that makes the embedded database unasked (a deploy's first step), and says so.
    const migrated = await cli(here, {}, 'migrate')
    assert.equal(migrated.code, 0, migrated.stderr)
    assert.equal(migrated.stderr, `database: embedded, ${pglite} (DATA_DIR), created now, its files opened directly (no server runs on it)\n`)

    const port = await freePort()
    const server = runBuilt(t, join(ROOT, 'dist/main.js'), [], builtEnv({ PORT: String(port), MAIL_SANDBOX: 'on' }), here)
    await server.waitFor(/Server listening at http:\/\/127\.0\.0\.1:\d+/, 'listening')

    const created = await cli(here, {}, 'clientes', 'criar', '--nome', 'Fomento Exemplo', '--json')
    assert.equal(created.code, 0, created.stderr)
    assert.equal(created.stderr, `database: embedded, ${pglite} (DATA_DIR), through the running server (process ${server.child.pid})\n`)
    const { id } = JSON.parse(created.stdout) as { id: string }

    const invite = ['usuarios', 'convidar', '--cliente', id, '--email', 'ana@cliente.com.br', '--nome', 'Ana Souza', '--json']
    const invited = await cli(here, {}, ...invite)
    assert.equal(invited.code, 0, invited.stderr)
    const { convite_url: link } = JSON.parse(invited.stdout) as { convite_url: string }
    assert.ok(link.startsWith(`http://127.0.0.1:${port}/conta/ativar?convite=fct_inv_`), link)
    // The server knows the invitation: it takes the secret into a cookie and moves on to the form (an unknown one: 404).
    assert.equal((await fetch(link, { redirect: 'manual' })).status, 303, 'the server answers the link')

    // From another directory, DATA_DIR unset as before: its ./data holds no database, and none is made there.
    const elsewhere = join(tempDir('elsewhere'), 'projeto')
    mkdirSync(elsewhere)
    const stray = await cli(elsewhere, {}, 'clientes', 'criar', '--nome', 'Fomento Perdido', '--json')
    assert.equal(stray.code, 2, stray.stderr)
    assert.equal(stray.stdout, '')
    assert.match(stray.stderr, new RegExp(`^error: no embedded database in ${join(elsewhere, 'data', 'pglite')} .*--criar-banco`))
    assert.ok(!existsSync(join(elsewhere, 'data')))

    server.child.kill('SIGTERM')
    assert.equal(await server.exited, 0, server.output())
    assert.ok(!existsSync(join(here, 'data', 'servidor.json')), 'the address goes with the server')
    // The files opened directly: nothing says where the service will answer, so no link is made.
    const stopped = await cli(here, {}, ...invite.map((a) => (a === 'ana@cliente.com.br' ? 'bia@cliente.com.br' : a)))
    assert.equal(stopped.code, 2, stopped.stderr)
    assert.match(stopped.stderr, /its files opened directly.*\nerror: PUBLIC_URL is unset and no running server on this database recorded its address/)
  })
})

// Issue 31 item 16: the CLI says which database it works on (stderr, so --json stays parseable), makes no embedded
// database the service is not using unless asked (`migrate` makes one: that is its job), and builds no link from a
// guessed address. The CLI beside a running server, and `migrate` making the database, through the built processes:
// beside-the-server.test.ts. The links and the PostgreSQL line, on the configured database: database-named.test.ts.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { runCli } from '../../src/cli/commands.ts'
import { tempDir } from '../helpers/temp.ts'

/** Runs the CLI with exactly `env`, opening the database as it does on its own; stdout and stderr apart. */
async function cli(env: Record<string, string>, ...argv: string[]) {
  const stdout: string[] = []
  const stderr: string[] = []
  const code = await runCli(argv, { log: (s) => stdout.push(...s.split('\n')), error: (s) => stderr.push(...s.split('\n')) }, env)
  return { code, stdout, stderr }
}

const REFUSAL = /^error: no embedded database in (\S+) \(DATA_DIR is (\S+), DATABASE_URL is unset\): .*DATA_DIR or DATABASE_URL, or add --criar-banco/

describe('the CLI without a database in DATA_DIR', () => {
  it('refuses every command but migrate, naming DATA_DIR, DATABASE_URL and --criar-banco, and creates nothing', async () => {
    const dataDir = join(tempDir('cli-none'), 'data')
    for (const argv of [['clientes', 'criar', '--nome', 'Fomento Perdido', '--json'], ['tokens', 'listar', '--cliente', randomUUID()], ['fila', 'listar']]) {
      const r = await cli({ DATA_DIR: dataDir }, ...argv)
      assert.equal(r.code, 2, argv.join(' '))
      assert.deepEqual(r.stdout, [], argv.join(' '))
      assert.equal(r.stderr.length, 1, r.stderr.join('\n'))
      assert.deepEqual(REFUSAL.exec(r.stderr[0]!)?.slice(1), [join(dataDir, 'pglite'), dataDir], r.stderr[0])
      assert.ok(!existsSync(dataDir), `${argv.join(' ')} created ${dataDir}`)
    }
  })

  it('wait-for-schema waits for the database rather than making one', async () => {
    const dataDir = join(tempDir('cli-none'), 'data')
    const r = await cli({ DATA_DIR: dataDir }, 'wait-for-schema', '--timeout', '0')
    assert.equal(r.code, 1)
    assert.match(r.stdout.join('\n'), /^waiting for the schema: database unreachable: no embedded database in /)
    assert.ok(!existsSync(dataDir))
  })
})

describe('the CLI on an embedded database it opens itself', () => {
  it('--criar-banco creates one and says so, given before the command as after it; the next command names it', async () => {
    const dataDir = tempDir('cli-create')
    const pglite = join(dataDir, 'pglite')
    const created = await cli({ DATA_DIR: dataDir }, '--criar-banco', 'clientes', 'criar', '--nome', 'Fomento Novo', '--json')
    assert.equal(created.code, 0, created.stderr.join('\n'))
    assert.deepEqual(created.stderr, [`database: embedded, ${pglite} (DATA_DIR), created now, its files opened directly (no server runs on it)`])
    const { id } = JSON.parse(created.stdout.join('\n')) as { id: string }

    const listed = await cli({ DATA_DIR: dataDir }, 'clientes', 'listar', '--json')
    assert.equal(listed.code, 0, listed.stderr.join('\n'))
    assert.deepEqual(listed.stderr, [`database: embedded, ${pglite} (DATA_DIR), its files opened directly (no server runs on it)`])
    assert.deepEqual((JSON.parse(listed.stdout.join('\n')) as { id: string }[]).map((c) => c.id), [id])
  })
})

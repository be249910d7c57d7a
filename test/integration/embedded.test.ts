// The embedded default as an operator meets it: the built server (node dist/main.js) on PGlite in a temporary
// DATA_DIR, and the built CLI (node dist/cli/main.js) working against it while it runs, through its socket.
import assert from 'node:assert/strict'
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { contactBody } from '../helpers/app.ts'

const env = (dataDir: string): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', MAIL_SANDBOX: 'on' }
  delete e.DATABASE_URL
  delete e.REDIS_URL
  delete e.SMTP_URL
  return e
}

function cli(dataDir: string, ...argv: string[]): Promise<{ code: number, out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['dist/cli/main.js', ...argv], { env: env(dataDir), timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr })
    })
  })
}

/** Every path under `dir` (itself included) whose mode lets its group or others in. */
function notPrivate(dir: string): string[] {
  const st = lstatSync(dir)
  const own = st.mode & 0o077 && !st.isSymbolicLink() ? [`${(st.mode & 0o777).toString(8)} ${dir}`] : []
  return st.isDirectory() ? [...own, ...readdirSync(dir).flatMap((n) => notPrivate(join(dir, n)))] : own
}

describe('the embedded database while the server runs', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fps-embedded-'))
  let child: ChildProcess | undefined
  let base = ''
  let output = ''

  before(async () => {
    const built = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { encoding: 'utf8' })
    assert.equal(built.status, 0, built.stderr)
    child = spawn(process.execPath, ['dist/main.js'], { env: env(dataDir), stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout!.on('data', (d) => { output += d })
    child.stderr!.on('data', (d) => { output += d })
    base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not listening in 240 s:\n${output}`)), 240_000)
      child!.stdout!.on('data', () => {
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
        if (m) { clearTimeout(timer); resolve(m[1]!) }
      })
      child!.on('exit', (code) => { clearTimeout(timer); reject(new Error(`exited ${code}:\n${output}`)) })
    })
  })
  after(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('the CLI declares a window the running server shows, and lists its queue; DATA_DIR stays private; the socket goes with the server', async () => {
    const socket = join(dataDir, 'pglite', '.s.PGSQL.5432')
    assert.ok(lstatSync(socket).isSocket())
    assert.equal(lstatSync(socket).mode & 0o777, 0o600)

    const contact = await fetch(`${base}/api/site/contato`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(contactBody()),
    })
    const { protocolo } = await contact.json() as { protocolo: string }
    assert.equal(contact.status, 202)

    const declared = await cli(
      dataDir, 'manutencao', 'declarar', '--inicio', '2030-12-01T02:00:00-03:00', '--fim', '2030-12-01T04:00:00-03:00', '--mensagem', 'Troca de disco',
    )
    assert.equal(declared.code, 0, declared.out)
    assert.match(declared.out, /declared window \d+: 2030-12-01 02:00 \(-03:00\) → 2030-12-01 04:00 \(-03:00\)/)
    // The snapshot behind /api/status is refreshed in the background: wait for it, boundedly.
    let manutencao: unknown = null
    for (let i = 0; i < 60 && !manutencao; i++) {
      manutencao = ((await (await fetch(`${base}/api/status`)).json()) as { manutencao: unknown }).manutencao
      if (!manutencao) await new Promise((r) => setTimeout(r, 500))
    }
    assert.deepEqual(manutencao, {
      inicio: '2030-12-01T05:00:00.000Z', fim: '2030-12-01T07:00:00.000Z', mensagem: 'Troca de disco', em_curso: false, anunciada: true,
    })

    // The in-process worker keeps the message in the sandbox soon after: wait for it, boundedly.
    let queue = { code: -1, out: '' }
    for (let i = 0; i < 30 && !queue.out.includes(protocolo); i++) {
      if (i) await new Promise((r) => setTimeout(r, 500))
      queue = await cli(dataDir, 'fila', 'listar', '--estado', 'sandbox')
      assert.equal(queue.code, 0, queue.out)
    }
    assert.match(queue.out, new RegExp(`^${protocolo}\\tsandbox\\t1 try\\t`, 'm'))

    // The server still answers its own queries after lending the database.
    assert.equal((await fetch(`${base}/api/health/ready`)).status, 200)
    assert.ok(readdirSync(join(dataDir, 'mail')).some((f) => f.endsWith('.eml')), 'the sandbox kept the message')
    assert.deepEqual(notPrivate(dataDir), [])

    child!.kill('SIGTERM')
    const code = await new Promise((resolve) => child!.exitCode !== null ? resolve(child!.exitCode) : child!.on('exit', resolve))
    assert.equal(code, 0, output)
    assert.ok(!existsSync(socket), 'the socket is removed on stop')

    // No server: the CLI opens the files itself, and what it touches stays private too.
    const listed = await cli(dataDir, 'manutencao', 'listar')
    assert.equal(listed.code, 0, listed.out)
    assert.match(listed.out, /Troca de disco/)
    assert.deepEqual(notPrivate(dataDir), [])
  })
})

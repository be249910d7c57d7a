// A DATA_DIR too deep for a Unix socket path (Linux takes 107 bytes; Node silently cuts a longer one): the built
// server still starts on PGlite, serves, warns once naming DATA_DIR and why, and leaves no stray socket file.
import assert from 'node:assert/strict'
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { socketPathIn } from '../../src/platform/db/embedded-socket.ts'

const MAX_SOCKET_PATH_BYTES = 107

const env = (dataDir: string): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', MAIL_SANDBOX: 'on', LOG_FORMAT: 'json' }
  delete e.DATABASE_URL
  delete e.REDIS_URL
  delete e.SMTP_URL
  return e
}

/** Every path under `dir` whose name looks like a PostgreSQL socket, whole or cut short. */
const socketFiles = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) => p.split('/').pop()!.startsWith('.s.'))

describe('a DATA_DIR too deep for the embedded socket', () => {
  const root = mkdtempSync(join(tmpdir(), 'fps-deep-'))
  const dataDir = join(root, 'a'.repeat(60), 'b'.repeat(40))
  let child: ChildProcess | undefined
  after(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL')
    rmSync(root, { recursive: true, force: true })
  })

  it('the built server starts, serves /api/health/ready, warns naming DATA_DIR, leaves no socket file and stops with 0', async () => {
    const socket = socketPathIn(join(dataDir, 'pglite'))
    assert.ok(Buffer.byteLength(socket) > MAX_SOCKET_PATH_BYTES, `the test needs a socket path over ${MAX_SOCKET_PATH_BYTES} bytes: ${socket}`)
    const built = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { encoding: 'utf8' })
    assert.equal(built.status, 0, built.stderr)

    let output = ''
    const proc = spawn(process.execPath, ['dist/main.js'], { env: env(dataDir), stdio: ['ignore', 'pipe', 'pipe'] })
    child = proc
    proc.stdout!.on('data', (d) => { output += d })
    proc.stderr!.on('data', (d) => { output += d })
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)))
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not listening in 240 s:\n${output}`)), 240_000)
      proc.stdout!.on('data', () => {
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
        if (m) { clearTimeout(timer); resolve(m[1]!) }
      })
      void exited.then((code) => { clearTimeout(timer); reject(new Error(`exited ${code}:\n${output}`)) })
    })

    assert.equal((await fetch(`${base}/api/health/ready`)).status, 200, output)
    const warnings = output.split('\n').filter((l) => l.includes('not offered to the CLI'))
    assert.equal(warnings.length, 1, output)
    const warning = JSON.parse(warnings[0]!) as { level: number, msg: string }
    assert.equal(warning.level, 40, warnings[0])
    assert.ok(warning.msg.startsWith(`DATA_DIR "${dataDir}": `), warning.msg)
    assert.match(warning.msg, /bytes, over the 107 a Unix socket path may have: use a shorter DATA_DIR$/)
    assert.deepEqual(socketFiles(root), [], 'no socket file, whole or cut short')

    // Without the socket the CLI says the files are in use, as for any other live server.
    const cli = await new Promise<{ code: number, out: string }>((resolve) => {
      execFile(process.execPath, ['dist/cli/main.js', 'manutencao', 'listar'], { env: env(dataDir), timeout: 60_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr })
      })
    })
    assert.equal(cli.code, 2, cli.out)
    assert.match(cli.out, new RegExp(`is in use by process ${proc.pid}`))

    proc.kill('SIGTERM')
    assert.equal(await exited, 0, output)
    assert.deepEqual(socketFiles(root), [])
  })
})

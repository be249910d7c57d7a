// The built service as an operator starts and stops it: `npm start` and `node dist/main.js`, with the
// mistakes a new operator makes. Every failure names the setting, exits 2, shows no stack and no password.
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { tempDir } from '../helpers/temp.ts'
import { alive } from '../helpers/process-alive.ts'

const MAIN = 'dist/main.js'
const SECRET = 'Pw-never-shown-7Qx'

type Run = { child: ChildProcess, output: () => string, exited: Promise<number | null> }

function cleanEnv(env: Record<string, string>): Record<string, string> {
  const base = { ...process.env } as Record<string, string>
  delete base.DATABASE_URL
  delete base.REDIS_URL
  return { ...base, PORT: '0', ...env }
}

function run(command: string, args: string[], env: Record<string, string>): Run {
  // Its own process group: npm's server child is in it too, so a test that fails before learning the
  // server's pid (a start that never became ready) still leaves nothing running (see the suite's after).
  const child = spawn(command, args, { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let out = ''
  child.stdout!.on('data', (d) => { out += d })
  child.stderr!.on('data', (d) => { out += d })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, output: () => out, exited }
}

/** Waits for a line matching `re` in the output, or fails with the output when the process ends first. */
async function waitFor(r: Run, re: RegExp, ms = 240_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms
  for (;;) {
    const m = re.exec(r.output())
    if (m) return m
    if (r.child.exitCode !== null || Date.now() > deadline) throw new Error(`no ${re} (exit ${r.child.exitCode}):\n${r.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function killGroup(pid: number | undefined): void {
  try {
    if (pid) process.kill(-pid, 'SIGKILL')
  } catch {
    // the whole group has exited already
  }
}

async function expectRefusal(env: Record<string, string>, message: RegExp): Promise<string> {
  const r = run(process.execPath, [MAIN], env)
  const timer = setTimeout(() => r.child.kill('SIGKILL'), 240_000)
  const code = await r.exited
  clearTimeout(timer)
  const out = r.output()
  assert.equal(code, 2, `exit code 2 expected:\n${out}`)
  assert.match(out, message)
  assert.doesNotMatch(out, /\n\s+at /, 'no stack trace')
  assert.ok(!out.includes(SECRET), 'the password is never printed')
  return out
}

describe('the built service, started and stopped as an operator does', () => {
  // Each child leads its own process group, which holds npm's server child too: killing the group leaves
  // nothing running, whether or not a test learnt the server's pid.
  const children: ChildProcess[] = []
  const dataDir = () => tempDir('start')
  after(() => {
    for (const c of children) killGroup(c.pid)
  })

  it('needs dist/ (npm run build, or npm test, which builds it for this file)', () => {
    assert.ok(existsSync(MAIN), 'dist/main.js is missing: run npm run build')
  })

  it('npm start: SIGTERM to npm stops the server too, which releases the embedded database', async () => {
    const dir = dataDir()
    const r = run('npm', ['start', '--silent'], { DATA_DIR: dir })
    children.push(r.child)
    const ready = await waitFor(r, /"pid":(\d+)[^\n]*"msg":"service ready"/)
    const serverPid = Number(ready[1])
    assert.notEqual(serverPid, r.child.pid, 'the server is npm\'s child')
    assert.match(r.output(), /"banco":"pglite","email":"sandbox","limites":"memoria"/, 'the start-up line says what is in use')
    r.child.kill('SIGTERM')
    assert.equal(await r.exited, 0)
    for (let i = 0; i < 100 && alive(serverPid); i++) await new Promise((resolve) => setTimeout(resolve, 100))
    assert.equal(alive(serverPid), false, 'no orphaned server process')
    assert.ok(!existsSync(join(dir, 'pglite', 'service.lock')), 'the lock is released')
    assert.match(r.output(), /"msg":"stopped"/)
  })

  it('readiness answers 503 as soon as SIGTERM arrives, while the listener still serves', async () => {
    const r = run(process.execPath, [MAIN], { DATA_DIR: dataDir(), SHUTDOWN_DELAY_MS: '1500' })
    children.push(r.child)
    const base = (await waitFor(r, /Server listening at (http:\/\/127\.0\.0\.1:\d+)/))[1]!
    await waitFor(r, /service ready/)
    assert.equal((await fetch(`${base}/api/health/ready`)).status, 200)
    r.child.kill('SIGTERM')
    await waitFor(r, /"msg":"stopping/)
    const ready = await fetch(`${base}/api/health/ready`)
    assert.equal(ready.status, 503)
    assert.deepEqual(await ready.json(), { detail: 'servico_indisponivel' })
    assert.equal((await fetch(`${base}/api/health`)).status, 200, 'liveness still answers during the drain')
    assert.equal(await r.exited, 0)
  })

  it('LOG_FORMAT=pretty writes lines for a person, not JSON', async () => {
    const r = run(process.execPath, [MAIN], { DATA_DIR: dataDir(), LOG_FORMAT: 'pretty' })
    children.push(r.child)
    await waitFor(r, /service ready/)
    r.child.kill('SIGTERM')
    assert.equal(await r.exited, 0)
    const line = r.output().split('\n').find((l) => l.includes('service ready'))!
    assert.doesNotMatch(line, /^\{/)
    assert.match(line, /INFO/)
  })

  it('an unreachable DATABASE_URL is named, with host and port but not the password', async () => {
    const closed: Server = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as { port: number }).port
    await new Promise((resolve) => closed.close(resolve))
    await expectRefusal({ DATABASE_URL: `postgres://app:${SECRET}@127.0.0.1:${port}/app`, DATA_DIR: dataDir() },
      new RegExp(`DATABASE_URL: cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${port}/app: nothing accepts connections there \\(ECONNREFUSED\\)`))
  })

  it('a DATABASE_URL whose host does not resolve is named', async () => {
    await expectRefusal({ DATABASE_URL: `postgres://app:${SECRET}@no-such-host.invalid:5432/app`, DATA_DIR: dataDir() },
      /DATABASE_URL: cannot connect to PostgreSQL at no-such-host\.invalid:5432\/app: the host name does not resolve/)
  })

  it('a port in use names PORT', async () => {
    const busy = createServer()
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
    try {
      const port = (busy.address() as { port: number }).port
      await expectRefusal({ PORT: String(port), DATA_DIR: dataDir() }, new RegExp(`PORT ${port} is already in use on HOST 127\\.0\\.0\\.1 \\(EADDRINUSE\\)`))
    } finally {
      await new Promise((resolve) => busy.close(resolve))
    }
  })

  it('a HOST that is not this machine is named', async () => {
    await expectRefusal({ HOST: 'no-such-host.invalid', DATA_DIR: dataDir() }, /HOST "no-such-host\.invalid" is not an address of this machine/)
  })

  it('a DATA_DIR under a file, or under /proc, is named at once (it used to print ENOTDIR stacks or hang)', async () => {
    await expectRefusal({ DATA_DIR: '/dev/null/x' }, /DATA_DIR "\/dev\/null\/x" cannot be used: \/dev\/null\/x is not reachable \(ENOTDIR\)/)
    await expectRefusal({ DATA_DIR: '/proc/fps-no-such-dir' }, /DATA_DIR "\/proc\/fps-no-such-dir" cannot be created/)
  })

  it('AMBIENTE=producao without a mail provider refuses to start, naming SMTP_URL and MAIL_SANDBOX', async () => {
    await expectRefusal({ AMBIENTE: 'producao', DATA_DIR: dataDir() }, /AMBIENTE=producao needs SMTP_URL[^\n]*MAIL_SANDBOX=on/)
  })
})

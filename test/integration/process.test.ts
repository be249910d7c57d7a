// `npm start` as a new user runs it: a real process on the embedded database, closed by a signal.
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'

type Started = { child: ChildProcess, base: string, output: () => string }

function start(env: Record<string, string>): Promise<Started> {
  const cleanEnv = { ...process.env }
  delete cleanEnv.DATABASE_URL
  delete cleanEnv.REDIS_URL
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env: { ...cleanEnv, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.on('data', (d) => { out += d })
  child.stderr!.on('data', (d) => { out += d })
  return new Promise((resolve, reject) => {
    // A start that never comes is killed, so a failing test leaves no server behind.
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`no "listening" line in 240 s:\n${out}`)) }, 240_000)
    const onData = () => {
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (m) { clearTimeout(timer); resolve({ child, base: m[1]!, output: () => out }) }
    }
    child.stdout!.on('data', onData)
    child.on('exit', (code) => { clearTimeout(timer); reject(Object.assign(new Error(`exited ${code}:\n${out}`), { code, out })) })
  })
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.exitCode !== null ? resolve(child.exitCode) : child.on('exit', (code) => resolve(code)))
}

describe('the service as a process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fps-proc-'))
  after(() => rmSync(dir, { recursive: true, force: true }))

  it('starts on the embedded database, serves, refuses a second process on the same DATA_DIR, and stops cleanly on SIGTERM', async () => {
    const first = await start({ DATA_DIR: dir })
    try {
      const res = await fetch(`${first.base}/api/status`)
      assert.equal(res.status, 200)
      assert.equal((await res.json()).servicos.find((s: { nome: string }) => s.nome === 'banco').modo, 'pglite')
      assert.ok(existsSync(join(dir, 'pglite', 'service.lock')))

      const second = await start({ DATA_DIR: dir }).then(() => assert.fail('a second process opened the same data dir'), (err) => err)
      assert.equal(second.code, 2)
      assert.match(second.out, /in use by process \d+/)

      // Every log line is JSON; each request gets exactly one access line, which carries its request id.
      const lines = first.output().split('\n').filter(Boolean).map((l) => JSON.parse(l))
      const access = lines.filter((l) => l.msg === 'request' && l.route === '/api/status')
      assert.equal(access.length, 1, JSON.stringify(access))
      assert.equal(access[0].reqId, res.headers.get('x-request-id'))
      assert.equal(lines.filter((l) => l.reqId === access[0].reqId).length, 1, 'one line per request, not two')
    } finally {
      first.child.kill('SIGTERM')
    }
    assert.equal(await exited(first.child), 0)
    assert.ok(!existsSync(join(dir, 'pglite', 'service.lock')), 'the lock is released on exit')
  })

  it('refuses a bad configuration with a message naming the variable, exit code 2', async () => {
    const err = await start({ DATA_DIR: dir, AMBIENTE: 'staging' }).then(() => assert.fail('started'), (e) => e)
    assert.equal(err.code, 2)
    assert.match(err.out, /AMBIENTE must be "producao" or "sandbox"/)
    assert.doesNotMatch(err.out, /\n\s+at /, 'no stack trace')
  })
})

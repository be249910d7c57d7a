// No secret in any output: the real process (dist/main.js) and CLI (dist/cli/main.js) run with passwords in
// DATABASE_URL, REDIS_URL and SMTP_URL while requests go wrong and every dependency fails in turn; none of
// the passwords may appear in a response, a log line, CLI output or an error message.
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { before, describe, it } from 'node:test'
import { contactBody, serviceConfigFile } from '../helpers/app.ts'
import { usingPostgres } from '../helpers/database.ts'
import { useTestDatabase } from '../helpers/fixture.ts'
import { createTestRedis, type TestRedis } from '../helpers/redis.ts'
import { createTestSmtp, type TestSmtp } from '../helpers/smtp.ts'
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts'
import { tempDir } from '../helpers/temp.ts'
import { until } from '../helpers/wait.ts'

const DB_PASSWORD = 'S3cr3t-db-Zq9'
const REDIS_PASSWORD = 'S3cr3t-rd-Xk7'
const SMTP_PASSWORD = 'S3cr3t-mx-Wp4'
const WRONG_PASSWORD = 'S3cr3t-wrong-Hv2'
const SECRETS = [DB_PASSWORD, REDIS_PASSWORD, SMTP_PASSWORD, WRONG_PASSWORD]

type Proc = { child: ChildProcess, output: () => string, exited: Promise<number | null> }

/** Everything any process or response said, checked for the passwords at the end. */
const transcript: string[] = []

function run(script: string, args: string[], env: Record<string, string>): Proc {
  const base: Record<string, string | undefined> = { ...process.env }
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'MAIL_SANDBOX', 'AMBIENTE']) delete base[name]
  const child = spawn(process.execPath, [script, ...args], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.on('data', (d) => { out += d })
  child.stderr!.on('data', (d) => { out += d })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => { transcript.push(out); resolve(code) }))
  return { child, output: () => out, exited }
}

async function request(base: string, path: string, init: RequestInit = {}): Promise<number> {
  const res = await fetch(`${base}${path}`, init)
  transcript.push(JSON.stringify([...res.headers]), await res.text())
  return res.status
}

const post = (base: string, body: string, type = 'application/json') =>
  request(base, '/api/site/contato', { method: 'POST', headers: { 'content-type': type }, body })

describe('no secret in any output', { skip: usingPostgres ? false : 'needs DATABASE_URL (a PostgreSQL server)' }, () => {
  const tdb = useTestDatabase()
  let proxy: TcpProxy
  let redis: TestRedis
  let smtp: TestSmtp
  const smtpAuth = { user: 'contato', pass: SMTP_PASSWORD }
  const dataDir = tempDir('secrets')
  const children: ChildProcess[] = []
  let env: Record<string, string>

  // Each dependency is handed to the database's fixture as it starts: at the end they stop newest first
  // (the service processes, SMTP, Redis, the proxy), then the database goes.
  before(async () => {
    const db = new URL(tdb.url!)
    proxy = await startTcpProxy(db.hostname, Number(db.port || 5432))
    tdb.defer(() => proxy.close())
    // Trust authentication accepts any password: this one only has to travel, and never be shown.
    db.password = DB_PASSWORD
    db.host = `127.0.0.1:${proxy.port}`
    redis = await createTestRedis({ password: REDIS_PASSWORD })
    tdb.defer(() => redis.kill())
    await redis.start()
    smtp = await createTestSmtp({ auth: smtpAuth })
    tdb.defer(() => smtp.stop())
    await smtp.start()
    tdb.defer(() => { for (const child of children) if (child.exitCode === null) child.kill('SIGKILL') })
    env = {
      DATABASE_URL: db.toString(), REDIS_URL: redis.url, SMTP_URL: smtp.url, DATA_DIR: dataDir, PORT: '0',
      SERVICE_CONFIG_FILE: serviceConfigFile({ rateLimits: { contato: { max: 1000, windowSeconds: 600 } } }),
      LOG_LEVEL: 'debug', STATUS_REFRESH_MS: '200', MAIL_POLL_MS: '100', DB_TIMEOUT_MS: '1000',
    }
  })

  async function startService(extra: Record<string, string> = {}): Promise<{ proc: Proc, base: string }> {
    const proc = run('dist/main.js', [], { ...env, ...extra })
    children.push(proc.child)
    const base = await until('the service listening', () => /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(proc.output())?.[1], 30_000)
    return { proc, base }
  }

  async function stop(proc: Proc): Promise<void> {
    proc.child.kill('SIGTERM')
    await proc.exited
  }

  it('keeps the passwords out of responses and logs while requests and dependencies fail', async () => {
    const { proc, base } = await startService()
    // Bad requests: 404/401 (unknown /api path), 422, malformed JSON, 413.
    await request(base, '/api/nada')
    await request(base, '/api/admin', { method: 'DELETE' })
    await request(base, '/nada-aqui')
    assert.equal(await post(base, JSON.stringify({ nome: '' })), 422)
    assert.equal(await post(base, '{"nome": '), 422)
    assert.equal(await post(base, JSON.stringify(contactBody({ mensagem: 'x'.repeat(200_000) }))), 413)
    assert.equal(await post(base, JSON.stringify(contactBody())), 202)
    await smtp.waitFor(1)

    // The SMTP server refuses the login, then goes away.
    smtpAuth.pass = 'another-password'
    assert.equal(await post(base, JSON.stringify(contactBody())), 202)
    // The delivery's own line, not any line that mentions auth: the SMTP server goes away right after.
    await until('a refused login logged', () => proc.output().includes('"codigo_smtp":535'), 15_000)
    await smtp.stop()
    assert.equal(await post(base, JSON.stringify(contactBody())), 202)
    await new Promise((r) => setTimeout(r, 1500))

    // Redis killed, then the database cut.
    await redis.kill()
    await until('limites not ok', async () => {
      return (await request(base, '/api/status')) === 200 && transcript.at(-1)!.includes('"nome":"limites","ok":false')
    })
    await request(base, '/api/site/contato/estado')
    await proxy.down()
    await request(base, '/api/health/ready')
    await post(base, JSON.stringify(contactBody()))
    await request(base, '/api/status')
    await new Promise((r) => setTimeout(r, 1500))
    await request(base, '/api/site/contato/estado')
    await proxy.up()
    await redis.start()
    smtpAuth.pass = SMTP_PASSWORD
    await smtp.start()
    await stop(proc)
  })

  it('keeps them out of CLI output', async () => {
    for (const args of [['fila', 'listar'], ['email', 'testar', 'x@y.com.br']]) {
      const cli = run('dist/cli/main.js', args, env)
      children.push(cli.child)
      assert.equal(await cli.exited, 0, cli.output())
    }
    smtpAuth.pass = 'another-password'
    const refused = run('dist/cli/main.js', ['email', 'testar', 'x@y.com.br'], env)
    children.push(refused.child)
    assert.notEqual(await refused.exited, 0, 'a refused login fails the test e-mail')
    smtpAuth.pass = SMTP_PASSWORD
  })

  it('keeps them out of start-up failures: wrong passwords, unreachable servers', async () => {
    const wrongRedis = new URL(redis.url)
    wrongRedis.password = WRONG_PASSWORD
    const wrongSmtp = new URL(smtp.url)
    wrongSmtp.password = WRONG_PASSWORD
    // A wrong Redis or SMTP password does not stop the service: it serves, and says so without the password.
    const wrongStarts: Record<string, string>[] = [{ REDIS_URL: wrongRedis.toString() }, { SMTP_URL: wrongSmtp.toString() }]
    for (const extra of wrongStarts) {
      const { proc, base } = await startService(extra)
      await request(base, '/api/status')
      await request(base, '/api/site/contato/estado')
      await new Promise((r) => setTimeout(r, 1000))
      await stop(proc)
    }
    // PostgreSQL here trusts any password, so the database's start-up failure is an unreachable server.
    await proxy.down()
    const noDb = run('dist/main.js', [], env)
    children.push(noDb.child)
    assert.equal(await noDb.exited, 2, noDb.output())
    const cli = run('dist/cli/main.js', ['fila', 'listar'], env)
    children.push(cli.child)
    assert.notEqual(await cli.exited, 0)
    await proxy.up()
    const wrongCli = run('dist/cli/main.js', ['email', 'testar', 'x@y.com.br'], { ...env, SMTP_URL: wrongSmtp.toString() })
    children.push(wrongCli.child)
    assert.notEqual(await wrongCli.exited, 0)
  })

  // Runs last (a suite's tests run in order), over everything the tests before it collected.
  it('none of the passwords appears in anything collected', () => {
    const lines = transcript.join('\n').split('\n')
    const all = lines.join('\n')
    // The faults really happened (else the check below proves nothing).
    const evidence = ['"codigo_smtp":535', '"code":"ECONNREFUSED"', 'redis unavailable: per-instance budgets', 'DATABASE_URL: cannot connect']
    for (const seen of [...evidence, '"nome":"limites","ok":false']) {
      assert.ok(all.includes(seen), `the transcript shows ${seen}`)
    }
    assert.ok(lines.length > 50, 'something was collected')
    for (const secret of SECRETS) {
      const forms = [...new Set([secret, encodeURIComponent(secret)])]
      const leaks = lines.filter((l) => forms.some((f) => l.includes(f))).map((l) => l.replaceAll(secret, '<SECRET>').slice(0, 400))
      assert.deepEqual(leaks, [], 'a password was shown')
    }
  })
})

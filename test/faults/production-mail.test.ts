// AMBIENTE=producao without a mail provider: refused at start unless MAIL_SANDBOX=on says it is on purpose,
// and then the service says honestly that e-mail is not delivered while still keeping every contact.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import { ConfigError, loadConfig } from '../../src/config.ts'
import { outbox } from '../../src/platform/db/schema.ts'
import { contactBody } from '../helpers/app.ts'
import { testApp, useTestDatabase } from '../helpers/fixture.ts'
import { tempDir } from '../helpers/temp.ts'
import { until } from '../helpers/wait.ts'

const SMTP_URL = 'smtp://127.0.0.1:2525/?ignoreTLS=true'

describe('AMBIENTE=producao and mail: configuration', () => {
  it('refuses producao without SMTP_URL, naming SMTP_URL and MAIL_SANDBOX', () => {
    assert.throws(() => loadConfig({ AMBIENTE: 'producao' }), (err: Error) => {
      assert.ok(err instanceof ConfigError)
      assert.match(err.message, /AMBIENTE=producao needs SMTP_URL/)
      assert.match(err.message, /MAIL_SANDBOX=on/)
      return true
    })
  })

  it('accepts producao without SMTP_URL when MAIL_SANDBOX=on, in sandbox', () => {
    const config = loadConfig({ AMBIENTE: 'producao', MAIL_SANDBOX: 'on' })
    assert.equal(config.ambiente, 'producao')
    assert.equal(config.mailSandbox, true)
  })

  it('MAIL_SANDBOX=on with SMTP_URL means sandbox; producao with SMTP_URL alone delivers', () => {
    assert.equal(loadConfig({ AMBIENTE: 'producao', SMTP_URL, MAIL_SANDBOX: 'on' }).mailSandbox, true)
    assert.equal(loadConfig({ SMTP_URL, MAIL_SANDBOX: 'on' }).mailSandbox, true)
    assert.equal(loadConfig({ AMBIENTE: 'producao', SMTP_URL }).mailSandbox, false)
  })
})

describe('AMBIENTE=producao and mail: the real process', () => {
  it('node dist/main.js with AMBIENTE=producao and no SMTP_URL exits 2 with the message and no stack', async () => {
    const env: Record<string, string | undefined> = { ...process.env, AMBIENTE: 'producao', DATA_DIR: tempDir('prod-mail'), PORT: '0' }
    for (const name of ['SMTP_URL', 'MAIL_SANDBOX', 'DATABASE_URL', 'REDIS_URL']) delete env[name]
    const child = spawn(process.execPath, ['dist/main.js'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    after(() => { if (child.exitCode === null) child.kill('SIGKILL') })
    let out = ''
    child.stdout!.on('data', (d) => { out += d })
    child.stderr!.on('data', (d) => { out += d })
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)))
    assert.equal(code, 2, out)
    assert.match(out, /configuration error: AMBIENTE=producao needs SMTP_URL/)
    assert.match(out, /MAIL_SANDBOX=on/)
    assert.doesNotMatch(out, /\n\s+at /, 'no stack trace')
  })
})

describe('AMBIENTE=producao with MAIL_SANDBOX=on', () => {
  const tdb = useTestDatabase()

  it('shows email not ok (sandbox), cannot send, is not healthy, and still keeps contacts as sandbox .eml', async (t) => {
    const dataDir = tempDir('prod-sandbox')
    const env = { AMBIENTE: 'producao', MAIL_SANDBOX: 'on', DATA_DIR: dataDir, MAIL_POLL_MS: '50', STATUS_REFRESH_MS: '100' }
    const app = await testApp(t, { db: tdb.db, env })

    const res = await app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody() })
    assert.equal(res.statusCode, 202)
    const { protocolo } = res.json()
    await until('the sandbox .eml', async () => existsSync(join(dataDir, 'mail', `${protocolo}.eml`)))
    // The file is written before the row is marked: wait for the row too.
    await until('the outbox row in sandbox', async () => {
      const [row] = await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo))
      return row?.estado === 'sandbox'
    })

    const email = await until('email in /api/status', async () => {
      const status = (await app.inject({ url: '/api/status' })).json()
      return status.servicos.find((s: { nome: string }) => s.nome === 'email')
    })
    assert.equal(email.ok, false)
    assert.equal(email.modo, 'sandbox')
    const estado = (await app.inject({ url: '/api/site/contato/estado' })).json()
    assert.equal(estado.modo, 'sandbox')
    assert.equal(estado.pode_enviar, false)
    assert.equal(estado.saudavel, false)
  })
})

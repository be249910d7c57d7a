// loadConfig(): the defaults, and a ConfigError naming the variable for every bad value, without ever
// repeating a password found in a URL.
import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { DEFAULT_SUBJECTS } from '../src/modules/contact/subjects.ts'
import { ConfigError, loadConfig } from '../src/config.ts'
import { DEFAULT_RATE_LIMITS } from '../src/platform/http/rate-limit-config.ts'

const PASSWORD = 'S3gr3d0-Sup3r'

/** Asserts that loading `env` throws a ConfigError whose message names `variable` and holds no password. */
function assertRejected(env: Record<string, string>, variable: string) {
  let error: unknown
  try {
    loadConfig(env)
  } catch (err) {
    error = err
  }
  assert.ok(error instanceof ConfigError, `${JSON.stringify(env)}: expected a ConfigError, got ${String(error)}`)
  assert.ok(error.message.includes(variable), `"${error.message}" should name ${variable}`)
  assert.ok(!error.message.includes(PASSWORD), `"${error.message}" repeats the password`)
  assert.ok(!error.message.includes(encodeURIComponent(PASSWORD)), `"${error.message}" repeats the password`)
  return error
}

describe('loadConfig', () => {
  describe('defaults (empty environment)', () => {
    const config = loadConfig({})

    it('listens on 127.0.0.1:3000', () => {
      assert.equal(config.port, 3000)
      assert.equal(config.host, '127.0.0.1')
    })

    it('uses the embedded database in ./data, memory rate limits and the sandbox mailer', () => {
      assert.equal(config.databaseUrl, undefined)
      assert.equal(config.dataDir, resolve('./data'))
      assert.equal(config.redisUrl, undefined)
      assert.equal(config.smtpUrl, undefined)
      assert.equal(typeof config.mailFrom, 'string')
      assert.ok(config.mailFrom.length > 0)
    })

    it('holds at most 10 connections to PostgreSQL; DATABASE_POOL_MAX sets another number', () => {
      assert.equal(config.databasePoolMax, 10)
      assert.equal(loadConfig({ DATABASE_POOL_MAX: '25' }).databasePoolMax, 25)
    })

    it('is a development environment with an unstamped build', () => {
      assert.equal(config.ambiente, '')
      assert.deepEqual(config.build, { versao: '', commit: '', buildEm: '', schemaVersao: '' })
    })

    it('trusts no proxy, exempts no address, allows no cross-origin contact post', () => {
      assert.deepEqual(config.trustProxy, [])
      assert.deepEqual(config.rateLimitAllowlist, [])
      assert.deepEqual(config.siteOrigins, [])
    })

    it('logs at info; default subjects and rate limits (the contact form: 5 per 10 minutes)', () => {
      assert.equal(config.logLevel, 'info')
      assert.deepEqual(config.subjects, DEFAULT_SUBJECTS)
      assert.deepEqual(config.rateLimits, DEFAULT_RATE_LIMITS)
      assert.deepEqual(config.rateLimits.contato, { max: 5, windowSeconds: 600 })
      assert.ok(config.rateLimits.leitura.max >= 100, 'reads are generous')
      assert.ok(config.subjects.some((s) => s.codigo === 'geral'))
    })

    it('empty and blank values count as unset', () => {
      const blank = loadConfig({ PORT: '', HOST: '  ', DATABASE_URL: '', REDIS_URL: ' ', AMBIENTE: '', TRUST_PROXY: '', SITE_ORIGINS: ' , ', LOG_LEVEL: '' })
      assert.equal(blank.port, 3000)
      assert.equal(blank.host, '127.0.0.1')
      assert.equal(blank.databaseUrl, undefined)
      assert.equal(blank.redisUrl, undefined)
      assert.equal(blank.ambiente, '')
      assert.deepEqual(blank.trustProxy, [])
      assert.deepEqual(blank.siteOrigins, [])
      assert.equal(blank.logLevel, 'info')
    })
  })

  describe('good values', () => {
    it('are read and normalized', () => {
      const config = loadConfig({
        PORT: '8080', HOST: '0.0.0.0', AMBIENTE: 'producao', LOG_LEVEL: 'warn', DATA_DIR: '/var/lib/fps',
        DATABASE_URL: `postgresql://app:${PASSWORD}@db.internal:5432/fps`, REDIS_URL: 'rediss://:pw@cache:6380/0', SMTP_URL: 'smtps://u:p@smtp.example:465',
        TRUST_PROXY: '10.0.0.1, 172.16.0.0/12,::1,2001:db8::/32', RATE_LIMIT_ALLOWLIST: '10.0.0.0/8',
        SITE_ORIGINS: 'https://www.fatorial.com.br, https://fatorial.com.br/ ,http://localhost:4321',
        APP_VERSION: '1.4.2', APP_COMMIT: 'abc1234', APP_BUILD_TIME: '2026-11-20T12:00:00Z', APP_SCHEMA_VERSION: '0001',
      })
      assert.equal(config.port, 8080)
      assert.equal(config.host, '0.0.0.0')
      assert.equal(config.ambiente, 'producao')
      assert.equal(config.logLevel, 'warn')
      assert.equal(config.dataDir, '/var/lib/fps')
      assert.equal(config.databaseUrl, `postgresql://app:${PASSWORD}@db.internal:5432/fps`)
      assert.equal(config.redisUrl, 'rediss://:pw@cache:6380/0')
      assert.equal(config.smtpUrl, 'smtps://u:p@smtp.example:465')
      assert.deepEqual(config.trustProxy, ['10.0.0.1', '172.16.0.0/12', '::1', '2001:db8::/32'])
      assert.deepEqual(config.rateLimitAllowlist, ['10.0.0.0/8'])
      assert.deepEqual(config.siteOrigins, ['https://www.fatorial.com.br', 'https://fatorial.com.br', 'http://localhost:4321'])
      assert.deepEqual(config.build, { versao: '1.4.2', commit: 'abc1234', buildEm: '2026-11-20T12:00:00Z', schemaVersao: '0001' })
      assert.equal(loadConfig({ AMBIENTE: 'sandbox' }).ambiente, 'sandbox')
      assert.equal(loadConfig({ DATABASE_URL: 'postgres://localhost/x' }).databaseUrl, 'postgres://localhost/x')
      assert.equal(loadConfig({ DATABASE_URL: 'postgres://localhost/x' }).migrationDatabaseUrl, undefined)
      const split = loadConfig({ DATABASE_URL: 'postgres://fct_servico@db/x', MIGRATION_DATABASE_URL: 'postgresql://dono@db/x' })
      assert.deepEqual([split.databaseUrl, split.migrationDatabaseUrl], ['postgres://fct_servico@db/x', 'postgresql://dono@db/x'])
    })

    it('PORT takes 0 and 65535', () => {
      assert.equal(loadConfig({ PORT: '0' }).port, 0)
      assert.equal(loadConfig({ PORT: '65535' }).port, 65535)
    })
  })

  describe('bad values throw a ConfigError naming the variable', () => {
    const cases: [string, Record<string, string>][] = [
      ['AMBIENTE', { AMBIENTE: 'foo' }],
      ['AMBIENTE', { AMBIENTE: 'Producao' }],
      ['AMBIENTE', { AMBIENTE: 'desenvolvimento' }],
      ['PORT', { PORT: 'abc' }],
      ['PORT', { PORT: '-1' }],
      ['PORT', { PORT: '65536' }],
      ['PORT', { PORT: '3000.5' }],
      ['PORT', { PORT: '0x10' }],
      ['PORT', { PORT: '1e3' }],
      ['PORT', { PORT: '80 443' }],
      ['STATUS_REFRESH_MS', { STATUS_REFRESH_MS: '5' }],
      ['DB_TIMEOUT_MS', { DB_TIMEOUT_MS: 'soon' }],
      ['DATABASE_POOL_MAX', { DATABASE_POOL_MAX: '0' }],
      ['DATABASE_POOL_MAX', { DATABASE_POOL_MAX: '1001' }],
      ['DATABASE_POOL_MAX', { DATABASE_POOL_MAX: 'ten' }],
      ['IDEMPOTENCY_KEY_TTL_HOURS', { IDEMPOTENCY_KEY_TTL_HOURS: '0' }],
      ['IDEMPOTENCY_KEY_TTL_HOURS', { IDEMPOTENCY_KEY_TTL_HOURS: '721' }],
      ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
      ['DATABASE_URL', { DATABASE_URL: 'mysql://root@db/fps' }],
      ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
      ['DATABASE_URL', { DATABASE_URL: 'db.internal:5432/fps' }],
      ['MIGRATION_DATABASE_URL', { DATABASE_URL: 'postgres://db/fps', MIGRATION_DATABASE_URL: 'mysql://root@db/fps' }],
      // The embedded database has a single user: nothing to split.
      ['MIGRATION_DATABASE_URL', { MIGRATION_DATABASE_URL: 'postgres://dono@db/fps' }],
      ['REDIS_URL', { REDIS_URL: 'http://cache:6379' }],
      ['REDIS_URL', { REDIS_URL: 'cache:6379' }],
      ['SMTP_URL', { SMTP_URL: 'http://smtp.example' }],
      ['TRUST_PROXY', { TRUST_PROXY: 'notanip' }],
      ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.1,loadbalancer' }],
      ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }],
      ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/' }],
      ['TRUST_PROXY', { TRUST_PROXY: '2001:db8::/129' }],
      ['TRUST_PROXY', { TRUST_PROXY: '256.0.0.1' }],
      ['RATE_LIMIT_ALLOWLIST', { RATE_LIMIT_ALLOWLIST: '10.0.0.0/8,*' }],
      ['SITE_ORIGINS', { SITE_ORIGINS: 'notaurl' }],
      ['SITE_ORIGINS', { SITE_ORIGINS: 'www.fatorial.com.br' }],
      ['SITE_ORIGINS', { SITE_ORIGINS: 'https://fatorial.com.br/contato' }],
      ['SITE_ORIGINS', { SITE_ORIGINS: 'https://fatorial.com.br?x=1' }],
      ['SITE_ORIGINS', { SITE_ORIGINS: 'https://ok.com.br,*' }],
    ]
    for (const [variable, env] of cases) {
      it(`${variable}=${JSON.stringify(Object.values(env)[0])}`, () => { assertRejected(env, variable) })
    }
  })

  describe('a password in a URL is never repeated', () => {
    const cases: [string, string][] = [
      ['DATABASE_URL', `mysql://root:${PASSWORD}@db.internal:3306/fps`],
      ['DATABASE_URL', `postgres://app:${PASSWORD}@db.internal:99999/fps`],
      ['DATABASE_URL', `postgres://app:${PASSWORD}@db internal/fps`],
      ['DATABASE_URL', `app:${PASSWORD}@db.internal/fps`],
      ['MIGRATION_DATABASE_URL', `mysql://dono:${PASSWORD}@db.internal/fps`],
      ['REDIS_URL', `http://:${PASSWORD}@cache:6379`],
      ['REDIS_URL', `redis://:${PASSWORD}@cache:port`],
      ['SMTP_URL', `https://user:${PASSWORD}@smtp.example`],
      ['SMTP_URL', `smtp://user:${PASSWORD}@smtp example:587`],
      ['SITE_ORIGINS', `https://user:${PASSWORD}@fatorial.com.br`],
      ['SITE_ORIGINS', `https://user:${PASSWORD}@fatorial com.br`],
    ]
    for (const [variable, value] of cases) {
      it(`${variable} with a password`, () => { assertRejected({ [variable]: value }, variable) })
    }
  })

  describe('SERVICE_CONFIG_FILE', () => {
    let dir: string
    before(async () => { dir = await mkdtemp(join(tmpdir(), 'config-test-')) })
    after(async () => { if (dir) await rm(dir, { recursive: true, force: true }) })

    async function file(name: string, content: string): Promise<string> {
      const path = join(dir, name)
      await writeFile(path, content)
      return path
    }

    it('overrides subjects and some of the rate limits', async () => {
      const subjects = [
        { codigo: 'geral', rotulo: 'Geral', email: 'contato@fatorial.com.br' },
        { codigo: 'vendas', rotulo: 'Vendas', email: 'vendas@fatorial.com.br' },
      ]
      const path = await file('good.json', JSON.stringify({ subjects, rateLimits: { contato: { max: 3, windowSeconds: 300 } } }))
      const config = loadConfig({ SERVICE_CONFIG_FILE: path })
      assert.deepEqual(config.subjects, subjects)
      assert.deepEqual(config.rateLimits, { ...DEFAULT_RATE_LIMITS, contato: { max: 3, windowSeconds: 300 } })
    })

    it('an empty object changes nothing', async () => {
      const config = loadConfig({ SERVICE_CONFIG_FILE: await file('empty.json', '{}') })
      assert.deepEqual(config.subjects, DEFAULT_SUBJECTS)
      assert.deepEqual(config.rateLimits, DEFAULT_RATE_LIMITS)
    })

    const bad: [string, string][] = [
      ['not JSON', '{"rateLimits": '],
      ['null', 'null'],
      ['an array', '[]'],
      ['a number', '42'],
      ['a misspelt key', '{"rateLimit": {"contato": {"max": 1, "windowSeconds": 60}}}'],
      ['subjects not a list', '{"subjects": {"geral": "contato@x.com.br"}}'],
      ['an empty subject list', '{"subjects": []}'],
      ['subjects without geral', '{"subjects": [{"codigo": "vendas", "rotulo": "Vendas", "email": "vendas@x.com.br"}]}'],
      ['an upper-case code', '{"subjects": [{"codigo": "Geral", "rotulo": "Geral", "email": "contato@x.com.br"}]}'],
      ['a subject without e-mail', '{"subjects": [{"codigo": "geral", "rotulo": "Geral"}]}'],
      ['a subject whose e-mail is not an address', '{"subjects": [{"codigo": "geral", "rotulo": "Geral", "email": "contato"}]}'],
      ['a null subject', '{"subjects": [null]}'],
      ['rateLimits null', '{"rateLimits": null}'],
      ['rateLimits a list', '{"rateLimits": [1, 2]}'],
      ['an unknown budget', '{"rateLimits": {"contatos": {"max": 1, "windowSeconds": 60}}}'],
      ['a zero max', '{"rateLimits": {"contato": {"max": 0, "windowSeconds": 60}}}'],
      ['a fractional window', '{"rateLimits": {"leitura": {"max": 10, "windowSeconds": 0.5}}}'],
      ['a string max', '{"rateLimits": {"restrito": {"max": "10", "windowSeconds": 60}}}'],
      ['a budget that is a number', '{"rateLimits": {"contato": 5}}'],
      ['a null budget', '{"rateLimits": {"contato": null}}'],
    ]
    for (const [what, content] of bad) {
      it(`rejects ${what}`, async () => {
        assertRejected({ SERVICE_CONFIG_FILE: await file(`${what.replaceAll(' ', '-')}.json`, content) }, 'SERVICE_CONFIG_FILE')
      })
    }

    it('rejects a file that does not exist, or a directory', async () => {
      assertRejected({ SERVICE_CONFIG_FILE: join(dir, 'missing.json') }, 'SERVICE_CONFIG_FILE')
      assertRejected({ SERVICE_CONFIG_FILE: dir }, 'SERVICE_CONFIG_FILE')
    })

    it('does not quote the content of a file that is not JSON (it may be the wrong, secret file)', async () => {
      const path = await file('secrets.env', `DATABASE_URL=postgres://app:${PASSWORD}@db/fps\n`)
      const err = assertRejected({ SERVICE_CONFIG_FILE: path }, 'SERVICE_CONFIG_FILE')
      assert.ok(!err.message.includes('postgres://'), err.message)
    })
  })

  describe('production settings: PUBLIC_URL, METRICS_PORT, LOG_FORMAT, MAIL_SANDBOX, SHUTDOWN_DELAY_MS', () => {
    it('PUBLIC_URL defaults to the listener, and is kept as an origin', () => {
      assert.equal(loadConfig({}).publicUrl, 'http://127.0.0.1:3000')
      assert.equal(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).publicUrl, 'http://127.0.0.1:8080')
      assert.equal(loadConfig({ HOST: '::1' }).publicUrl, 'http://[::1]:3000')
      assert.equal(loadConfig({ PUBLIC_URL: 'https://www.Fomento.example/' }).publicUrl, 'https://www.fomento.example')
    })

    it('PUBLIC_URL with a path, a query, a user or another scheme is refused', () => {
      for (const v of ['https://x.example/site', 'https://x.example/?a=1', `https://u:${PASSWORD}@x.example`, 'ftp://x.example', 'x.example']) {
        assertRejected({ PUBLIC_URL: v }, 'PUBLIC_URL')
      }
    })

    it('METRICS_PORT is off by default, a port when set, and never the public port', () => {
      assert.equal(loadConfig({}).metricsPort, undefined)
      assert.equal(loadConfig({ METRICS_PORT: '9464' }).metricsPort, 9464)
      assertRejected({ METRICS_PORT: '3000' }, 'METRICS_PORT')
      assertRejected({ METRICS_PORT: '0' }, 'METRICS_PORT')
      assertRejected({ METRICS_PORT: 'x' }, 'METRICS_PORT')
    })

    it('LOG_FORMAT is json or pretty', () => {
      assert.equal(loadConfig({}).logFormat, 'json')
      assert.equal(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat, 'pretty')
      assertRejected({ LOG_FORMAT: 'text' }, 'LOG_FORMAT')
    })

    it('AMBIENTE=producao needs SMTP_URL, or MAIL_SANDBOX=on said on purpose', () => {
      const err = assertRejected({ AMBIENTE: 'producao' }, 'SMTP_URL')
      assert.match(err.message, /MAIL_SANDBOX=on/)
      assert.equal(loadConfig({ AMBIENTE: 'producao', MAIL_SANDBOX: 'on' }).mailSandbox, true)
      assert.equal(loadConfig({ AMBIENTE: 'producao', SMTP_URL: 'smtp://mail.example:587' }).mailSandbox, false)
      assert.equal(loadConfig({ AMBIENTE: 'producao', SMTP_URL: 'smtp://mail.example:587', MAIL_SANDBOX: 'on' }).mailSandbox, true)
      assert.equal(loadConfig({ AMBIENTE: 'sandbox', SMTP_URL: 'smtp://mail.example:587' }).mailSandbox, true)
      assert.equal(loadConfig({}).mailSandbox, true)
      assertRejected({ MAIL_SANDBOX: 'yes' }, 'MAIL_SANDBOX')
    })

    it('SHUTDOWN_DELAY_MS is 0 by default and bounded', () => {
      assert.equal(loadConfig({}).shutdownDelayMs, 0)
      assert.equal(loadConfig({ SHUTDOWN_DELAY_MS: '5000' }).shutdownDelayMs, 5000)
      assertRejected({ SHUTDOWN_DELAY_MS: '600000' }, 'SHUTDOWN_DELAY_MS')
    })
  })
})

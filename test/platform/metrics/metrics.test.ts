// Prometheus metrics scraped over HTTP from METRICS_PORT after real traffic, and never served on the public port.
import assert from 'node:assert/strict'
import { createServer } from 'node:net'
import { before, describe, it } from 'node:test'
import { buildApp } from '../../../src/app.ts'
import { loadConfig } from '../../../src/config.ts'
import { startupProblem } from '../../../src/platform/lib/startup.ts'
import { contactBody, createTestApp } from '../../helpers/app.ts'
import { testApp, useTestApp, useTestDatabase } from '../../helpers/fixture.ts'
import { freePort } from '../../helpers/smtp.ts'
import { until } from '../../helpers/wait.ts'
import { sample, scrape } from './exposition.ts'

describe('metrics on METRICS_PORT', () => {
  let frontPort: number
  before(async () => { frontPort = await freePort() })
  // Takes the traffic; MAIL_WORKER=off so its contacts wait in the outbox.
  const front = useTestApp(() => ({ env: { METRICS_PORT: String(frontPort), MAIL_WORKER: 'off' }, contactBudget: 2, listen: true }))

  it('counts requests by route template, method and status, never by raw URL', async () => {
    assert.equal((await fetch(`${front.base}/api/status`)).status, 200)
    assert.equal((await fetch(`${front.base}/api/health`)).status, 200)
    assert.equal((await fetch(`${front.base}/pagina-que-nao-existe-7f3a`)).status, 404)
    assert.equal((await fetch(`${front.base}/outra-que-nao-existe-9c1b`)).status, 404)
    const text = await scrape(frontPort)
    assert.equal(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/status', status_code: '200' }), 1)
    assert.equal(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/health', status_code: '200' }), 1)
    assert.equal(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '(nao_encontrada)', status_code: '404' }), 2)
    assert.ok((sample(text, 'http_request_duration_seconds_bucket', { route: '/api/status', status_code: '200', le: '+Inf' }) ?? 0) >= 1)
    assert.doesNotMatch(text, /nao-existe/, 'raw paths never become labels')
  })

  it('is not served on the public port: /metrics and /api/metrics answer as any unknown path', async () => {
    const unknownPage = await fetch(`${front.base}/qualquer-coisa`)
    const page = await fetch(`${front.base}/metrics`)
    assert.equal(page.status, 404)
    assert.equal(page.headers.get('content-type'), unknownPage.headers.get('content-type'))
    assert.doesNotMatch(await page.text(), /http_request_duration_seconds/)
    for (const path of ['/api/metrics', '/api/metrics/']) {
      const res = await fetch(`${front.base}${path}`)
      assert.equal(res.status, 401)
      assert.deepEqual(await res.json(), { detail: 'nao_autenticado' })
    }
    assert.equal((await fetch(`http://127.0.0.1:${frontPort}/api/status`)).status, 404, 'the metrics port serves only /metrics')
  })

  it('counts accepted contacts, rate-limit rejections by route, and the outbox depth by state', async () => {
    const statuses = []
    for (let i = 0; i < 3; i++) {
      statuses.push((await fetch(`${front.base}/api/site/contato`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(contactBody()),
      })).status)
    }
    assert.deepEqual(statuses, [202, 202, 429])
    const text = await until('two contacts pending in the outbox', async () => {
      const t = await scrape(frontPort)
      return sample(t, 'mail_outbox_messages', { estado: 'pendente' }) === 2 ? t : undefined
    })
    assert.equal(sample(text, 'contacts_accepted_total', { canal: 'api' }), 2)
    assert.equal(sample(text, 'http_rate_limited_total', { route: '/api/site/contato' }), 1)
    assert.equal(sample(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/api/site/contato', status_code: '429' }), 1)
    assert.equal(sample(text, 'mail_outbox_messages', { estado: 'falhou' }), 0)
    assert.equal(sample(text, 'mail_outbox_messages', { estado: 'enviando' }), 0)
  })

  it('counts delivery outcomes of the worker (sandbox transport) and the outbox drains', async (t) => {
    const courierPort = await freePort()
    // A second instance on the same database, which delivers them.
    await testApp(t, { db: front.db, env: { METRICS_PORT: String(courierPort) } })
    const text = await until('two sandbox deliveries counted', async () => {
      const t = await scrape(courierPort)
      return sample(t, 'mail_delivery_attempts_total', { resultado: 'sandbox' }) === 2 ? t : undefined
    })
    assert.equal(sample(text, 'mail_delivery_attempts_total', { resultado: 'falhou' }), undefined)
    await until('the outbox seen empty from the other instance', async () =>
      sample(await scrape(frontPort), 'mail_outbox_messages', { estado: 'pendente' }) === 0)
  })

  it('reports the status snapshot age, process and event-loop metrics, and the spam counter', async () => {
    await fetch(`${front.base}/api/status`) // the first computation happens at latest here
    const text = await scrape(frontPort)
    const age = sample(text, 'status_snapshot_age_seconds')
    assert.ok(age !== undefined && age >= 0 && age < 60, `snapshot age ${age}`)
    assert.ok((sample(text, 'process_resident_memory_bytes') ?? 0) > 0)
    assert.ok(sample(text, 'nodejs_eventloop_lag_seconds') !== undefined)
    assert.match(text, /# TYPE contact_spam_total counter/)
    // A bot filling the honeypot is answered like a person, and counted here.
    // From an address of its own: this file's loopback budget was spent by the 429 test above.
    const bot = await front.app.inject({ method: 'POST', url: '/api/site/contato', remoteAddress: '192.0.2.77', payload: contactBody({ website: 'http://spam.example' }) })
    assert.equal(bot.statusCode, 202)
    assert.equal(sample(await scrape(frontPort), 'contact_spam_total', { motivo: 'honeypot' }), 1)
  })
})

describe('the metrics listener', () => {
  const tdb = useTestDatabase()

  it('closes with the app', async () => {
    const port = await freePort()
    const app = await createTestApp({ db: tdb.db, env: { METRICS_PORT: String(port) } })
    await scrape(port)
    await app.close()
    await assert.rejects(fetch(`http://127.0.0.1:${port}/metrics`))
  })

  it('refuses to start on a port in use with a start-up problem naming METRICS_PORT', async (t) => {
    const blocker = createServer()
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r))
    t.after(() => new Promise<void>((r) => blocker.close(() => r())))
    const port = (blocker.address() as { port: number }).port
    const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent', METRICS_PORT: String(port) }), { db: tdb.db, logger: false })
    t.after(() => app.close())
    const err = await app.ready().then(() => assert.fail('started'), (e: unknown) => e)
    assert.match(startupProblem(err) ?? '', new RegExp(`^METRICS_PORT ${port} is already in use on HOST 127\\.0\\.0\\.1 \\(EADDRINUSE\\)`))
  })
})

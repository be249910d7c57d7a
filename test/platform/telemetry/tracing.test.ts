// OpenTelemetry tracing: off, the service loads no OpenTelemetry module at all; on (OTEL_EXPORTER_OTLP_ENDPOINT),
// a collector on loopback receives the request's spans in the caller's trace (its traceparent), pg's and
// ioredis's spans inside it, and the delivery's mail span.
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { contactBody } from '../../helpers/app.ts'
import { customer, operatorToken } from '../../helpers/credentials.ts'
import { onPostgresOnly } from '../../helpers/database.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'
import { tempDir } from '../../helpers/temp.ts'
import { until } from '../../helpers/wait.ts'
import { startCollector, type ReceivedSpan } from './collector.ts'
import { startService } from './service.ts'

const RECORD_IMPORTS = new URL('./record-imports.mjs', import.meta.url).href
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c'
const TRACEPARENT = `00-${TRACE_ID}-b7ad6b7169203331-01`

const postContact = (base: string) => fetch(`${base}/api/site/contato`, {
  method: 'POST', headers: { 'content-type': 'application/json', traceparent: TRACEPARENT }, body: JSON.stringify(contactBody()),
})

describe('OpenTelemetry', () => {
  it('without OTEL_EXPORTER_OTLP_ENDPOINT no OpenTelemetry module is loaded, serving and delivering included; with it they are', async (t) => {
    const collector = await startCollector(t)
    const loaded = async (env: Record<string, string>): Promise<string[]> => {
      const dir = tempDir('imports')
      const log = join(dir, 'imports.log')
      const service = await startService(t, { IMPORT_LOG: log, DATA_DIR: dir, MAIL_POLL_MS: '100', ...env }, [RECORD_IMPORTS])
      assert.equal((await fetch(`${service.base}/api/status`)).status, 200)
      assert.equal((await postContact(service.base)).status, 202)
      // Delivered to the sandbox: nodemailer, imported on first use, is loaded too.
      const mailDir = join(dir, 'mail')
      await until('the contact delivered to the sandbox', () => existsSync(mailDir) && readdirSync(mailDir).some((f) => f.endsWith('.eml')))
      assert.equal(await service.stop(), 0)
      return readFileSync(log, 'utf8').split('\n').filter(Boolean)
    }
    const off = await loaded({})
    assert.ok(off.some((url) => url.includes('/node_modules/fastify/')), 'the recorder sees the packages the service imports')
    assert.deepEqual(off.filter((url) => /@opentelemetry|import-in-the-middle/.test(url)), [])
    const on = await loaded({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url })
    assert.ok(on.some((url) => url.includes('/node_modules/@opentelemetry/')), 'the same recorder sees them when tracing is on')
  })

  describe('spans sent to the collector', { skip: onPostgresOnly('pg is the driver of PostgreSQL (the embedded database has none)') }, () => {
    const tdb = useTestDatabase({ skip: onPostgresOnly('pg is the driver of PostgreSQL') })

    it('a request in the caller\'s trace with pg and ioredis spans inside it, and a span per message sent', async (t) => {
      const collector = await startCollector(t)
      const service = await startService(t, {
        DATABASE_URL: tdb.url!, ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_SERVICE_NAME: 'fps-teste', MAIL_POLL_MS: '100',
      })
      const res = await postContact(service.base)
      assert.equal(res.status, 202)
      const [, traceId, spanId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(res.headers.get('traceresponse') ?? '') ?? []
      assert.equal(traceId, TRACE_ID, `traceresponse ${res.headers.get('traceresponse')}`)

      const inTrace = (scope: string) => collector.spans.filter((s) => s.traceId === TRACE_ID && s.scope === scope)
      const server = await until('the server span', () => inTrace('@opentelemetry/instrumentation-http').find((s) => s.kind === 2))
      assert.equal(server.parentSpanId, 'b7ad6b7169203331', 'a child of the caller\'s span')
      assert.equal(server.spanId, spanId, 'traceresponse names the exported server span')
      assert.equal(server.service, 'fps-teste')
      assert.equal(server.attributes['http.route'] ?? server.attributes['http.target'] ?? server.attributes['url.path'], '/api/site/contato')

      const queries = await until('pg spans in the request\'s trace', () => {
        const q = inTrace('@opentelemetry/instrumentation-pg')
        return q.some((s) => /INSERT/i.test(String(s.attributes['db.statement'] ?? s.attributes['db.query.text'] ?? ''))) ? q : undefined
      })
      for (const q of queries) {
        const statement = String(q.attributes['db.statement'] ?? q.attributes['db.query.text'] ?? '')
        assert.doesNotMatch(statement, /Maria|empresa\.com/, 'statements carry placeholders, never the contact\'s data')
      }
      if (process.env.REDIS_URL) await until('an ioredis span in the request\'s trace', () => inTrace('@opentelemetry/instrumentation-ioredis').length > 0)

      const mail: ReceivedSpan = await until('the delivery\'s mail span', () => collector.spans.find((s) => s.name === 'mail send'))
      assert.equal(mail.attributes['mail.transport'], 'StreamTransport', 'the sandbox transport')
      assert.ok(!JSON.stringify(mail).includes('@'), 'no address in the mail span')
      assert.deepEqual([...collector.contentTypes], ['application/json'])
      assert.equal(await service.stop(), 0)
    })

    it('a read in one round trip (its statements prepared) is a pg span of the request, ended', async (t) => {
      const collector = await startCollector(t)
      const service = await startService(t, { DATABASE_URL: tdb.url!, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '100' })
      const c = await customer(tdb.db)
      const { token } = await operatorToken(tdb.db, c.id)
      const res = await fetch(`${service.base}/api/conta`, { headers: { authorization: `Bearer ${token}`, traceparent: TRACEPARENT } })
      assert.equal(res.status, 200)
      // Only an ended span is exported: the one-trip read's, with the tenant's setting and the read in its statement.
      const statementOf = (s: ReceivedSpan) => String(s.attributes['db.statement'] ?? s.attributes['db.query.text'] ?? '')
      const trip = await until('the one-trip read\'s span', () => collector.spans.find((s) => s.traceId === TRACE_ID
        && s.scope === '@opentelemetry/instrumentation-pg' && /set_config\('app\.cliente_id'[^]*FROM "?clientes"?/.test(statementOf(s))))
      assert.ok(!statementOf(trip).includes(c.id), 'the values are parameters, never in the statement')
      assert.equal(await service.stop(), 0)
    })
  })
})

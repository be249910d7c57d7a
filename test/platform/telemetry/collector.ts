// An OTLP/HTTP collector on loopback, in the test's process: it keeps every span POSTed to /v1/traces in the JSON
// encoding @opentelemetry/exporter-trace-otlp-http sends (ids as hex strings).
import { createServer } from 'node:http'
import type { TestContext } from 'node:test'
import { defer } from '../../helpers/fixture.ts'

export type ReceivedSpan = {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  scope: string
  service: string
  attributes: Record<string, unknown>
}

type AnyValue = { stringValue?: string, intValue?: string | number, boolValue?: boolean, doubleValue?: number }
type KeyValue = { key: string, value: AnyValue }
type Export = {
  resourceSpans: {
    resource?: { attributes?: KeyValue[] }
    scopeSpans: { scope?: { name: string }, spans: (Omit<ReceivedSpan, 'scope' | 'service' | 'attributes'> & { attributes?: KeyValue[] })[] }[]
  }[]
}

const value = (v: AnyValue) => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue
const attributes = (kvs: KeyValue[] = []) => Object.fromEntries(kvs.map((kv) => [kv.key, value(kv.value)]))

export async function startCollector(t: TestContext): Promise<{ url: string, spans: ReceivedSpan[], contentTypes: Set<string> }> {
  const spans: ReceivedSpan[] = []
  const contentTypes = new Set<string>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      contentTypes.add(String(req.headers['content-type']))
      if (req.method !== 'POST' || req.url !== '/v1/traces') return res.writeHead(404).end()
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Export
      for (const rs of body.resourceSpans) {
        const service = String(attributes(rs.resource?.attributes)['service.name'])
        for (const ss of rs.scopeSpans) {
          for (const s of ss.spans) spans.push({ ...s, scope: ss.scope?.name ?? '', service, attributes: attributes(s.attributes) })
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  defer(t, () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections() }))
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, spans, contentTypes }
}

// What the framework alone costs: a minimal Fastify app with the same routes and response schemas as the
// service's read endpoints, answering the captured bodies; no plugins, no hooks, no logging.
import { readFileSync } from 'node:fs'
import Fastify from 'fastify'

const responses = JSON.parse(readFileSync(process.env.BENCH_RESPONSES, 'utf8'))
const app = Fastify({ logger: false })
const anyObject = { type: 'object', additionalProperties: true }
for (const [key, r] of Object.entries(responses)) {
  const [method, url] = key.split(' ')
  if (method !== 'GET' || !r.headers['content-type']?.startsWith('application/json')) continue
  const data = JSON.parse(Buffer.from(r.body, 'base64').toString('utf8'))
  const schema = url === '/api/health' ? { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] } : anyObject
  app.get(url, { schema: { response: { 200: schema } } }, async () => data)
}
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })
console.log(`listening ${app.server.address().port}`)

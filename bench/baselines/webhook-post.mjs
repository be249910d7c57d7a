// The webhook bench's baseline: the same deliveries with no database, no queue and no signature, only the HTTP each
// delivery is: BENCH_EVENTS bodies POSTed to the receiver by eight loops at once (the worker's slots), each request
// on a connection of its own (the sender's agent: false). Prints the events a second.
import { request } from 'node:http'
import { randomUUID } from 'node:crypto'

const target = new URL(process.env.BENCH_RECEIVER)
const total = Number(process.env.BENCH_EVENTS)
const body = JSON.stringify({ id: randomUUID(), tipo: 'operacao.criada', criado_em: new Date().toISOString(), dados: { id: randomUUID(), estado: 'rascunho' } })
let next = 0
const post = () => new Promise((resolve, reject) => {
  const req = request(target, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body),
    'webhook-id': randomUUID() } }, (res) => { res.resume(); res.on('end', resolve) })
  req.on('error', reject)
  req.end(body)
})
const started = performance.now()
await Promise.all(Array.from({ length: 8 }, async () => { while (next++ < total) await post() }))
console.log(JSON.stringify({ events_per_s: total / ((performance.now() - started) / 1000) }))

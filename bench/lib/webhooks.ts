// Issue 34's webhook delivery: events a second to a local receiver (its own process) with the queue's backlog
// drained, against the same number of bare HTTP POSTs from a process of their own (the baseline: what the delivery's
// HTTP alone costs), and the latency from a change's commit to its arrival at the receiver (p50/p99), beside the
// contact form's mail from its commit to its delivery to the sandbox.
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import pg from 'pg'
import { freePort, startServer } from './processes.ts'
import { pinned, runCaptured } from './wrk.ts'

export type WebhookResult = {
  events: number, service_events_per_s: number, baseline_events_per_s: number, ratio: number,
  latency_events: number, latency_p50_ms: number, latency_p99_ms: number, mail_messages: number, mail_p50_ms: number, mail_p99_ms: number,
}

type Deps = {
  base: string, dbUrl: string, clienteId: string, token: string, serverCpu: number | undefined, loadCpu: number | undefined, benchDir: string,
  outDir: string, quick: boolean, log: (s: string) => void,
}

const quantile = (xs: number[], q: number) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.round((s.length - 1) * q)]! : NaN }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function runWebhooks(d: Deps): Promise<WebhookResult> {
  const port = await freePort()
  const receiver = await startServer(pinned(d.loadCpu, [process.execPath, join(d.benchDir, 'load', 'webhook-receiver.mjs')]),
    { ...process.env, PORT: String(port) }, port, join(d.outDir, 'webhook-receiver.log'), '/api/health')
  const db = new pg.Client({ connectionString: d.dbUrl })
  await db.connect()
  try {
    const made = await fetch(`${d.base}/api/webhooks`, {
      method: 'POST', headers: { authorization: `Bearer ${d.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.base}/eventos`, eventos: ['*'] }),
    })
    if (made.status !== 201) throw new Error(`the bench's webhook was refused: ${made.status} ${await made.text()}`)
    const count = async () => (await (await fetch(`${receiver.base}/stats`)).json() as { count: number }).count
    const reset = () => fetch(`${receiver.base}/reset`, { method: 'POST' })
    const waitFor = async (n: number, what: string) => {
      const limit = Date.now() + 300_000
      while (await count() < n) {
        if (Date.now() > limit) throw new Error(`${what}: ${await count()} of ${n} events after 300 s`)
        await sleep(20)
      }
    }
    // Events written as a change writes them (evento_registra, in the customer's transaction), each of its own resource.
    const write = async (n: number) => {
      await db.query('BEGIN')
      await db.query(`SELECT set_config('app.cliente_id', $1, true)`, [d.clienteId])
      await db.query(`SELECT evento_registra($1::uuid, 'operacao.criada', 'operacao:' || gen_random_uuid(), jsonb_build_object('i', i))
        FROM generate_series(1, $2::int) AS i`, [d.clienteId, n])
      await db.query('COMMIT')
    }

    // Warm-up, then the backlog: every event committed at once, the time until the receiver has them all.
    await write(200)
    await waitFor(200, 'warm-up')
    const events = d.quick ? 2_000 : 20_000
    await reset()
    d.log(`webhooks: ${events} events committed at once, delivered to a local receiver`)
    await write(events)
    const started = performance.now()
    await waitFor(events, 'backlog')
    const serviceRate = events / ((performance.now() - started) / 1000)
    await reset()
    const baselineOut = await runCaptured(pinned(d.serverCpu, [process.execPath, join(d.benchDir, 'baselines', 'webhook-post.mjs')]),
      { ...process.env, BENCH_RECEIVER: `${receiver.base}/eventos`, BENCH_EVENTS: String(events) }, 'stdout')
    const baselineRate = (JSON.parse(baselineOut) as { events_per_s: number }).events_per_s

    // Latency: one event a transaction, twenty a second, each commit's time against its arrival.
    await reset()
    const commits = new Map<string, number>()
    const latencyEvents = d.quick ? 50 : 400
    for (let i = 0; i < latencyEvents; i++) {
      const recurso = `operacao:${randomUUID()}`
      await db.query('BEGIN')
      await db.query(`SELECT set_config('app.cliente_id', $1, true)`, [d.clienteId])
      await db.query(`SELECT evento_registra($1::uuid, 'operacao.criada', $2, '{}'::jsonb)`, [d.clienteId, recurso])
      const [row] = (await db.query(`SELECT id FROM eventos WHERE cliente_id = $1 AND recurso = $2`, [d.clienteId, recurso])).rows as { id: string }[]
      await db.query('COMMIT')
      commits.set(row!.id, Date.now())
      await sleep(50)
    }
    await waitFor(latencyEvents, 'latency')
    const arrivals = await (await fetch(`${receiver.base}/arrivals`)).json() as Record<string, number>
    const latencies = [...commits].map(([id, at]) => arrivals[id]! - at).filter(Number.isFinite)

    // The contact form's mail, its commit to its sandbox delivery, as the outbox records both.
    const mails = d.quick ? 20 : 100
    const before = new Date()
    for (let i = 0; i < mails; i++) {
      await fetch(`${d.base}/api/site/contato`, { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ nome: 'Bench', email: `bench${i}@empresa.com.br`, assunto: 'comercial', mensagem: `Mensagem ${i} ${randomUUID()}` }) })
      await sleep(50)
    }
    const mailLimit = Date.now() + 120_000
    let mailMs: number[] = []
    while (Date.now() < mailLimit) {
      const rows = (await db.query(`SELECT extract(epoch FROM (enviado_em - criado_em)) * 1000 AS ms FROM outbox
        WHERE tipo = 'contato' AND criado_em >= $1 AND enviado_em IS NOT NULL`, [before])).rows as { ms: string }[]
      mailMs = rows.map((r) => Number(r.ms))
      if (mailMs.length >= mails) break
      await sleep(200)
    }
    return {
      events, service_events_per_s: serviceRate, baseline_events_per_s: baselineRate, ratio: serviceRate / baselineRate,
      latency_events: latencies.length, latency_p50_ms: quantile(latencies, 0.5), latency_p99_ms: quantile(latencies, 0.99),
      mail_messages: mailMs.length, mail_p50_ms: quantile(mailMs, 0.5), mail_p99_ms: quantile(mailMs, 0.99),
    }
  } finally {
    await db.end()
    await receiver.stop()
  }
}

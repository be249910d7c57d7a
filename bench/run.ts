// Throughput of the public endpoints against a baseline measured in the same run: a bare node:http
// server answering the same JSON. The ratio (service / baseline) is what to compare between runs,
// because absolute numbers on these machines move with whatever else is running.
import autocannon from 'autocannon'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { openDatabase } from '../src/db/database.ts'
import { migrate } from '../src/db/migrate.ts'

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5)
const CONNECTIONS = 20

async function load(url: string): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return result.requests.average
}

const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL })
await migrate(db)
// Benchmarks come from loopback: exempt it, as an operator exempts probes.
const app = await buildApp(loadConfig({ ...process.env, RATE_LIMIT_ALLOWLIST: '127.0.0.1,::1', LOG_LEVEL: 'silent' }), { db, logger: false })
const appBase = await app.listen({ port: 0, host: '127.0.0.1' })

const health = JSON.stringify({ status: 'ok' })
const status = JSON.stringify(await app.deps.snapshot.current())
const baseline = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
  res.end(req.url === '/api/status' ? status : health)
})
await new Promise<void>((r) => baseline.listen(0, '127.0.0.1', r))
const baseBase = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}`

console.log(`bench: ${CONNECTIONS} connections, ${DURATION_S} s per run, database ${db.kind}`)
console.log('endpoint               service req/s   baseline req/s   ratio')
for (const path of ['/api/health', '/api/status']) {
  const base = await load(baseBase + path)
  const svc = await load(appBase + path)
  console.log(`${path.padEnd(22)} ${svc.toFixed(0).padStart(15)} ${base.toFixed(0).padStart(16)} ${(svc / base).toFixed(2).padStart(7)}`)
}

await app.close()
await db.close()
baseline.close()

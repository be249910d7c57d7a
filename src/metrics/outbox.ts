// Outbox depth for the scrape: one small query, answered by the partial indexes of migration 0003
// (sent rows, which pile up until retention, are never counted), shared by concurrent scrapes and
// reused for a second, and bounded by DB_TIMEOUT_MS so a slow database never holds a scrape.
import { sql } from 'drizzle-orm'
import { queryRows, type Orm } from '../db/database.ts'
import { singleFlight } from '../single-flight.ts'
import { withTimeout } from '../timeout.ts'

export const QUEUE_STATES = ['pendente', 'enviando', 'falhou'] as const

export function outboxDepthSource(orm: Orm, timeoutMs: number): () => Promise<Record<string, number>> {
  return singleFlight(async () => {
    const rows = await withTimeout(queryRows<{ estado: string, n: string | number }>(orm, sql`
      SELECT estado, count(*) AS n FROM outbox WHERE estado IN ('pendente', 'enviando', 'falhou') GROUP BY estado`), timeoutMs)
    const depth: Record<string, number> = Object.fromEntries(QUEUE_STATES.map((s) => [s, 0]))
    for (const r of rows) depth[r.estado] = Number(r.n)
    return depth
  }, 1000)
}

// The outbox for the scrape: one small query, answered by the partial indexes of migration 0003 (sent rows,
// which pile up until retention, are never counted), shared by concurrent scrapes and every gauge that reads it
// and reused for a second, and bounded by DB_TIMEOUT_MS so a slow database never holds a scrape.
import { sql } from 'drizzle-orm'
import { queryRows, type Orm } from '../db/database.ts'
import { singleFlight } from '../lib/single-flight.ts'
import { withTimeout } from '../lib/timeout.ts'

export const QUEUE_STATES = ['pendente', 'enviando', 'falhou'] as const

export type OutboxFigures = {
  /** Rows by state. */
  depth: Record<string, number>
  /** When the oldest message still waiting or being sent was queued (the status page's "stuck" rule); null: none. */
  oldestOpenAt: Date | null
}

export function outboxSource(orm: Orm, timeoutMs: number): () => Promise<OutboxFigures> {
  return singleFlight(async () => {
    const rows = await withTimeout(queryRows<{ estado: string, n: string | number, oldest: string | Date | null }>(orm, sql`
      SELECT estado, count(*) AS n, min(criado_em) AS oldest FROM outbox WHERE estado IN ('pendente', 'enviando', 'falhou') GROUP BY estado`), timeoutMs)
    const depth: Record<string, number> = Object.fromEntries(QUEUE_STATES.map((s) => [s, 0]))
    let oldestOpenAt: Date | null = null
    for (const r of rows) {
      depth[r.estado] = Number(r.n)
      const at = r.oldest === null || r.estado === 'falhou' ? null : new Date(r.oldest)
      if (at && (!oldestOpenAt || at < oldestOpenAt)) oldestOpenAt = at
    }
    return { depth, oldestOpenAt }
  }, 1000)
}

/** The depth alone. */
export function outboxDepthSource(orm: Orm, timeoutMs: number): () => Promise<Record<string, number>> {
  const figures = outboxSource(orm, timeoutMs)
  return async () => (await figures()).depth
}

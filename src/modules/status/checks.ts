// Timed checks of what the service depends on, for readiness and the status snapshot.
import { sql } from 'drizzle-orm'
import type { Redis } from 'ioredis'
import type { Database } from '../../platform/db/database.ts'
import { withTimeout } from '../../platform/lib/timeout.ts'
import type { ServicoOutT } from './schemas.ts'

const round = (ms: number) => Math.round(ms * 10) / 10

async function timed(fn: () => Promise<unknown>, timeoutMs: number): Promise<{ ok: boolean, latencia_ms: number | null }> {
  const start = performance.now()
  try {
    await withTimeout(fn(), timeoutMs)
    return { ok: true, latencia_ms: round(performance.now() - start) }
  } catch {
    return { ok: false, latencia_ms: null }
  }
}

export async function checkDatabase(db: Database, timeoutMs: number): Promise<ServicoOutT> {
  return { nome: 'banco', modo: db.kind === 'postgres' ? 'postgres' : 'pglite', ...await timed(() => db.orm.execute(sql`SELECT 1`), timeoutMs) }
}

export async function checkLimits(redis: Redis | undefined, timeoutMs: number): Promise<ServicoOutT> {
  if (!redis) return { nome: 'limites', ok: true, latencia_ms: null, modo: 'memoria' }
  // While Redis is unreachable the budgets are counted per instance: say so rather than only "not ok".
  const result = await timed(() => redis.ping(), timeoutMs)
  return { nome: 'limites', modo: result.ok ? 'redis' : 'memoria', ...result }
}

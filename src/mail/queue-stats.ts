import { sql } from 'drizzle-orm'
import { queryRows, type Orm } from '../db/database.ts'

export type QueueStats = { pendentes: number, falhas: number, ultimaEntregaEm: Date | null }

export async function queueStats(orm: Orm): Promise<QueueStats> {
  const [row] = await queryRows<{ pendentes: string | number, falhas: string | number, ultima: string | Date | null }>(orm, sql`
    SELECT count(*) FILTER (WHERE estado IN ('pendente', 'enviando')) AS pendentes,
           count(*) FILTER (WHERE estado = 'falhou') AS falhas,
           max(enviado_em) AS ultima
      FROM outbox`)
  return {
    pendentes: Number(row!.pendentes),
    falhas: Number(row!.falhas),
    ultimaEntregaEm: row!.ultima ? new Date(row!.ultima) : null,
  }
}

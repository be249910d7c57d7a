import { sql } from 'drizzle-orm'
import { queryRows, type Orm } from '../db/database.ts'
import type { MailMode, TransportState } from './channel.ts'

export type QueueStats = {
  /** Waiting or being sent. */
  pendentes: number
  /** Waiting after at least one failed attempt. */
  tentando: number
  falhas: number
  falhasRecentes: number
  pendenteMaisAntiga: Date | null
  ultimaEntregaEm: Date | null
}

export async function queueStats(orm: Orm, now: Date): Promise<QueueStats> {
  const dayAgo = new Date(now.getTime() - 86_400_000)
  // One subquery per figure, each answered by a partial index (migration 0003) rather than a table scan.
  const [row] = await queryRows<Record<string, string | number | Date | null>>(orm, sql`
    SELECT (SELECT count(*) FROM outbox WHERE estado IN ('pendente', 'enviando')) AS pendentes,
           (SELECT count(*) FROM outbox WHERE estado = 'pendente' AND tentativas > 0) AS tentando,
           (SELECT count(*) FROM outbox WHERE estado = 'falhou') AS falhas,
           (SELECT count(*) FROM outbox WHERE estado = 'falhou' AND atualizado_em > ${dayAgo}) AS falhas_recentes,
           (SELECT min(criado_em) FROM outbox WHERE estado IN ('pendente', 'enviando')) AS pendente_mais_antiga,
           (SELECT max(enviado_em) FROM outbox) AS ultima`)
  const date = (v: unknown) => (v ? new Date(v as string) : null)
  return {
    pendentes: Number(row!.pendentes),
    tentando: Number(row!.tentando),
    falhas: Number(row!.falhas),
    falhasRecentes: Number(row!.falhas_recentes),
    pendenteMaisAntiga: date(row!.pendente_mais_antiga),
    ultimaEntregaEm: date(row!.ultima),
  }
}

export const STUCK_AFTER_MS = 30 * 60_000

/**
 * The channel is healthy when it can do its job: in SMTP mode the transport was verified, nothing
 * failed for good in the last day and nothing has waited over half an hour.
 */
export function channelHealthy(mode: MailMode, transport: TransportState, stats: QueueStats, now: Date): boolean {
  const stuck = stats.pendenteMaisAntiga !== null && now.getTime() - stats.pendenteMaisAntiga.getTime() > STUCK_AFTER_MS
  if (mode === 'sandbox') return !stuck
  return transport.verificado && stats.falhasRecentes === 0 && !stuck
}

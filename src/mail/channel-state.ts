// GET /api/site/contato/estado: what a post-deploy check needs to know about sending e-mail, and no
// host, user, password or provider address.
import type { Database } from '../db/database.ts'
import type { MailChannel } from './channel.ts'
import { withTimeout } from '../timeout.ts'
import { channelHealthy, queueStats } from './queue-stats.ts'

export async function channelState(channel: MailChannel, db: Database, now: Date, timeoutMs: number) {
  const transport = channel.transport()
  const base = {
    modo: channel.mode,
    pode_enviar: channel.canSend(),
    transporte_verificado: transport.verificado,
    verificado_em: transport.verificadoEm?.toISOString() ?? null,
  }
  try {
    const stats = await withTimeout(queueStats(db.orm, now), timeoutMs)
    return {
      ...base,
      saudavel: channel.fitForPurpose && channelHealthy(channel.mode, transport, stats, now),
      fila: { pendentes: stats.pendentes, tentando: stats.tentando, falhas: stats.falhas },
      pendente_mais_antiga_em: stats.pendenteMaisAntiga?.toISOString() ?? null,
      ultima_entrega_em: stats.ultimaEntregaEm?.toISOString() ?? null,
    }
  } catch {
    // The database is down: the queue is unknown, the probe still answers.
    return { ...base, saudavel: false, fila: { pendentes: null, tentando: null, falhas: null }, pendente_mais_antiga_em: null, ultima_entrega_em: null }
  }
}

// GET /api/site/contato/estado: what a post-deploy check needs to know about sending e-mail, and no
// host, user, password or provider address.
import type { Database } from '../db/database.ts'
import type { MailChannel } from './channel.ts'
import { mailHealth } from './health.ts'

export async function channelState(channel: MailChannel, db: Database, now: Date, timeoutMs: number) {
  const transport = channel.transport()
  const { healthy, stats } = await mailHealth(channel, db, now, timeoutMs)
  return {
    modo: channel.mode,
    pode_enviar: channel.canSend(),
    transporte_verificado: transport.verificado,
    verificado_em: transport.verificadoEm?.toISOString() ?? null,
    saudavel: healthy,
    // Unknown (null) while the database is down: the probe still answers.
    fila: { pendentes: stats?.pendentes ?? null, tentando: stats?.tentando ?? null, falhas: stats?.falhas ?? null },
    pendente_mais_antiga_em: stats?.pendenteMaisAntiga?.toISOString() ?? null,
    ultima_entrega_em: stats?.ultimaEntregaEm?.toISOString() ?? null,
  }
}

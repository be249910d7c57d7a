// What an operator sees of recent contacts: enough to follow a protocolo and to watch spam, no personal data.
import { and, desc, eq, gte, isNotNull, type SQL } from 'drizzle-orm'
import type { Orm } from '../../platform/db/database.ts'
import { contato, outbox } from '../../platform/db/schema.ts'

export type ContactSummary = {
  protocolo: string
  criadoEm: Date
  assunto: string
  /** The delivery's state; null for spam, which is never queued. */
  entrega: string | null
  spam: string | null
  dadosApagados: boolean
}

export async function listContacts(orm: Orm, opts: { spamOnly?: boolean, since?: Date, limit: number }): Promise<ContactSummary[]> {
  const where: SQL[] = []
  if (opts.spamOnly) where.push(isNotNull(contato.spam))
  if (opts.since) where.push(gte(contato.criadoEm, opts.since))
  const rows = await orm.select({
    protocolo: contato.protocolo, criadoEm: contato.criadoEm, assunto: contato.assunto, entrega: outbox.estado,
    spam: contato.spam, apagadoEm: contato.dadosApagadosEm,
  }).from(contato).leftJoin(outbox, eq(outbox.protocolo, contato.protocolo))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(contato.criadoEm), desc(contato.id)).limit(opts.limit)
  return rows.map(({ apagadoEm, ...r }) => ({ ...r, dadosApagados: apagadoEm !== null }))
}

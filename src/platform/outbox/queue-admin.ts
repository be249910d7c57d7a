// What an operator does with the delivery queue: look at it, look at one message, send failures again. Listings
// end up in terminals and tickets, so they hold no personal data: an address is shown whole only when it is one
// of the service's own mailboxes (a contact's row names the company's mailbox), any other (a person's) by its
// domain alone; never a message's content.
import { and, asc, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm'
import type { Orm } from '../db/database.ts'
import { auditoria, entregaTentativa, outbox } from '../db/schema.ts'

export type Estado = typeof outbox.$inferSelect['estado']
export const ESTADOS: Estado[] = ['pendente', 'enviando', 'enviado', 'sandbox', 'falhou']

/** The addresses shown whole: the service's own mailboxes (the contact subjects'), lower-cased. */
export type OwnMailboxes = ReadonlySet<string>

/** Who a message goes to, as an operator may see it: a person's address by its domain alone. */
function shownRecipient(own: OwnMailboxes, destino: string): string {
  return own.has(destino.toLowerCase()) ? destino : `…@${destino.slice(destino.lastIndexOf('@') + 1)}`
}

/** A provider's error can quote the recipient's address: a person's is shown as above. */
function shownError(own: OwnMailboxes, destino: string, erro: string | null): string | null {
  if (erro === null || own.has(destino.toLowerCase())) return erro
  return erro.replace(new RegExp(destino.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), shownRecipient(own, destino))
}

const SHOWN = {
  id: outbox.id, protocolo: outbox.protocolo, tipo: outbox.tipo, estado: outbox.estado, destino: outbox.destino, tentativas: outbox.tentativas,
  proximaTentativaEm: outbox.proximaTentativaEm, ultimoErro: outbox.ultimoErro, criadoEm: outbox.criadoEm, enviadoEm: outbox.enviadoEm,
  messageId: outbox.messageId, expiraEm: outbox.expiraEm, conteudoApagadoEm: outbox.conteudoApagadoEm,
}

const forOperator = (own: OwnMailboxes) => <R extends { destino: string, ultimoErro: string | null }>(r: R): R =>
  ({ ...r, destino: shownRecipient(own, r.destino), ultimoErro: shownError(own, r.destino, r.ultimoErro) })

export async function listQueue(orm: Orm, own: OwnMailboxes, estado?: Estado, limit = 200) {
  const rows = await orm.select(SHOWN).from(outbox)
    .where(estado ? eq(outbox.estado, estado) : inArray(outbox.estado, ['pendente', 'enviando', 'falhou']))
    .orderBy(desc(outbox.criadoEm)).limit(limit)
  return rows.map(forOperator(own))
}

export async function showMessage(orm: Orm, own: OwnMailboxes, protocolo: string) {
  const [row] = await orm.select(SHOWN).from(outbox).where(eq(outbox.protocolo, protocolo))
  if (!row) return undefined
  const attempts = await orm.select().from(entregaTentativa).where(eq(entregaTentativa.outboxId, row.id)).orderBy(asc(entregaTentativa.id))
  return { row: forOperator(own)(row), attempts: attempts.map((a) => ({ ...a, erro: shownError(own, row.destino, a.erro) })) }
}

/**
 * Puts failed messages back in the queue, due now, with a fresh budget of tries: those that can still be sent
 * (while they have their content, and only before their expiry when they have one).
 */
export async function requeue(orm: Orm, which: { protocolos: string[] } | 'falhas', now: Date): Promise<string[]> {
  return orm.transaction(async (tx) => {
    const rows = await tx.update(outbox)
      .set({ estado: 'pendente', tentativas: 0, proximaTentativaEm: now, atualizadoEm: now })
      .where(and(
        eq(outbox.estado, 'falhou'),
        which === 'falhas' ? sql`true` : inArray(outbox.protocolo, which.protocolos),
        isNull(outbox.conteudoApagadoEm),
        or(isNull(outbox.expiraEm), gt(outbox.expiraEm, now)),
      ))
      .returning({ protocolo: outbox.protocolo, tipo: outbox.tipo })
    for (const r of rows) await tx.insert(auditoria).values({ em: now, acao: `${r.tipo}.reenfileirado`, protocolo: r.protocolo })
    return rows.map((r) => r.protocolo)
  })
}

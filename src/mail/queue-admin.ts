// What an operator does with the delivery queue: look at it, look at one message, send failures again.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm'
import type { Orm } from '../db/database.ts'
import { auditoria, entregaTentativa, outbox } from '../db/schema.ts'

export type Estado = typeof outbox.$inferSelect['estado']
export const ESTADOS: Estado[] = ['pendente', 'enviando', 'enviado', 'sandbox', 'falhou']

export async function listQueue(orm: Orm, estado?: Estado, limit = 200) {
  return orm.select({
    protocolo: outbox.protocolo, estado: outbox.estado, destino: outbox.destino, tentativas: outbox.tentativas,
    proximaTentativaEm: outbox.proximaTentativaEm, ultimoErro: outbox.ultimoErro, criadoEm: outbox.criadoEm,
  }).from(outbox)
    .where(estado ? eq(outbox.estado, estado) : inArray(outbox.estado, ['pendente', 'enviando', 'falhou']))
    .orderBy(desc(outbox.criadoEm)).limit(limit)
}

export async function showMessage(orm: Orm, protocolo: string) {
  const [row] = await orm.select().from(outbox).where(eq(outbox.protocolo, protocolo))
  if (!row) return undefined
  const attempts = await orm.select().from(entregaTentativa).where(eq(entregaTentativa.outboxId, row.id)).orderBy(asc(entregaTentativa.id))
  return { row, attempts }
}

/** Puts failed messages back in the queue, due now, with a fresh budget of tries. */
export async function requeue(orm: Orm, which: { protocolos: string[] } | 'falhas', now: Date): Promise<string[]> {
  return orm.transaction(async (tx) => {
    const rows = await tx.update(outbox)
      .set({ estado: 'pendente', tentativas: 0, proximaTentativaEm: now, atualizadoEm: now })
      .where(and(eq(outbox.estado, 'falhou'), which === 'falhas' ? sql`true` : inArray(outbox.protocolo, which.protocolos)))
      .returning({ protocolo: outbox.protocolo })
    for (const r of rows) await tx.insert(auditoria).values({ em: now, acao: 'contato.reenfileirado', protocolo: r.protocolo })
    return rows.map((r) => r.protocolo)
  })
}

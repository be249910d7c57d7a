// The cedente's buy-backs an operation compensates (issue 33; produto.md §2.6 `compensacoes_centavos`): what the
// cedente owes back for títulos it bought back (collections' recompras, made to be compensated) is deducted from the
// net its next operation pays. Read and marked here by SQL on the recompras table alone: the collections module
// imports this one, so this one imports nothing of it.
//   * a quote takes the cedente's open buy-backs whole, oldest first, while the net it pays stays above zero (what
//     does not fit waits for a later operation), and names them in its calculation;
//   * the acceptance marks them compensated by the operation, in its transaction (a buy-back another acceptance took
//     meanwhile makes the quote stale); a cancellation gives them back.
import { sql } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { queryRows } from '../../../platform/db/database.ts'
import type { Read } from '../../../platform/db/in-transaction.ts'
import { fixedStatement } from '../../../platform/db/one-trip.ts'

export type Compensacao = { recompra_id: string, valor_centavos: number }

const OPEN_BUY_BACKS = fixedStatement<'cedente'>(sql`SELECT id, valor_centavos::text AS valor FROM recompras
  WHERE cedente_id = ${sql.placeholder('cedente')}::uuid AND estado = 'aberta' AND forma = 'compensacao' ORDER BY seq`)

/** The cedente's open buy-backs to compensate, oldest first: a read that travels with the quote's others. */
export const openBuyBacksRead = (cedenteId: string): Read<Compensacao[]> => ({
  statement: OPEN_BUY_BACKS({ cedente: cedenteId }),
  answer: (rows) => rows.map((r) => ({ recompra_id: String(r.id), valor_centavos: Number(r.valor) })),
})

/** Whole buy-backs, oldest first, that leave the net to pay above zero. */
export function thatFit(open: readonly Compensacao[], liquido: bigint): Compensacao[] {
  const out: Compensacao[] = []
  let left = liquido
  for (const c of open) {
    if (BigInt(c.valor_centavos) < left) {
      out.push(c)
      left -= BigInt(c.valor_centavos)
    }
  }
  return out
}

/** The quote's compensations, from its calculation. */
export const compensationsOf = (calculo: Record<string, unknown>): Compensacao[] => (calculo.compensacoes as Compensacao[] | undefined) ?? []

/** Marks them compensated by the operation; false when one is no longer open (another acceptance compensated it). */
export async function markCompensated(tx: Orm, list: readonly Compensacao[], operacaoId: string, now: Date): Promise<boolean> {
  if (!list.length) return true
  const done = await queryRows<{ id: string }>(tx, sql`UPDATE recompras SET estado = 'compensada', operacao_id = ${operacaoId}::uuid,
      atualizado_em = ${now.toISOString()}::timestamptz
    WHERE id = ANY(${sql.param(list.map((c) => c.recompra_id))}::uuid[]) AND estado = 'aberta' AND forma = 'compensacao' RETURNING id`)
  return done.length === list.length
}

/** A cancelled operation's compensations are open again, for the cedente's next operation. */
export async function releaseCompensated(tx: Orm, operacaoId: string, now: Date): Promise<void> {
  await tx.execute(sql`UPDATE recompras SET estado = 'aberta', operacao_id = NULL, atualizado_em = ${now.toISOString()}::timestamptz
    WHERE operacao_id = ${operacaoId}::uuid AND estado = 'compensada'`)
}

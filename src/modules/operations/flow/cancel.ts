// Cancelling an operation before it is paid (produto.md §2.5): its títulos are freed (their NF-e keys may be
// financed again) and, once accepted, the exact reverse of its acquisition is posted. A payment waiting for
// approval is cancelled with it; an approved one may be in flight at the bank, so it must fail first.
import { sql } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { queryRows } from '../../../platform/db/database.ts'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import { listEntries, postEntry, reversed } from '../../ledger/index.ts'
import { InvalidStateError } from '../errors.ts'
import { earnedDesagio } from '../desagio.ts'
import { setTitles, updateOperation, type Operation } from '../store.ts'
import { releaseCompensated } from './compensations.ts'
import { cancelPayment, openPaymentOf } from './payment.ts'

/** The states an operation may be cancelled from (an approved payment must fail first, below). */
export const CANCELLABLE: ReadonlySet<string> = new Set(['rascunho', 'cotada', 'aceita', 'formalizada', 'em_desembolso'])

/**
 * An accepted operation whose títulos have lived since (a payment received, a buy-back, a charge sent to or paid at
 * the bank) is not undone by reversing its acquisition: that would reverse money that moved after it. Such títulos
 * are named (the charges are collections', read here by SQL alone: that module imports this one).
 */
async function refuseMovedTitles(tx: Orm, op: Operation): Promise<void> {
  const rows = await queryRows<{ id: string, numero: string, estado: string, pago: boolean, cobrado: boolean }>(tx, sql`SELECT t.id, t.numero, t.estado,
      t.saldo_centavos <> t.valor_face_centavos AS pago,
      EXISTS (SELECT 1 FROM cobrancas c WHERE c.cliente_id = t.cliente_id AND c.titulo_id = t.id
        AND c.estado IN ('a_registrar', 'registrada', 'liquidada')) AS cobrado
    FROM titulos t WHERE t.operacao_id = ${op.id}::uuid ORDER BY t.numero FOR UPDATE OF t`)
  const moved = rows.filter((t) => t.estado !== 'adquirido' || t.pago || t.cobrado).map(({ id, numero, estado, cobrado }) => ({ id, numero, estado, cobrado }))
  if (moved.length) throw new InvalidStateError(op.estado, { titulos: moved })
}

export async function cancelOperation(tx: Orm, op: Operation, motivo: string, ctx: { now: Date, requestId: string | null }): Promise<void> {
  if (!CANCELLABLE.has(op.estado)) throw new InvalidStateError(op.estado)
  if (op.estado === 'em_desembolso') {
    const open = await openPaymentOf(tx, op.id)
    if (open?.estado === 'aprovado') throw new InvalidStateError(op.estado, { desembolso: { id: open.id, estado: open.estado } })
    if (open) await cancelPayment(tx, open, ctx.now)
  }
  if (op.cotacaoAceita !== null) {
    await refuseMovedTitles(tx, op)
    const { items } = await listEntries(tx, { origemId: op.id }, { limit: 10 })
    // Before a cancellation the acquisition is the operation's only entry.
    const acquisition = items.at(-1)!
    // What the daily appropriation already moved to income goes back too, or the reversal would leave "a apropriar"
    // in debit and the income standing for an operation that never was.
    const earned = await earnedDesagio(tx, op.id)
    await postEntry(tx, {
      clienteId: op.clienteId, data: brasiliaDay(ctx.now), historico: `Estorno da aquisição da operação nº ${op.numero} (cancelamento)`,
      origem: { tipo: 'operacao', id: op.id }, requestId: ctx.requestId,
      linhas: [...reversed(acquisition.linhas), { conta: 'receita_desagio', debito: earned }, { conta: 'desagio_a_apropriar', credito: earned }],
    }, ctx.now)
    await releaseCompensated(tx, op.id, ctx.now)
  }
  await setTitles(tx, op.id, 'cancelado', 'zero', ctx.now)
  await updateOperation(tx, op.id, { estado: 'cancelada', motivoCancelamento: motivo, canceladaEm: ctx.now }, ctx.now)
}

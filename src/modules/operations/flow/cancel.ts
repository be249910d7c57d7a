// Cancelling an operation before it is paid (produto.md §2.5): its títulos are freed (their NF-e keys may be
// financed again) and, once accepted, the exact reverse of its acquisition is posted. A payment waiting for
// approval is cancelled with it; an approved one may be in flight at the bank, so it must fail first.
import type { Orm } from '../../../platform/db/database.ts'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import { listEntries, postEntry, reversed } from '../../ledger/index.ts'
import { InvalidStateError } from '../errors.ts'
import { setTitles, updateOperation, type Operation } from '../store.ts'
import { cancelPayment, openPaymentOf } from './payment.ts'

/** The states an operation may be cancelled from (an approved payment must fail first, below). */
export const CANCELLABLE: ReadonlySet<string> = new Set(['rascunho', 'cotada', 'aceita', 'formalizada', 'em_desembolso'])

export async function cancelOperation(tx: Orm, op: Operation, motivo: string, ctx: { now: Date, requestId: string | null }): Promise<void> {
  if (!CANCELLABLE.has(op.estado)) throw new InvalidStateError(op.estado)
  if (op.estado === 'em_desembolso') {
    const open = await openPaymentOf(tx, op.id)
    if (open?.estado === 'aprovado') throw new InvalidStateError(op.estado, { desembolso: { id: open.id, estado: open.estado } })
    if (open) await cancelPayment(tx, open, ctx.now)
  }
  if (op.cotacaoAceita !== null) {
    const { items } = await listEntries(tx, { origemId: op.id }, { limit: 10 })
    // Before a cancellation the acquisition is the operation's only entry.
    const acquisition = items.at(-1)!
    await postEntry(tx, {
      clienteId: op.clienteId, data: brasiliaDay(ctx.now), historico: `Estorno da aquisição da operação nº ${op.numero} (cancelamento)`,
      origem: { tipo: 'operacao', id: op.id }, requestId: ctx.requestId, linhas: reversed(acquisition.linhas),
    }, ctx.now)
  }
  await setTitles(tx, op.id, 'cancelado', 'zero', ctx.now)
  await updateOperation(tx, op.id, { estado: 'cancelada', motivoCancelamento: motivo, canceladaEm: ctx.now }, ctx.now)
}

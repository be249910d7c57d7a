// Paying the cedente (produto.md §2.5, §1 "Two people for money out"): one person asks, another approves, then the
// transfer made is recorded and posted (Dr the cedente's conta gráfica, Cr bank), or its failure lets the operation
// ask again. Each step locks its payment row (and the operation's) and checks the state it leaves.
import { and, desc, eq, sql } from 'drizzle-orm'
import { queryRows, type Orm } from '../../../platform/db/database.ts'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import { postEntry } from '../../ledger/index.ts'
import { getParty, type Party, type StoredConta } from '../../origination/index.ts'
import { InvalidStateError, PaymentDayError, RegistryBlockedError, SameApproverError, TransactionInUseError, UnconfirmedAccountError } from '../errors.ts'
import { isUniqueViolation } from '../../../platform/db/driver-errors.ts'
import { cedenteOf, refuseBlocked } from './registers.ts'
import { updateOperation, type Operation, type Payment } from '../store.ts'
import { desembolsos } from '../tables.ts'

export type Account = { banco: string, agencia: string, conta: string, digito: string }
/** Who asks or approves: the credential (a token or a person's session) and the person behind it, if any. */
export type Requester = { tipo: 'usuario' | 'token', id: string, usuarioId: string | null }

/** A blocked cedente is paid nothing: its row read locked, so a block committed first is seen, one after waits. */
async function refuseBlockedCedente(tx: Orm, op: Operation): Promise<void> {
  refuseBlocked(await cedenteOf(tx, op.cedenteId, true), [])
}

/** The same bank account: bank, branch, number and check digit (the digit as stored, upper-case). */
export const sameAccount = (a: Account, b: Account) => a.banco === b.banco && a.agencia === b.agencia && a.conta === b.conta && a.digito === b.digito

/** The cedente's account `a`, if it is one of them and confirmed (issue 31 item 6); else refused, naming it. */
export function confirmedAccount(contas: readonly StoredConta[], a: Account): StoredConta {
  const found = contas.find((c) => sameAccount(c, a))
  if (!found?.confirmadaEm) throw new UnconfirmedAccountError(found?.id ?? null)
  return found
}

/** The payment's account is still one the cedente has, confirmed: it may have been removed or replaced since. */
async function refuseUnconfirmedAccount(tx: Orm, p: Payment): Promise<void> {
  confirmedAccount((await getParty(tx, 'cedente', p.cedenteId))?.contas ?? [], p)
}

/**
 * Under a product that asks for the registry, the cedente is paid only once each duplicata's assignment to the customer
 * is registered (`cedido`): the registration decides priority between buyers (Res. BCB 540), and one still pending or
 * refused (another buyer registered first) must not be paid for. Asked and approved alike.
 */
async function refuseUnregistered(tx: Orm, op: Operation): Promise<void> {
  const open = await queryRows<{ id: string, numero: string, registro_estado: string, registro_situacao: string | null }>(tx, sql`
    SELECT t.id, t.numero, t.registro_estado, t.registro_situacao FROM titulos t
      JOIN operacoes o ON o.cliente_id = t.cliente_id AND o.id = t.operacao_id
      JOIN cotacoes c ON c.cliente_id = o.cliente_id AND c.operacao_id = o.id AND c.versao = o.cotacao_aceita
      JOIN produto_versoes v ON v.cliente_id = o.cliente_id AND v.produto_id = o.produto_id AND v.versao = c.produto_versao
     WHERE t.operacao_id = ${op.id}::uuid AND v.exige_registro AND t.tipo IN ('duplicata_mercantil', 'duplicata_servico')
       AND t.registro_estado <> 'cedido'
     ORDER BY t.seq`)
  if (open.length) throw new RegistryBlockedError(open)
}

/** Each step of a payment happens on the operation's date (Brasília), the day its money was priced for. */
function refuseOtherDay(op: Operation, at: Date): void {
  const day = brasiliaDay(at)
  if (day !== op.dataOperacao) throw new PaymentDayError(op.dataOperacao, day)
}

export async function requestPayment(
  tx: Orm, op: Operation, cedente: Party, account: Account, by: Requester, valorCentavos: bigint, now: Date,
): Promise<Payment> {
  if (op.estado !== 'formalizada') throw new InvalidStateError(op.estado)
  refuseOtherDay(op, now)
  await refuseBlockedCedente(tx, op)
  await refuseUnregistered(tx, op)
  const [made] = await tx.insert(desembolsos).values({
    clienteId: op.clienteId, operacaoId: op.id, cedenteId: op.cedenteId, valorCentavos, ...account, titularDocumento: cedente.documento,
    solicitadoPorTipo: by.tipo, solicitadoPor: by.id, solicitanteUsuarioId: by.usuarioId, criadoEm: now, atualizadoEm: now,
  }).returning()
  await updateOperation(tx, op.id, { estado: 'em_desembolso' }, now)
  return made!
}

export async function lockPayment(tx: Orm, id: string): Promise<Payment | undefined> {
  const [row] = await tx.select().from(desembolsos).where(eq(desembolsos.id, id)).for('update')
  return row
}

export async function approvePayment(tx: Orm, p: Payment, op: Operation, by: Requester, now: Date): Promise<Payment> {
  if (by.usuarioId === null) throw new SameApproverError('a token with no person cannot approve a payment')
  if (by.usuarioId === p.solicitanteUsuarioId) throw new SameApproverError('the person who asked for a payment cannot approve it')
  if (p.estado !== 'aguardando_aprovacao') throw new InvalidStateError(p.estado)
  refuseOtherDay(op, now)
  await refuseBlockedCedente(tx, op)
  await refuseUnconfirmedAccount(tx, p)
  await refuseUnregistered(tx, op)
  return setPayment(tx, p.id, { estado: 'aprovado', aprovadoPorUsuarioId: by.usuarioId, aprovadoEm: now }, now)
}

/**
 * An approver refuses the payment, with a reason: under the approval's own two-person rule (a person, not the one who
 * asked), only while it waits for approval; nothing was posted, and the operation may ask again (as after a failure).
 * No day or account check: refusing moves no money.
 */
export async function refusePayment(tx: Orm, p: Payment, op: Operation, by: Requester, motivo: string, now: Date): Promise<Payment> {
  if (by.usuarioId === null) throw new SameApproverError('a token with no person cannot refuse a payment')
  if (by.usuarioId === p.solicitanteUsuarioId) throw new SameApproverError('the person who asked for a payment cannot refuse it')
  if (p.estado !== 'aguardando_aprovacao') throw new InvalidStateError(p.estado)
  const refused = await setPayment(tx, p.id, { estado: 'recusado', motivoRecusa: motivo, recusadoPorUsuarioId: by.usuarioId, recusadoEm: now }, now)
  await updateOperation(tx, op.id, { estado: 'formalizada' }, now)
  return refused
}

export async function recordTransfer(
  tx: Orm, p: Payment, op: Operation, t: { idTransacao: string, pagoEm: Date }, ctx: { now: Date, requestId: string | null },
): Promise<Payment> {
  if (p.estado !== 'aprovado') throw new InvalidStateError(p.estado)
  refuseOtherDay(op, t.pagoEm)
  await refuseBlockedCedente(tx, op)
  await refuseUnconfirmedAccount(tx, p)
  let paid: Payment
  try {
    // A savepoint: a repeated id's failure leaves the transaction usable to find the payment that holds it.
    paid = await tx.transaction((sp) => setPayment(sp, p.id, { estado: 'pago', idTransacao: t.idTransacao, pagoEm: t.pagoEm }, ctx.now))
  } catch (err) {
    if (!isUniqueViolation(err, 'desembolsos_id_transacao_unico')) throw err
    const [holder] = await tx.select({ id: desembolsos.id }).from(desembolsos)
      .where(and(eq(desembolsos.clienteId, p.clienteId), eq(desembolsos.idTransacao, t.idTransacao)))
    throw new TransactionInUseError(holder!.id)
  }
  await updateOperation(tx, op.id, { estado: 'desembolsada' }, ctx.now)
  await postEntry(tx, {
    clienteId: p.clienteId, data: brasiliaDay(t.pagoEm), historico: `Pagamento ao cedente da operação nº ${op.numero} (${t.idTransacao})`,
    origem: { tipo: 'desembolso', id: p.id }, requestId: ctx.requestId,
    linhas: [{ conta: 'conta_grafica_cedentes', cedenteId: p.cedenteId, debito: p.valorCentavos }, { conta: 'banco', credito: p.valorCentavos }],
  }, ctx.now)
  return paid
}

export async function recordFailure(tx: Orm, p: Payment, op: Operation, motivo: string, now: Date): Promise<Payment> {
  if (p.estado !== 'aprovado') throw new InvalidStateError(p.estado)
  const failed = await setPayment(tx, p.id, { estado: 'falhou', motivoFalha: motivo }, now)
  await updateOperation(tx, op.id, { estado: 'formalizada' }, now)
  return failed
}

async function setPayment(tx: Orm, id: string, set: Partial<Payment>, now: Date): Promise<Payment> {
  const [row] = await tx.update(desembolsos).set({ ...set, atualizadoEm: now }).where(eq(desembolsos.id, id)).returning()
  return row!
}

/** The operation's open payment (waiting or approved), locked; undefined when none is open. */
export async function openPaymentOf(tx: Orm, operacaoId: string): Promise<Payment | undefined> {
  const [row] = await tx.select().from(desembolsos).where(eq(desembolsos.operacaoId, operacaoId)).orderBy(desc(desembolsos.seq)).limit(1).for('update')
  return row && (row.estado === 'aguardando_aprovacao' || row.estado === 'aprovado') ? row : undefined
}

export async function cancelPayment(tx: Orm, p: Payment, now: Date): Promise<void> {
  await setPayment(tx, p.id, { estado: 'cancelado' }, now)
}

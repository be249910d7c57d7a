// A payment as its own routes answer it: beside each id, what an approver decides on (issue 32, item 7) — the
// operation's number, the cedente's name and document, the names of who asked, who added and confirmed the
// account, who approved or refused. A page of payments is read in at most six queries, whatever its length.
import { and, eq, inArray } from 'drizzle-orm'
import type { Orm } from '../../platform/db/database.ts'
import { namesOf } from '../../platform/tenancy/names.ts'
import { cedentes, contasOf } from '../origination/index.ts'
import { numbersOf, type Payment } from './store.ts'
import { paymentView } from './views.ts'

export async function answerPayments(tx: Orm, clienteId: string, rows: readonly Payment[]) {
  if (!rows.length) return []
  const cedenteIds = [...new Set(rows.map((p) => p.cedenteId))]
  // One after another: a transaction is one connection.
  const contas = await contasOf(tx, clienteId, cedenteIds)
  const numero = await numbersOf(tx, rows.map((p) => p.operacaoId))
  const parties = await tx.select({ id: cedentes.id, razao_social: cedentes.razaoSocial, documento: cedentes.documento }).from(cedentes)
    .where(and(eq(cedentes.clienteId, clienteId), inArray(cedentes.id, cedenteIds)))
  const accounts = [...contas.values()].flat()
  const names = await namesOf(tx, clienteId, {
    usuarios: [...rows.flatMap((p) => [p.solicitanteUsuarioId, p.aprovadoPorUsuarioId, p.recusadoPorUsuarioId,
      p.solicitadoPorTipo === 'usuario' ? p.solicitadoPor : null]),
    ...accounts.flatMap((c) => [c.incluidaPorUsuarioId, c.confirmadaPorUsuarioId])],
    tokens: rows.map((p) => (p.solicitadoPorTipo === 'token' ? p.solicitadoPor : null)),
  })
  const cedente = new Map(parties.map(({ id, ...c }) => [id, c]))
  return rows.map((p) => paymentView(p, contas.get(p.cedenteId) ?? [], { names, numero: numero.get(p.operacaoId)!, cedente: cedente.get(p.cedenteId)! }))
}

export async function answerPayment(tx: Orm, p: Payment) {
  return (await answerPayments(tx, p.clienteId, [p]))[0]!
}

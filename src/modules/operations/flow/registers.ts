// The registers an operation stands on, read (and for an acceptance, locked) in its transaction: a blocked one
// takes part in nothing new.
import { sql } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { readInTransaction, type Read } from '../../../platform/db/in-transaction.ts'
import { fixedStatement } from '../../../platform/db/one-trip.ts'
import { columnsOf, rowDecoder } from '../../../platform/db/table-rows.ts'
import { cedentes, sacados } from '../../origination/index.ts'
import { BlockedRegisterError } from '../errors.ts'

export type CedenteRow = typeof cedentes.$inferSelect
export type SacadoRow = typeof sacados.$inferSelect

const decodeCedente = rowDecoder(cedentes)
const decodeSacado = rowDecoder(sacados)
const forUpdate = (lock: boolean) => (lock ? sql` FOR UPDATE` : sql``)
const cedenteStatement = (lock: boolean) => fixedStatement<'id'>(sql`SELECT ${columnsOf(cedentes)} FROM ${cedentes}
  WHERE ${cedentes.id} = ${sql.placeholder('id')}${forUpdate(lock)}`)
// In id order: the order locks are taken in, so two acceptances never wait on each other in a circle.
const sacadosStatement = (lock: boolean) => fixedStatement<'ids'>(sql`SELECT ${columnsOf(sacados)} FROM ${sacados}
  WHERE ${sacados.id} = ANY(${sql.placeholder('ids')}::uuid[]) ORDER BY ${sacados.id}${forUpdate(lock)}`)
const CEDENTE = cedenteStatement(false)
const CEDENTE_LOCKED = cedenteStatement(true)
const SACADOS = sacadosStatement(false)
const SACADOS_LOCKED = sacadosStatement(true)

/** The cedente, as a read of a transaction's round trip; locked when `lock` (an acceptance checks its limit against other acceptances). */
export const cedenteRead = (id: string, lock = false): Read<CedenteRow | undefined> =>
  ({ statement: (lock ? CEDENTE_LOCKED : CEDENTE)({ id }), answer: (rows) => (rows[0] ? decodeCedente(rows[0]) : undefined) })

/** The sacados by id, as a read of a transaction's round trip; locked when `lock`. */
export const sacadosRead = (ids: readonly string[], lock = false): Read<Map<string, SacadoRow>> => ({
  statement: (lock ? SACADOS_LOCKED : SACADOS)({ ids: [...new Set(ids)].sort() }),
  answer: (rows) => new Map(rows.map((r) => { const s = decodeSacado(r); return [s.id, s] })),
})

/** The cedente on its own, in the caller's transaction. */
export const cedenteOf = async (tx: Orm, id: string, lock = false): Promise<CedenteRow | undefined> =>
  (await readInTransaction(tx, [cedenteRead(id, lock)] as const))[0]

/** The sacados on their own, in the caller's transaction (none asked: none read). */
export async function sacadosOf(tx: Orm, ids: readonly string[], lock = false): Promise<Map<string, SacadoRow>> {
  return ids.length ? (await readInTransaction(tx, [sacadosRead(ids, lock)] as const))[0] : new Map()
}

/** Refuses when the cedente or any of the sacados is blocked, naming each. */
type Register = { id: string, estado: 'ativo' | 'bloqueado' }

export function refuseBlocked(cedente: Register | undefined, sacadoRows: Iterable<Register>): void {
  const blocked: { tipo: 'cedente' | 'sacado', id: string }[] = []
  if (cedente?.estado === 'bloqueado') blocked.push({ tipo: 'cedente', id: cedente.id })
  for (const s of sacadoRows) if (s.estado === 'bloqueado') blocked.push({ tipo: 'sacado', id: s.id })
  if (blocked.length) throw new BlockedRegisterError(blocked)
}

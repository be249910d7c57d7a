// The registers an operation stands on, read (and for an acceptance, locked) in its transaction: a blocked one
// takes part in nothing new.
import { asc, inArray, eq, sql } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import type { Read } from '../../../platform/db/in-transaction.ts'
import { fixedStatement } from '../../../platform/db/one-trip.ts'
import { columnsOf, rowDecoder } from '../../../platform/db/table-rows.ts'
import { cedentes, sacados } from '../../origination/index.ts'
import { BlockedRegisterError } from '../errors.ts'

export type CedenteRow = typeof cedentes.$inferSelect
export type SacadoRow = typeof sacados.$inferSelect

/** The cedente, locked when `lock` (an acceptance checks its limit against other acceptances). */
export async function cedenteOf(tx: Orm, id: string, lock = false): Promise<CedenteRow | undefined> {
  const q = tx.select().from(cedentes).where(eq(cedentes.id, id))
  const [row] = lock ? await q.for('update') : await q
  return row
}

/** The sacados by id, in id order (the order locks are taken in, so two acceptances never wait on each other in a circle). */
export async function sacadosOf(tx: Orm, ids: readonly string[], lock = false): Promise<Map<string, SacadoRow>> {
  const unique = [...new Set(ids)].sort()
  if (!unique.length) return new Map()
  const q = tx.select().from(sacados).where(inArray(sacados.id, unique)).orderBy(asc(sacados.id))
  const rows = lock ? await q.for('update') : await q
  return new Map(rows.map((r) => [r.id, r]))
}

const decodeCedente = rowDecoder(cedentes)
const decodeSacado = rowDecoder(sacados)
const CEDENTE = fixedStatement<'id'>(sql`SELECT ${columnsOf(cedentes)} FROM ${cedentes} WHERE ${cedentes.id} = ${sql.placeholder('id')}`)
const SACADOS = fixedStatement<'ids'>(sql`SELECT ${columnsOf(sacados)} FROM ${sacados}
  WHERE ${sacados.id} = ANY(${sql.placeholder('ids')}::uuid[]) ORDER BY ${sacados.id}`)

/** The cedente, as a read of a transaction's round trip (a quote's; not locked). */
export const cedenteRead = (id: string): Read<CedenteRow | undefined> =>
  ({ statement: CEDENTE({ id }), answer: (rows) => (rows[0] ? decodeCedente(rows[0]) : undefined) })

/** The sacados by id, as a read of a transaction's round trip (a quote's; not locked). */
export const sacadosRead = (ids: readonly string[]): Read<Map<string, SacadoRow>> => ({
  statement: SACADOS({ ids: [...new Set(ids)].sort() }),
  answer: (rows) => new Map(rows.map((r) => { const s = decodeSacado(r); return [s.id, s] })),
})

/** Refuses when the cedente or any of the sacados is blocked, naming each. */
type Register = { id: string, estado: 'ativo' | 'bloqueado' }

export function refuseBlocked(cedente: Register | undefined, sacadoRows: Iterable<Register>): void {
  const blocked: { tipo: 'cedente' | 'sacado', id: string }[] = []
  if (cedente?.estado === 'bloqueado') blocked.push({ tipo: 'cedente', id: cedente.id })
  for (const s of sacadoRows) if (s.estado === 'bloqueado') blocked.push({ tipo: 'sacado', id: s.id })
  if (blocked.length) throw new BlockedRegisterError(blocked)
}

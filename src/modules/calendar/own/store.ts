// The customer's own holidays: added, removed, and those that apply to a place between two days (a municipality's
// own and its state's), in the caller's tenant transaction.
import { and, asc, eq, gte, isNull, lte, or, sql, type SQL } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import type { Read } from '../../../platform/db/in-transaction.ts'
import { fixedStatement } from '../../../platform/db/one-trip.ts'
import { columnsOf, rowDecoder } from '../../../platform/db/table-rows.ts'
import { isUniqueViolation } from '../../../platform/db/driver-errors.ts'
import { DomainError } from '../../../platform/http/domain-error.ts'
import { ufOfMunicipio } from './places.ts'
import { feriados } from './tables.ts'

export type OwnHoliday = typeof feriados.$inferSelect

/** The customer has this holiday for this place already; `id` names it. */
export class HolidayExistsError extends DomainError<'feriado_existente'> {
  constructor(id: string) {
    super('feriado_existente', 'the customer has this holiday for this place already')
    this.fields = { id }
  }
}

export async function addHoliday(
  tx: Orm, h: { clienteId: string, data: string, descricao: string, municipioIbge: string | null, uf: string | null }, now: Date,
): Promise<OwnHoliday> {
  try {
    return (await tx.transaction(async (sp) => sp.insert(feriados).values({ ...h, criadoEm: now }).returning()))[0]!
  } catch (err) {
    if (!isUniqueViolation(err, 'feriados_unico')) throw err
    const place = h.municipioIbge !== null ? eq(feriados.municipioIbge, h.municipioIbge) : eq(feriados.uf, h.uf!)
    const [existing] = await tx.select({ id: feriados.id }).from(feriados).where(and(eq(feriados.data, h.data), place))
    throw new HolidayExistsError(existing!.id)
  }
}

/** Removes one; false when the customer has none with this id. */
export async function removeHoliday(tx: Orm, id: string): Promise<boolean> {
  return (await tx.delete(feriados).where(eq(feriados.id, id)).returning({ id: feriados.id })).length > 0
}

/** The customer's holidays between two days (both included): all, or those of a municipality and its state. */
export async function ownHolidays(tx: Orm, range: { de: string, ate: string }, municipioIbge?: string): Promise<OwnHoliday[]> {
  const where: SQL[] = [gte(feriados.data, range.de), lte(feriados.data, range.ate)]
  if (municipioIbge !== undefined) {
    const uf = ufOfMunicipio(municipioIbge)
    where.push(or(eq(feriados.municipioIbge, municipioIbge), and(isNull(feriados.municipioIbge), eq(feriados.uf, uf ?? '')))!)
  }
  return tx.select().from(feriados).where(and(...where)).orderBy(asc(feriados.data), asc(feriados.criadoEm))
}

const decodeHoliday = rowDecoder(feriados)
const HOLIDAYS_BETWEEN = fixedStatement<'de' | 'ate'>(sql`SELECT ${columnsOf(feriados)} FROM ${feriados}
  WHERE ${feriados.data} >= ${sql.placeholder('de')} AND ${feriados.data} <= ${sql.placeholder('ate')} ORDER BY ${feriados.data}, ${feriados.criadoEm}`)

/** All the customer's holidays between two days (both included), as a read of a transaction's round trip (a quote's). */
export const ownHolidaysRead = (range: { de: string, ate: string }): Read<OwnHoliday[]> =>
  ({ statement: HOLIDAYS_BETWEEN(range), answer: (rows) => rows.map(decodeHoliday) })

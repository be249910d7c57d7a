// The IOF table as the database holds it (migration 0016_iof.sql): read whole (a few rows per change of the rules),
// each row with its end derived from the next one; added to by the operator, never changed.
import { sql } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { queryRows } from '../../../platform/db/database.ts'
import type { Read } from '../../../platform/db/in-transaction.ts'
import { fixedStatement } from '../../../platform/db/one-trip.ts'
import { plainDecimal } from '../decimal.ts'
import type { IofRate } from '../iof-rates.ts'

// Days and rates are cast to text in the query: both drivers then answer the same strings (YYYY-MM-DD, exact digits).
type Row = { perfil: IofRate['perfil'], vigencia_inicio: string, vigencia_fim: string | null, taxa_diaria: string, taxa_adicional: string, fonte: string }

const EVERY_ROW = sql`SELECT perfil, vigencia_inicio::text AS vigencia_inicio, vigencia_fim::text AS vigencia_fim,
    taxa_diaria::text AS taxa_diaria, taxa_adicional::text AS taxa_adicional, fonte
  FROM iof_vigencias ORDER BY perfil, vigencia_inicio`
const asRate = (r: Row): IofRate => ({
  perfil: r.perfil, vigenciaInicio: r.vigencia_inicio, vigenciaFim: r.vigencia_fim,
  taxaDiaria: plainDecimal(r.taxa_diaria), taxaAdicional: plainDecimal(r.taxa_adicional), fonte: r.fonte,
})

/** Every row, by profile and start. */
export async function iofTable(orm: Orm): Promise<IofRate[]> {
  return (await queryRows<Row>(orm, EVERY_ROW)).map(asRate)
}

const EVERY_ROW_FIXED = fixedStatement<never>(EVERY_ROW)

/** The same, as a read of a transaction's round trip (a quote's). */
export const iofTableRead = (): Read<IofRate[]> => ({ statement: EVERY_ROW_FIXED({}), answer: (rows) => (rows as Row[]).map(asRate) })

export type NewIofRate = Omit<IofRate, 'vigenciaFim'>

/** Adds a row that starts after the profile's latest one (history is never rewritten). */
export async function addIofRate(orm: Orm, rate: NewIofRate): Promise<'added' | { latest: string }> {
  return orm.transaction(async (tx) => {
    // One addition per profile at a time: two operators adding at once cannot both pass the check below.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('iof_aliquotas'), hashtext(${rate.perfil}))`)
    const [latest] = await queryRows<{ inicio: string | null }>(tx,
      sql`SELECT max(vigencia_inicio)::text AS inicio FROM iof_aliquotas WHERE perfil = ${rate.perfil}`)
    if (latest?.inicio && latest.inicio >= rate.vigenciaInicio) return { latest: latest.inicio }
    await tx.execute(sql`INSERT INTO iof_aliquotas (perfil, vigencia_inicio, taxa_diaria, taxa_adicional, fonte)
      VALUES (${rate.perfil}, ${rate.vigenciaInicio}::date, ${rate.taxaDiaria}::numeric, ${rate.taxaAdicional}::numeric, ${rate.fonte})`)
    return 'added' as const
  })
}

/** A row as the API and the CLI's --json answer it. */
export function iofRowJson(r: IofRate): Record<string, unknown> {
  return {
    perfil: r.perfil, vigencia_inicio: r.vigenciaInicio, vigencia_fim: r.vigenciaFim, taxa_diaria: r.taxaDiaria, taxa_adicional: r.taxaAdicional,
    fonte: r.fonte,
  }
}

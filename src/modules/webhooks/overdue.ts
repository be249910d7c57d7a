// `titulo.vencido` (issue 34): no row changes when a título falls due, so no trigger can tell it. A daily job finds the
// acquired títulos with an open balance past their calendar due date (titulos_vencidos_sem_evento, across customers
// with a live endpoint), moves each due date to its business day at the sacado's place (the national holidays and
// the customer's own there), and writes the event for those past it. The event's unique index makes it once per
// título however often the job runs.
import { sql } from 'drizzle-orm'
import { queryRows, type Database } from '../../platform/db/database.ts'
import type { Job } from '../../platform/jobs/job.ts'
import { brasiliaDay } from '../../platform/lib/brasilia-time.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { nextBusinessDay, ownHolidays } from '../calendar/index.ts'
import { feriadosDoLugar } from '../collections/index.ts'

type Candidate = { cliente_id: string, id: string, vencimento: string, municipio_ibge: string | null, uf: string | null }

/** Writes the events of the títulos that fell due before `now`'s day in Brasília; answers how many it wrote. */
export async function writeOverdue(db: Database, now: Date, limit = 5000): Promise<number> {
  const hoje = brasiliaDay(now)
  const found = await queryRows<Candidate>(db.orm, sql`SELECT cliente_id, id, vencimento::text AS vencimento, municipio_ibge, uf
    FROM titulos_vencidos_sem_evento(${hoje}::date, ${limit})`)
  const byCustomer = new Map<string, Candidate[]>()
  for (const c of found) byCustomer.set(c.cliente_id, [...(byCustomer.get(c.cliente_id) ?? []), c])
  let written = 0
  for (const [clienteId, list] of byCustomer) {
    written += await withTenant(db, clienteId, async (tx) => {
      const earliest = list.reduce((d, t) => (t.vencimento < d ? t.vencimento : d), hoje)
      const own = await ownHolidays(tx, { de: earliest, ate: hoje })
      let n = 0
      for (const t of list) {
        const util = nextBusinessDay(t.vencimento, feriadosDoLugar(own, { municipioIbge: t.municipio_ibge, uf: t.uf }))
        if (util >= hoje) continue
        await tx.execute(sql`SELECT evento_registra(${clienteId}::uuid, 'titulo.vencido', ${`titulo:${t.id}`},
          (SELECT jsonb_build_object('id', id, 'id_externo', id_externo, 'operacao_id', operacao_id, 'numero', numero,
             'valor_face_centavos', valor_face_centavos, 'saldo_centavos', saldo_centavos, 'vencimento', vencimento,
             'vencimento_util', ${util}::date, 'estado', estado) FROM titulos WHERE id = ${t.id}::uuid))`)
        n++
      }
      return n
    })
  }
  return written
}

/** Daily, just after midnight in Brasília: the day's títulos past due. */
export const overdueJob = (db: Database): Job => ({ name: 'titulos-vencidos-eventos', schedule: { dailyAt: '00:10' }, run: (now) => writeOverdue(db, now) })

// The deságio earned day by day (issue 33; produto.md §3): each acquired título's deságio, from its accepted
// quote's line, is earned in equal parts over the line's days (from the operation's date to the business-day due
// date, with its float), linearly: by the end of day D a título has earned floor(deságio × elapsed ÷ days), so the
// parts add up to the deságio exactly and the last day takes the remainder of the rounding. A customer's day is
// appropriated once: one entry (Dr deságio a apropriar, Cr receita de deságio) in the transaction that moves the
// títulos' earned amounts and records the day, under a lock of the customer's day; days a run missed are caught up
// one by one, each dated as its own. What a título has not earned when it ends (liquidated, bought back, written
// off) is recognised then, by the flow that ends it.
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Database, Orm } from '../../platform/db/database.ts'
import { queryRows } from '../../platform/db/database.ts'
import type { Job } from '../../platform/jobs/job.ts'
import { brasiliaDay } from '../../platform/lib/brasilia-time.ts'
import { dataBr } from '../../platform/lib/brl.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { addDays } from '../calendar/index.ts'
import { postEntry } from '../ledger/index.ts'

export interface DiaApropriado { dia: string, centavos: bigint, titulos: number }

/** Sets the acquired títulos' deságio and days from the accepted quote's lines (at acceptance, in its transaction). */
export async function setTitleDesagio(tx: Orm, operacaoId: string, versao: number): Promise<void> {
  await tx.execute(sql`UPDATE titulos t SET desagio_centavos = (l.linha ->> 'desagio_centavos')::bigint, desagio_dias = (l.linha ->> 'dias_desconto')::integer
    FROM cotacoes c CROSS JOIN LATERAL json_array_elements(c.calculo -> 'linhas') AS l(linha)
   WHERE c.operacao_id = ${operacaoId}::uuid AND c.versao = ${versao} AND t.operacao_id = c.operacao_id AND t.id = (l.linha ->> 'titulo_id')::uuid`)
}

/** The deságio the operation's títulos have earned so far, their rows locked (the daily job waits for the caller). */
export async function earnedDesagio(tx: Orm, operacaoId: string): Promise<bigint> {
  const rows = await queryRows<{ centavos: string }>(tx, sql`SELECT desagio_apropriado_centavos::text AS centavos FROM titulos
    WHERE operacao_id = ${operacaoId}::uuid FOR UPDATE`)
  return rows.reduce((s, r) => s + BigInt(r.centavos), 0n)
}

/** Appropriates the customer's day `dia` (once): what each live título earned up to it, in one entry. */
export async function appropriateDay(db: Pick<Database, 'orm'>, clienteId: string, dia: string, now: Date): Promise<DiaApropriado | undefined> {
  return withTenant(db, clienteId, async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('apropriacao_desagio:' || ${clienteId}), hashtext(${dia}))`)
    const done = await queryRows<{ n: number }>(tx, sql`SELECT 1 AS n FROM apropriacoes_desagio WHERE dia = ${dia}::date`)
    if (done.length) return undefined
    const [moved] = await queryRows<{ centavos: string, titulos: number }>(tx, sql`
      WITH alvo AS (
        SELECT t.id, t.desagio_apropriado_centavos AS antes,
               CASE WHEN t.desagio_dias = 0 THEN t.desagio_centavos
                    ELSE floor(t.desagio_centavos::numeric * LEAST(GREATEST(${dia}::date - o.data_operacao, 0), t.desagio_dias) / t.desagio_dias)::bigint
               END AS depois
          FROM titulos t JOIN operacoes o ON o.cliente_id = t.cliente_id AND o.id = t.operacao_id
         WHERE t.estado = 'adquirido' AND t.desagio_centavos IS NOT NULL AND t.desagio_apropriado_centavos < t.desagio_centavos
           FOR UPDATE OF t
      ), mudou AS (
        UPDATE titulos t SET desagio_apropriado_centavos = a.depois FROM alvo a WHERE t.id = a.id AND a.depois > a.antes
        RETURNING a.depois - a.antes AS delta
      )
      SELECT coalesce(sum(delta), 0)::text AS centavos, count(*)::int AS titulos FROM mudou`)
    const centavos = BigInt(moved!.centavos)
    const id = randomUUID()
    const entry = centavos > 0n
      ? await postEntry(tx, {
        clienteId, data: dia, historico: `Apropriação do deságio de ${dataBr(dia)}`, origem: { tipo: 'apropriacao_desagio', id }, requestId: null,
        linhas: [{ conta: 'desagio_a_apropriar', debito: centavos }, { conta: 'receita_desagio', credito: centavos }],
      }, now)
      : null
    await tx.execute(sql`INSERT INTO apropriacoes_desagio (id, cliente_id, dia, centavos, titulos, criado_em, lancamento_id)
      VALUES (${id}::uuid, ${clienteId}::uuid, ${dia}::date, ${centavos.toString()}::bigint, ${moved!.titulos},
        ${now.toISOString()}::timestamptz, ${entry}::uuid)`)
    return { dia, centavos, titulos: moved!.titulos }
  })
}

/** Every customer's days not yet appropriated up to `ate` (the day before today when run by the job), each day once. */
export async function appropriateUntil(db: Pick<Database, 'orm'>, ate: string, now: Date): Promise<number> {
  const pending = await queryRows<{ cliente_id: string, desde: string }>(db.orm, sql`SELECT cliente_id, desde::text AS desde FROM desagio_pendente()`)
  let days = 0
  for (const p of pending) {
    for (let d = p.desde; d <= ate; d = addDays(d, 1)) {
      if (await appropriateDay(db, p.cliente_id, d, now)) days++
    }
  }
  return days
}

/** The daily job: at 00:30 in Brasília, the day that ended (and any a stopped cluster missed). Idempotent. */
export function desagioJob(db: Pick<Database, 'orm'>): Job {
  return {
    name: 'desagio-apropriacao',
    schedule: { dailyAt: '00:30' },
    run: (now) => appropriateUntil(db, addDays(brasiliaDay(now), -1), now),
  }
}

// The runs of the jobs (execucoes_tarefa, migration 0013): claimed under a lock so one instance runs a due job,
// finished with their outcome, read by the scheduler and by the operator's `tarefas listar`.
import { sql } from 'drizzle-orm'
import { dateOrNull, queryRows, type Orm } from '../db/database.ts'
import { DEFAULT_LEASE_MS, type Job } from './job.ts'
import { nextAfter } from './schedule.ts'

export type Outcome = 'em_curso' | 'ok' | 'falhou'

export type Run = {
  iniciadaEm: Date, validaAte: Date, terminadaEm: Date | null, resultado: Outcome, contagem: number | null, erro: string | null, instancia: string,
}

/** How long runs are kept: the last of each job is what the operator reads; a month shows a pattern. */
const HISTORY_MS = 30 * 86_400_000

type RunRow = {
  tarefa: string, iniciada_em: Date | string, valida_ate: Date | string, terminada_em: Date | string | null,
  resultado: Outcome, contagem: number | null, erro: string | null, instancia: string,
}

const fromRow = (r: RunRow): Run => ({
  iniciadaEm: dateOrNull(r.iniciada_em)!, validaAte: dateOrNull(r.valida_ate)!, terminadaEm: dateOrNull(r.terminada_em),
  resultado: r.resultado, contagem: r.contagem, erro: r.erro, instancia: r.instancia,
})

/** When the job is next due after its last run: never run, at once; a run not finished holds it until its lease ends. */
export function dueAt(job: Job, last: Run | undefined): Date {
  if (!last) return new Date(0)
  const next = nextAfter(job.schedule, last.iniciadaEm)
  return last.terminadaEm === null && last.validaAte > next ? last.validaAte : next
}

export type Claim = { id: string } | { dueAt: Date }

/**
 * Claims a run of `job` at `now` for `instance` if it is due: inserts its row, or answers when it is due. The
 * lock on the job's name (released at commit) makes instances that find it due at once take turns: the second
 * reads the first's row and finds it not due.
 */
export async function claimRun(orm: Orm, job: Job, now: Date, instance: string): Promise<Claim> {
  return orm.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`tarefa\n${job.name}`}, 0))`)
    const [last] = await queryRows<RunRow>(tx, sql`SELECT * FROM execucoes_tarefa WHERE tarefa = ${job.name} ORDER BY iniciada_em DESC LIMIT 1`)
    const due = dueAt(job, last && fromRow(last))
    if (due > now) return { dueAt: due }
    const leaseEnd = new Date(now.getTime() + (job.leaseMs ?? DEFAULT_LEASE_MS))
    const [row] = await queryRows<{ id: string }>(tx, sql`
      INSERT INTO execucoes_tarefa (tarefa, instancia, iniciada_em, valida_ate)
      VALUES (${job.name}, ${instance}, ${now.toISOString()}::timestamptz, ${leaseEnd.toISOString()}::timestamptz) RETURNING id::text AS id`)
    const forgotten = new Date(now.getTime() - HISTORY_MS).toISOString()
    await tx.execute(sql`DELETE FROM execucoes_tarefa WHERE tarefa = ${job.name} AND iniciada_em < ${forgotten}::timestamptz`)
    return { id: row!.id }
  })
}

export type Finish = { resultado: 'ok', contagem: number | undefined } | { resultado: 'falhou', erro: string }

export async function finishRun(orm: Orm, id: string, at: Date, finish: Finish): Promise<void> {
  const contagem = finish.resultado === 'ok' ? finish.contagem ?? null : null
  const erro = finish.resultado === 'falhou' ? finish.erro.slice(0, 200) : null
  await orm.execute(sql`
    UPDATE execucoes_tarefa SET terminada_em = ${at.toISOString()}::timestamptz, resultado = ${finish.resultado}, contagem = ${contagem}, erro = ${erro}
     WHERE id = ${id}::bigint`)
}

/** The last run of each job that ever ran, by name. */
export async function lastRuns(orm: Orm): Promise<Map<string, Run>> {
  const rows = await queryRows<RunRow>(orm, sql`SELECT DISTINCT ON (tarefa) * FROM execucoes_tarefa ORDER BY tarefa, iniciada_em DESC`)
  return new Map(rows.map((r) => [r.tarefa, fromRow(r)]))
}

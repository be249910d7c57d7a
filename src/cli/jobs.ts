// The platform jobs as the cluster ran them: each job's schedule, its last run (where, how it ended) and when it
// is next due. Read from execucoes_tarefa, which every instance writes; the jobs themselves are app-jobs.ts's.
import { appJobs } from '../app-jobs.ts'
import { MODULES } from '../modules-list.ts'
import { instantWithOffset as at } from '../platform/lib/brasilia-time.ts'
import type { Job } from '../platform/jobs/job.ts'
import { dueAt, lastRuns, type Run } from '../platform/jobs/runs.ts'
import { scheduleLabel } from '../platform/jobs/schedule.ts'
import { tableRow, UsageError, type CommandContext } from '../platform/cli/output.ts'

export const JOBS_HELP = `  tarefas listar               the periodic jobs (each run by one instance of the cluster): schedule,
                               last run (start, outcome, count or error, instance), next due`

export async function jobsCommand(argv: string[], ctx: CommandContext): Promise<number> {
  const [sub, ...rest] = argv
  if (sub !== 'listar') throw new UsageError(sub ? `unknown subcommand "tarefas ${sub}"` : 'tarefas needs a subcommand')
  if (rest.length) throw new UsageError(`tarefas listar takes no arguments, not "${rest[0]}"`)
  const db = await ctx.open()
  const runs = await lastRuns(db.orm)
  const now = ctx.clock.now()
  // The jobs are only described here, never run: their log is not needed.
  for (const job of appJobs(MODULES, { db, config: ctx.config, log: { info: () => {} } })) ctx.out.log(tableRow(jobLine(job, runs.get(job.name), now)))
  return 0
}

function jobLine(job: Job, last: Run | undefined, now: Date): string[] {
  const due = dueAt(job, last)
  const next = `next ${due <= now ? 'now' : at(due)}`
  if (!last) return [job.name, scheduleLabel(job.schedule), 'never run', next]
  return [job.name, scheduleLabel(job.schedule), `last ${at(last.iniciadaEm)}`, outcome(last, now), `on ${last.instancia}`, next]
}

function outcome(run: Run, now: Date): string {
  if (run.resultado === 'ok') return run.contagem === null ? 'ok' : `ok, ${run.contagem} done`
  if (run.resultado === 'falhou') return `failed: ${run.erro ?? 'unknown error'}`
  // Not finished: running, or its instance died before recording it (its lease over).
  return run.validaAte > now ? 'running' : 'abandoned (not finished within its lease)'
}

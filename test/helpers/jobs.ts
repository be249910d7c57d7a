// A platform job run once as an app's scheduler runs it (claimed, run, recorded), without waiting for its tick.
import { systemClock, type Clock } from '../../src/platform/lib/clock.ts'
import { sql } from 'drizzle-orm'
import { queryRows, type Database } from '../../src/platform/db/database.ts'
import type { Job } from '../../src/platform/jobs/job.ts'
import { lastRuns, type Run } from '../../src/platform/jobs/runs.ts'
import { JobScheduler, type JobsLog } from '../../src/platform/jobs/scheduler.ts'
import { until } from './wait.ts'

export const quietLog: JobsLog = { info: () => {}, warn: () => {} }

/** Runs `job` if it is due at `clock`'s now; answers its last recorded run (undefined if it never ran). */
export async function runJobOnce(db: Database, job: Job, clock: Clock = systemClock, log: JobsLog = quietLog): Promise<Run | undefined> {
  const scheduler = new JobScheduler({ orm: db.orm, clock, log })
  scheduler.register(job)
  await scheduler.tick()
  await scheduler.stop()
  return (await lastRuns(db.orm)).get(job.name)
}

/** A clock that moves only when told. */
export function manualClock(startIso: string): Clock & { advance(ms: number): void, set(iso: string): void } {
  let t = Date.parse(startIso)
  return { now: () => new Date(t), advance: (ms) => { t += ms }, set: (iso) => { t = Date.parse(iso) } }
}

/** A job that counts its starts and stays running until released (released anyway when the test ends). */
export type HeldJob = Job & { starts: number, release(): void }

export function heldJob(name: string, schedule: Job['schedule'] = { everyMs: 60_000 }): HeldJob {
  let release!: () => void
  const gate = new Promise<void>((resolve) => { release = resolve })
  const job: HeldJob = {
    name, schedule, starts: 0, release,
    async run() {
      job.starts++
      await gate
      return 1
    },
  }
  return job
}

/**
 * Ticks `scheduler` until `job` is in hand (it then waits for its release); answers the tick, over when the run is
 * (in an object: an async function's result that is a promise would be waited for).
 */
export async function startHeld(scheduler: JobScheduler, job: HeldJob): Promise<{ tick: Promise<void> }> {
  const tick = scheduler.tick()
  await until(`${job.name} to start`, () => job.starts === 1)
  return { tick }
}

/**
 * Starts `job` in `first`, ticks `second` (the same instance or another) once its period is long past, then lets the
 * run end: answers how many times the job was started.
 */
export async function startsWhileHeld(first: JobScheduler, second: JobScheduler, job: HeldJob, clock: ReturnType<typeof manualClock>): Promise<number> {
  const { tick } = await startHeld(first, job)
  clock.advance(10 * ('everyMs' in job.schedule ? job.schedule.everyMs : 86_400_000))
  await second.tick()
  const starts = job.starts
  job.release()
  await tick
  return starts
}

type RunRow = {
  tarefa: string, instancia: string, iniciada_em: Date, terminada_em: Date | null, resultado: string, contagem: number | null, erro: string | null,
}

/** Every recorded run of `name`, oldest first, as the table holds it. */
export async function runsOf(db: Database, name: string): Promise<RunRow[]> {
  const rows = await queryRows<RunRow>(db.orm, sql`SELECT * FROM execucoes_tarefa WHERE tarefa = ${name} ORDER BY iniciada_em, id`)
  return rows.map((r) => ({ ...r, iniciada_em: new Date(r.iniciada_em), terminada_em: r.terminada_em && new Date(r.terminada_em) }))
}

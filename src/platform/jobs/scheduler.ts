// Runs the registered jobs when due, each in one instance of the cluster at a time: every instance ticks, and the
// one that claims a due run (src/platform/jobs/runs.ts) runs it; the others find it claimed. A run is recorded with its
// outcome; a failing job is logged with its error's facts and does not hold back the others.
import { hostname } from 'node:os'
import type { Clock } from '../lib/clock.ts'
import type { Orm } from '../db/database.ts'
import { errorFacts } from '../lib/log-safety.ts'
import { repeat } from '../lib/periodic.ts'
import type { Job } from './job.ts'
import { claimRun, finishRun } from './runs.ts'
import { checkSchedule, nextAfter } from './schedule.ts'

export type JobsLog = { info(o: object, m: string): void, warn(o: object, m: string): void }

export type SchedulerOptions = {
  orm: Orm
  clock: Clock
  log: JobsLog
  /** Names this process in the runs it records (default host:pid). */
  instance?: string
  /**
   * How often due jobs are looked for (default a minute, or the shortest job's period when shorter: a daily job starts
   * within a minute of its time, and a job every 10 s runs every 10 s, not once a minute).
   */
  tickMs?: number
  /** The first look after start (default a minute, so a start is not slowed by jobs). */
  firstAfterMs?: number
}

/** How long a stop waits for the runs in hand (the process's grace is 10 s; the delivery worker's stop runs alongside). */
const STOP_WAIT_MS = 3_000

export class JobScheduler {
  private readonly jobs = new Map<string, Job>()
  /** What this instance knows of when each job is next due: no query before then. */
  private readonly due = new Map<string, Date>()
  /** The runs in hand (claim, work, record), by job: a tick never starts a second. */
  private readonly running = new Map<string, Promise<void>>()
  private stopTimer: (() => void) | undefined
  private stopped = false
  readonly instance: string

  private readonly opts: SchedulerOptions
  constructor(opts: SchedulerOptions) {
    this.opts = opts
    this.instance = opts.instance ?? `${hostname()}:${process.pid}`
  }

  /** Adds a job; a second of the same name, or a schedule that could never be due, throws. */
  register(job: Job): void {
    if (this.jobs.has(job.name)) throw new Error(`job "${job.name}" is registered twice`)
    checkSchedule(job.schedule)
    this.jobs.set(job.name, job)
  }

  list(): readonly Job[] {
    return [...this.jobs.values()]
  }

  start(): void {
    if (this.stopTimer || this.stopped) return
    const periods = [...this.jobs.values()].map((j) => ('everyMs' in j.schedule ? j.schedule.everyMs : Infinity))
    const tick = this.opts.tickMs ?? Math.min(60_000, ...periods)
    this.stopTimer = repeat(() => this.tick(), tick, this.opts.firstAfterMs ?? 60_000)
  }

  /** Starts every job due and not in hand here; resolves when the runs it started are over. */
  tick(): Promise<void> {
    if (this.stopped) return Promise.resolve()
    const now = this.opts.clock.now()
    const started: Promise<void>[] = []
    for (const job of this.jobs.values()) {
      if (this.running.has(job.name) || (this.due.get(job.name) ?? now) > now) continue
      const run = this.attempt(job, now).finally(() => this.running.delete(job.name))
      this.running.set(job.name, run)
      started.push(run)
    }
    return Promise.all(started).then(() => {})
  }

  /** No more ticks; waits at most `waitMs` for the runs in hand, which otherwise finish (or die) on their own. */
  async stop(waitMs = STOP_WAIT_MS): Promise<void> {
    this.stopped = true
    this.stopTimer?.()
    let timer: NodeJS.Timeout | undefined
    const finished = await Promise.race([
      Promise.all(this.running.values()).then(() => true),
      new Promise<false>((resolve) => { timer = setTimeout(resolve, waitMs, false) }),
    ])
    clearTimeout(timer)
    if (!finished) {
      this.opts.log.warn({ waitMs, tarefas: [...this.running.keys()] }, 'stopping with jobs still running: their lease lets another instance run them')
    }
  }

  private async attempt(job: Job, now: Date): Promise<void> {
    const { orm, clock, log } = this.opts
    try {
      const claim = await claimRun(orm, job, now, this.instance)
      if ('dueAt' in claim) {
        this.due.set(job.name, claim.dueAt)
        return
      }
      this.due.set(job.name, nextAfter(job.schedule, now))
      const finish = await job.run(now).then(
        (contagem) => ({ resultado: 'ok' as const, contagem }),
        (err: unknown) => {
          const facts = errorFacts(err)
          log.warn({ tarefa: job.name, ...facts }, 'job failed; it runs again when next due')
          return { resultado: 'falhou' as const, erro: [facts.type, facts.code].filter(Boolean).join(' ') }
        },
      )
      await finishRun(orm, claim.id, clock.now(), finish)
    } catch (err) {
      // The database did not answer the claim or the record: looked at again at the next tick.
      log.warn({ tarefa: job.name, ...errorFacts(err) }, 'job run could not be claimed or recorded; will retry')
    }
  }
}

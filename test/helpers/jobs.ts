// A platform job run once as an app's scheduler runs it (claimed, run, recorded), without waiting for its tick.
import { systemClock, type Clock } from '../../src/clock.ts'
import type { Database } from '../../src/db/database.ts'
import type { Job } from '../../src/jobs/job.ts'
import { lastRuns, type Run } from '../../src/jobs/runs.ts'
import { JobScheduler, type JobsLog } from '../../src/jobs/scheduler.ts'

export const quietLog: JobsLog = { info: () => {}, warn: () => {} }

/** Runs `job` if it is due at `clock`'s now; answers its last recorded run (undefined if it never ran). */
export async function runJobOnce(db: Database, job: Job, clock: Clock = systemClock, log: JobsLog = quietLog): Promise<Run | undefined> {
  const scheduler = new JobScheduler({ orm: db.orm, clock, log })
  scheduler.register(job)
  await scheduler.tick()
  await scheduler.stop()
  return (await lastRuns(db.orm)).get(job.name)
}

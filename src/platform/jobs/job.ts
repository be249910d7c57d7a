// A platform job: work the cluster does on a schedule, once, in whichever instance finds it due first
// (src/platform/jobs/scheduler.ts). A feature exports its jobs; app.ts registers them.
import type { Schedule } from './schedule.ts'

export type Job = {
  /** Unique; the key of its runs in execucoes_tarefa and of its lock. */
  name: string
  schedule: Schedule
  /**
   * Does the work as of `now`; answers how many things it did (rows erased…), recorded with the run. Idempotent:
   * a run whose instance died is run again.
   */
  run(now: Date): Promise<number | undefined>
  /**
   * How long a run may take before it is taken for one whose instance died, and the job may start again
   * elsewhere (default 15 minutes). Longer than the slowest run.
   */
  leaseMs?: number
}

export const DEFAULT_LEASE_MS = 15 * 60_000

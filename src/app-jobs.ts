// The jobs this service runs (src/platform/jobs/), each in one instance of the cluster: the platform's own, then each
// module's (AppModule.jobs), registered by app.ts and listed by the CLI's `tarefas listar`.
import { join } from 'node:path'
import { expiredKeysJob } from './platform/idempotency/store.ts'
import type { Job } from './platform/jobs/job.ts'
import { contentPurgeJob } from './platform/outbox/retention.ts'
import type { AppModule, JobContext } from './platform/module.ts'

export function appJobs(modules: readonly AppModule[], ctx: JobContext): Job[] {
  return [
    expiredKeysJob(ctx.db.orm),
    contentPurgeJob({ orm: ctx.db.orm, mailDir: join(ctx.config.dataDir, 'mail'), log: ctx.log }),
    ...modules.flatMap((m) => m.jobs?.(ctx) ?? []),
  ]
}

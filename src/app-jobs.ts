// The platform jobs this service runs (src/jobs/), each in one instance of the cluster: registered by app.ts,
// listed by the CLI's `tarefas listar`. A new job is a function of its feature returning a `Job`, added here.
import { join } from 'node:path'
import { jtiPurgeJob } from './auth/http/setup.ts'
import type { Config } from './config.ts'
import { retentionJob } from './contact/retention.ts'
import type { Database } from './db/database.ts'
import { expiredKeysJob } from './idempotency/store.ts'
import type { Job } from './jobs/job.ts'
import { contentPurgeJob } from './mail/retention.ts'

export function appJobs(db: Database, config: Config, log: { info(o: object, m: string): void }): Job[] {
  const mailDir = join(config.dataDir, 'mail')
  return [
    retentionJob({ orm: db.orm, days: config.mail.retentionDays, mailDir, log }),
    expiredKeysJob(db.orm),
    contentPurgeJob({ orm: db.orm, mailDir, log }),
    jtiPurgeJob(db),
  ]
}

// The retornos' application as a platform job (issue 33: "a file of 100,000 lines runs as a job whose progress is
// visible and which resumes, never posting a line twice, after the process is killed"). The upload starts applying
// a large file at once in its own process; this job finds, every few seconds, any file still waiting (its process
// stopped, or it was busy) and goes on from its first pending line. A run works for at most RUN_MS, well within its
// lease, and the next goes on.
import { sql } from 'drizzle-orm'
import { queryRows } from '../../../platform/db/database.ts'
import type { Job } from '../../../platform/jobs/job.ts'
import { applyRetorno, type ApplyDeps } from './apply.ts'

const RUN_MS = 60_000

export function retornosJob(deps: ApplyDeps): Job {
  return {
    name: 'retornos-aplicacao',
    schedule: { everyMs: 10_000 },
    leaseMs: 5 * RUN_MS,
    // The files it went on with: each line's own row says when it was applied.
    run: async (now) => {
      const until = Date.now() + RUN_MS
      const files = await queryRows<{ cliente_id: string, id: string }>(deps.db.orm, sql`SELECT cliente_id, id FROM retornos_a_aplicar(20)`)
      let worked = 0
      for (const f of files) {
        if (Date.now() >= until) break
        const p = await applyRetorno(deps, f.cliente_id, f.id, () => now, { until })
        if (!p.ocupado) worked++
      }
      return worked
    },
  }
}

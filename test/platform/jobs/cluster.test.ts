// Two instances on one PostgreSQL database, each with its own connections: a due job runs in one of them, once.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { openDatabase } from '../../../src/platform/db/database.ts'
import { JobScheduler } from '../../../src/platform/jobs/scheduler.ts'
import { onPostgresOnly } from '../../helpers/database.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'
import { heldJob, manualClock, quietLog, runsOf, startsWhileHeld } from '../../helpers/jobs.ts'

// The embedded database is held by one process (DATA_DIR's lock): there is no second instance to race.
const skip = onPostgresOnly('two instances need PostgreSQL: the embedded database is held by one process')

describe('jobs once per cluster', { skip }, () => {
  const tdb = useTestDatabase({ skip })

  /** Two schedulers on two pools of the same database, as two instances of the service. */
  const twoInstances = async (clock: ReturnType<typeof manualClock>) => {
    const other = await openDatabase({ databaseUrl: tdb.url! })
    tdb.defer(() => other.close())
    return [
      new JobScheduler({ orm: tdb.db.orm, clock, log: quietLog, instance: 'a' }),
      new JobScheduler({ orm: other.orm, clock, log: quietLog, instance: 'b' }),
    ] as const
  }

  it('a due job found due by both instances at once runs once, and once again when next due', { skip }, async () => {
    const clock = manualClock('2026-11-26T12:00:00Z')
    const [a, b] = await twoInstances(clock)
    let runs = 0
    const job = { name: 'uma-vez', schedule: { everyMs: 60_000 }, run: async () => { runs++; return runs } }
    a.register(job)
    b.register(job)
    await Promise.all([a.tick(), b.tick()])
    assert.equal(runs, 1)
    clock.advance(60_000)
    await Promise.all([b.tick(), a.tick()])
    assert.equal(runs, 2)
    assert.deepEqual((await runsOf(tdb.db, job.name)).map((r) => [r.iniciada_em.toISOString(), r.resultado]),
      [['2026-11-26T12:00:00.000Z', 'ok'], ['2026-11-26T12:01:00.000Z', 'ok']])
  })

  it('a job running in one instance is not started by the other, even past its period', { skip }, async (t) => {
    const clock = manualClock('2026-11-26T12:00:00Z')
    const [a, b] = await twoInstances(clock)
    const job = heldJob('longa', { everyMs: 1000 })
    t.after(job.release)
    a.register(job)
    b.register(job)
    assert.equal(await startsWhileHeld(a, b, job, clock), 1)
    assert.deepEqual((await runsOf(tdb.db, job.name)).map((r) => [r.instancia, r.resultado]), [['a', 'ok']])
  })
})

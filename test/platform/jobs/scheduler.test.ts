// The job scheduler on one instance: a due job runs and its run is recorded; it is not run again before it is due,
// nor while it still runs; a failure is recorded with its error's facts and holds back no other job; a stop waits
// for the run in hand, a bounded time.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { JobScheduler } from '../../../src/platform/jobs/scheduler.ts'
import { defer, useTestDatabase } from '../../helpers/fixture.ts'
import { heldJob, manualClock, quietLog, runsOf, startHeld, startsWhileHeld } from '../../helpers/jobs.ts'
import { until } from '../../helpers/wait.ts'

let seq = 0
const uniqueName = (what: string) => `teste-${what}-${++seq}-${process.pid}`

describe('the job scheduler', () => {
  const tdb = useTestDatabase()
  const scheduler = (clock = manualClock('2026-11-26T12:00:00Z'), log = quietLog) =>
    new JobScheduler({ orm: tdb.db.orm, clock, log, instance: 'instancia-a' })

  it('runs a due job once, records the run, and runs it again only once its period has passed', async () => {
    const clock = manualClock('2026-11-26T12:00:00Z')
    const jobs = scheduler(clock)
    const name = uniqueName('periodo')
    let runs = 0
    jobs.register({ name, schedule: { everyMs: 3_600_000 }, run: async () => { runs++; return 7 } })
    await jobs.tick()
    clock.advance(3_599_000)
    await jobs.tick()
    assert.equal(runs, 1, 'not again within its period')
    const [first] = await runsOf(tdb.db, name)
    assert.deepEqual(
      [first!.instancia, first!.iniciada_em.toISOString(), first!.resultado, first!.contagem, first!.erro],
      ['instancia-a', '2026-11-26T12:00:00.000Z', 'ok', 7, null],
    )
    assert.ok(first!.terminada_em, 'its end is recorded')
    clock.advance(1000)
    await jobs.tick()
    assert.equal(runs, 2)
    assert.deepEqual((await runsOf(tdb.db, name)).map((r) => r.iniciada_em.toISOString()), ['2026-11-26T12:00:00.000Z', '2026-11-26T13:00:00.000Z'])
  })

  it('started, it looks for due jobs by itself: first soon after start, then every tick', async (t) => {
    const name = uniqueName('sozinha')
    const jobs = new JobScheduler({ orm: tdb.db.orm, clock: manualClock('2026-11-26T12:00:00Z'), log: quietLog, firstAfterMs: 1, tickMs: 60_000 })
    jobs.register({ name, schedule: { everyMs: 60_000 }, run: async () => 1 })
    jobs.start()
    defer(t, () => jobs.stop())
    await until('the first run recorded', async () => (await runsOf(tdb.db, name))[0]?.resultado === 'ok')
  })

  it('a failing job is recorded as failed with its error\'s type and code, never its message; the other jobs run', async () => {
    const warnings: object[] = []
    const jobs = scheduler(undefined, { info: () => {}, warn: (o) => warnings.push(o) })
    const failing = uniqueName('falha')
    const fine = uniqueName('bem')
    jobs.register({
      name: failing, schedule: { everyMs: 60_000 },
      run: async () => { throw Object.assign(new Error('duplicate key: (email)=(ana.souza@empresa.com.br)'), { code: '23505' }) },
    })
    jobs.register({ name: fine, schedule: { everyMs: 60_000 }, run: async () => 0 })
    await jobs.tick()
    const [failed] = await runsOf(tdb.db, failing)
    assert.deepEqual([failed!.resultado, failed!.erro, failed!.contagem], ['falhou', 'Error 23505', null])
    assert.ok(failed!.terminada_em)
    assert.deepEqual((await runsOf(tdb.db, fine)).map((r) => r.resultado), ['ok'])
    assert.equal(warnings.length, 1)
    assert.equal((warnings[0] as { tarefa: string }).tarefa, failing)
    assert.ok(!JSON.stringify(warnings).includes('ana.souza'), 'the message is not logged either')
  })

  it('a job still running when its next tick comes is not started twice', async (t) => {
    const clock = manualClock('2026-11-26T12:00:00Z')
    const jobs = scheduler(clock)
    const job = heldJob(uniqueName('longa'), { everyMs: 1000 })
    defer(t, job.release)
    jobs.register(job)
    assert.equal(await startsWhileHeld(jobs, jobs, job, clock), 1)
    assert.deepEqual((await runsOf(tdb.db, job.name)).map((r) => r.resultado), ['ok'])
  })

  it('stop waits for the run in hand, which is recorded; then no tick starts anything', async (t) => {
    const jobs = scheduler()
    const job = heldJob(uniqueName('parada'))
    defer(t, job.release)
    jobs.register(job)
    await startHeld(jobs, job)
    const stopping = jobs.stop()
    job.release()
    await stopping
    assert.deepEqual((await runsOf(tdb.db, job.name)).map((r) => r.resultado), ['ok'], 'recorded before stop resolved')
    const later = uniqueName('depois')
    jobs.register({ name: later, schedule: { everyMs: 60_000 }, run: async () => 1 })
    await jobs.tick()
    assert.deepEqual(await runsOf(tdb.db, later), [])
  })

  it('stop waits a bounded time: a run that outlasts it stays recorded as running, and is said so', async (t) => {
    const warnings: object[] = []
    const jobs = scheduler(undefined, { info: () => {}, warn: (o) => warnings.push(o) })
    const job = heldJob(uniqueName('presa'))
    defer(t, job.release)
    jobs.register(job)
    await startHeld(jobs, job)
    await jobs.stop(50)
    assert.deepEqual((await runsOf(tdb.db, job.name)).map((r) => r.resultado), ['em_curso'])
    assert.deepEqual(warnings, [{ waitMs: 50, tarefas: [job.name] }])
  })

  it('a run whose instance died holds the job until its lease ends; then another instance runs it', async () => {
    const clock = manualClock('2026-11-26T12:00:00Z')
    const name = uniqueName('orfa')
    const dead = new JobScheduler({ orm: tdb.db.orm, clock, log: quietLog, instance: 'morta' })
    // Its run never ends: the instance is gone before recording it.
    dead.register({ name, schedule: { everyMs: 60_000 }, leaseMs: 600_000, run: () => new Promise(() => {}) })
    void dead.tick()
    await until('the run claimed', async () => (await runsOf(tdb.db, name)).length === 1)
    const alive = scheduler(clock)
    let runs = 0
    alive.register({ name, schedule: { everyMs: 60_000 }, run: async () => { runs++; return 0 } })
    clock.advance(599_000)
    await alive.tick()
    assert.equal(runs, 0, 'held while its lease lasts, though past its period')
    clock.advance(1000)
    await alive.tick()
    assert.equal(runs, 1)
    assert.deepEqual((await runsOf(tdb.db, name)).map((r) => [r.instancia, r.resultado]), [['morta', 'em_curso'], ['instancia-a', 'ok']])
  })

  it('a daily job runs once a day at its Brasília time, catching up once after a day no instance was up', async () => {
    const clock = manualClock('2026-11-26T05:59:00Z') // 02:59 in Brasília
    const jobs = scheduler(clock)
    const name = uniqueName('diaria')
    jobs.register({ name, schedule: { dailyAt: '03:00' }, run: async () => 1 })
    await jobs.tick() // never run: runs now
    await jobs.tick()
    clock.set('2026-11-26T06:00:00Z')
    await jobs.tick()
    clock.set('2026-11-27T05:59:59Z')
    await jobs.tick()
    clock.set('2026-11-29T12:00:00Z')
    await jobs.tick()
    await jobs.tick()
    assert.deepEqual((await runsOf(tdb.db, name)).map((r) => r.iniciada_em.toISOString()),
      ['2026-11-26T05:59:00.000Z', '2026-11-26T06:00:00.000Z', '2026-11-29T12:00:00.000Z'])
  })

  it('a job named twice, or with a schedule that is never due, stops the registration', () => {
    const jobs = scheduler()
    jobs.register({ name: 'uma', schedule: { everyMs: 60_000 }, run: async () => 0 })
    assert.throws(() => jobs.register({ name: 'uma', schedule: { everyMs: 60_000 }, run: async () => 0 }), /registered twice/)
    assert.throws(() => jobs.register({ name: 'b', schedule: { everyMs: 0 }, run: async () => 0 }), /at least 1000/)
    assert.throws(() => jobs.register({ name: 'c', schedule: { dailyAt: '24:00' }, run: async () => 0 }), /HH:MM/)
  })
})

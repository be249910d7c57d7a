// Redis stopped under load: two instances sharing a redis-server child of this test keep answering while
// it is dead, count the contact budget per instance meanwhile, and share it again once it is back; and the built
// process, Redis killed under requests in flight, several times, answers them all and stays up.
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { openDatabase, queryRows } from '../../src/platform/db/database.ts'
import { contactBody, listen, serviceConfigFile } from '../helpers/app.ts'
import { createTestDatabase, usingPostgres } from '../helpers/database.ts'
import { defer, testApp, useTestApp } from '../helpers/fixture.ts'
import { call, loop, postJson, summary, type Answer } from '../helpers/load.ts'
import { spawnService, waitForOutput } from '../helpers/service-process.ts'
import { createTestRedis, type TestRedis } from '../helpers/redis.ts'
import { tempDir } from '../helpers/temp.ts'
import { until } from '../helpers/wait.ts'

const CONTACT_BUDGET = 3
type Log = { msg?: string, level?: number }

const postContact = (base: string) => fetch(`${base}/api/site/contato`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(contactBody()),
})

async function limites(base: string): Promise<{ ok: boolean, modo: string }> {
  const res = await fetch(`${base}/api/status`)
  assert.equal(res.status, 200)
  const body = await res.json() as { servicos: { nome: string, ok: boolean, modo: string }[] }
  return body.servicos.find((s) => s.nome === 'limites')!
}

const count = (logs: Log[], msg: string) => logs.filter((l) => l.msg === msg).length

describe('Redis stopped under load', () => {
  let redis: TestRedis
  let env: Record<string, string>
  const logsA: Log[] = []
  const logsB: Log[] = []
  before(async () => {
    redis = await createTestRedis()
    await redis.start()
    env = {
      REDIS_URL: redis.url,
      STATUS_REFRESH_MS: '200',
      // Reads are generous so the load itself is not what gets limited; contact posts are few.
      SERVICE_CONFIG_FILE: serviceConfigFile({
        rateLimits: { leitura: { max: 100_000, windowSeconds: 60 }, contato: { max: CONTACT_BUDGET, windowSeconds: 600 } },
      }),
    }
  })
  // One rate-limit namespace for both, as two instances of one deployment.
  const deps = { rateLimitNamespace: `rl-faults-${process.pid}:` }
  const appA = useTestApp(() => ({ env, logs: logsA, deps, listen: true }))
  const appB = useTestApp(() => ({ db: appA.db, env, logs: logsB, deps, listen: true }))
  after(() => redis?.kill())
  let a: string
  let b: string
  before(() => {
    a = appA.base
    b = appB.base
  })

  it('keeps answering, degrades to per-instance budgets, and shares them again when Redis returns', async () => {
    assert.equal((await limites(a)).ok, true)
    assert.equal((await limites(a)).modo, 'redis')

    // Shared while Redis is up: what B spends, A cannot.
    for (let i = 0; i < CONTACT_BUDGET; i++) assert.equal((await postContact(b)).status, 202)
    assert.equal((await postContact(a)).status, 429, 'budget spent on B applies on A')

    // Load on both instances throughout the outage.
    const statuses: number[] = []
    let loading = true
    const load = (async () => {
      for (let i = 0; loading && i < 5000; i++) {
        const res = await fetch(`${i % 2 ? a : b}/api/site/contato/assuntos`)
        statuses.push(res.status)
        await res.arrayBuffer()
      }
    })()

    await redis.kill()
    await until('limites not ok on A', async () => !(await limites(a)).ok, 10_000)
    assert.equal((await limites(a)).modo, 'memoria')
    // Budgets counted in A's memory: fresh, so A accepts CONTACT_BUDGET posts and then refuses, with the usual answer.
    for (let i = 0; i < CONTACT_BUDGET; i++) assert.equal((await postContact(a)).status, 202, `post ${i + 1} on A while Redis is down`)
    const refused = await postContact(a)
    assert.equal(refused.status, 429)
    assert.deepEqual(await refused.json(), { detail: 'limite_de_requisicoes' })
    assert.equal(refused.headers.get('ratelimit-limit'), String(CONTACT_BUDGET))
    assert.equal(refused.headers.get('ratelimit-remaining'), '0')
    assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/)
    // B counts on its own: A's spending does not reach it.
    assert.equal((await postContact(b)).status, 202, 'B has its own budget while Redis is down')
    // ioredis retries about every second or two: stay down long enough for several failed attempts.
    await new Promise((r) => setTimeout(r, 4000))
    assert.equal(count(logsA, 'redis unavailable: per-instance budgets'), 1, 'the outage is logged once')

    await redis.start()
    await until('limites ok again on A', async () => (await limites(a)).ok, 15_000)
    await until('limites ok again on B', async () => (await limites(b)).ok, 15_000)
    assert.equal((await limites(a)).modo, 'redis')
    loading = false
    await load

    assert.ok(statuses.length > 20, `load ran (${statuses.length} requests)`)
    assert.deepEqual(statuses.filter((s) => s !== 200), [], 'every request under load answered 200')
    assert.equal(count(logsA, 'redis unavailable: per-instance budgets'), 1)
    assert.equal(count(logsA, 'redis back: shared budgets'), 1, 'the return is logged once')
    assert.ok(!logsA.some((l) => l.msg === 'redis unavailable'), 'no per-attempt warning')

    // Shared again. A's memory budget is spent, yet A accepts: it counts in the (restarted, empty) Redis.
    assert.equal((await postContact(a)).status, 202, 'A no longer uses its memory budget')
    for (let i = 1; i < CONTACT_BUDGET; i++) assert.equal((await postContact(b)).status, 202, `post ${i + 1} after Redis returned`)
    // A's post counted on B's budget: both are refused now.
    assert.equal((await postContact(b)).status, 429, 'the shared budget applies on B')
    assert.equal((await postContact(a)).status, 429, 'the shared budget applies on A')
  })

  it('a Redis that stops answering (frozen, connections open) is treated as down, and as back when it answers', async (t) => {
    const logs: Log[] = []
    const env = {
      REDIS_URL: redis.url, STATUS_REFRESH_MS: '200', DB_TIMEOUT_MS: '1000',
      SERVICE_CONFIG_FILE: serviceConfigFile({ rateLimits: { contato: { max: CONTACT_BUDGET, windowSeconds: 600 } } }),
    }
    const app = await testApp(t, { db: appA.db, env, logs })
    const base = await listen(app)
    assert.equal((await limites(base)).ok, true)

    redis.freeze()
    after(() => redis.thaw())
    await until('limites not ok while Redis is frozen', async () => !(await limites(base)).ok, 10_000)
    for (let i = 0; i < CONTACT_BUDGET; i++) assert.equal((await postContact(base)).status, 202, `post ${i + 1} while frozen`)
    assert.equal((await postContact(base)).status, 429, 'the budget is enforced in memory while Redis does not answer')
    assert.equal(count(logs, 'redis unavailable: per-instance budgets'), 1)

    redis.thaw()
    await until('limites ok once Redis answers', async () => (await limites(base)).ok, 15_000)
    // Shared again: this app's Redis counter is fresh (its posts while frozen were counted in memory).
    await until('a post counted in Redis', async () => (await postContact(base)).status === 202, 10_000)
    await until('the return logged', () => count(logs, 'redis back: shared budgets') === 1, 5_000)
  })
})

// The built process, Redis killed (SIGKILL) while requests that count their budgets in it are in flight, several
// times over: every request is answered as if Redis were there, the process stays up, and every contact answered
// 202 is stored.
describe('Redis killed mid-request under load, the built service', () => {
  it('answers every request, stays up, and stores every accepted contact (3 trials)', async (t) => {
    const tdb = usingPostgres ? await createTestDatabase() : undefined
    if (tdb) defer(t, () => tdb.dispose())
    const dataDir = tempDir('redis-load')
    const redis = await createTestRedis()
    await redis.start()
    defer(t, () => redis.kill())
    const service = await spawnService(t, {
      ...(tdb ? { DATABASE_URL: tdb.url! } : { DATA_DIR: dataDir }),
      REDIS_URL: redis.url, STATUS_REFRESH_MS: '200', SPAM_MIN_FILL_MS: '0',
      // Budgets large enough that the load is counted (in Redis, or in memory while it is gone) but never refused.
      SERVICE_CONFIG_FILE: serviceConfigFile({
        rateLimits: { leitura: { max: 1_000_000, windowSeconds: 60 }, contato: { max: 1_000_000, windowSeconds: 600 } },
      }),
    })
    await waitForOutput(service, /"msg":"service ready"/)
    const mode = async () => (await limites(service.base)).modo

    const contacts: Answer[] = []
    const reads: Answer[] = []
    for (let trial = 1; trial <= 3; trial++) {
      let loading = true
      const stop = () => !loading
      const loops = [
        loop(stop, 2000, contacts, () => postJson(`${service.base}/api/site/contato`, contactBody())),
        loop(stop, 2000, contacts, () => postJson(`${service.base}/api/site/contato`, contactBody())),
        loop(stop, 5000, reads, () => call(`${service.base}/api/site/contato/assuntos`)),
        loop(stop, 5000, reads, () => call(`${service.base}/api/health`)),
      ]
      const before = contacts.length
      await until(`trial ${trial}: load counted in Redis`, async () => contacts.length >= before + 10 && await mode() === 'redis')
      await redis.kill()
      await until(`trial ${trial}: budgets in memory`, async () => {
        assert.ok(service.alive(), `the process exited once Redis was gone:\n${service.output().slice(-3000)}`)
        return await mode() === 'memoria'
      })
      const during = contacts.length
      await until(`trial ${trial}: contacts answered while Redis is gone`, () => contacts.length >= during + 10)
      await redis.start()
      await until(`trial ${trial}: budgets in Redis again`, async () => await mode() === 'redis', 20_000)
      loading = false
      await Promise.all(loops)
      assert.ok(service.alive(), `the process exited in trial ${trial}:\n${service.output().slice(-3000)}`)
    }
    assert.deepEqual(summary(reads), ['200'], 'every read answered 200')
    assert.deepEqual(summary(contacts.map((a) => ({ status: a.status }))), ['202'], 'every contact accepted')
    // Stopped as an orchestrator does (which also hands the embedded database's files back), then counted.
    service.child.kill('SIGTERM')
    assert.equal(await service.exited, 0)
    const db = tdb?.db ?? await openDatabase({ dataDir: join(dataDir, 'pglite') })
    try {
      const stored = new Set((await queryRows<{ protocolo: string }>(db.orm, sql`SELECT protocolo FROM contato`)).map((r) => r.protocolo))
      assert.deepEqual(contacts.map((a) => String(a.body!.protocolo)).filter((p) => !stored.has(p)), [], 'every accepted contact is stored')
    } finally {
      if (!tdb) await db.close()
    }
  })
})

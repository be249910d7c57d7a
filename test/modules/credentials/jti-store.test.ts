// The DPoP replay cache on its two real stores: the dpop_jti table (PGlite, or PostgreSQL with DATABASE_URL) and
// Redis (a redis-server child of this test). A second store object on the same database or Redis stands for a
// second instance of the service: it sees what the first recorded.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Redis } from 'ioredis'
import { sql } from 'drizzle-orm'
import { databaseJtiStore, jtiKey, JtiStoreBusyError, MAX_QUEUED, purgeExpiredJtis } from '../../../src/modules/credentials/dpop/jti-store.ts'
import { REDIS_JTI_PREFIX, redisJtiStore } from '../../../src/modules/credentials/dpop/jti-store-redis.ts'
import { dpopJti } from '../../../src/platform/db/schema.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'
import { createTestRedis, type TestRedis } from '../../helpers/redis.ts'
import { until } from '../../helpers/wait.ts'
import { testClock } from './dpop-keys.ts'

const JKT = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs'

describe('the replay cache on the database', () => {
  const tdb = useTestDatabase()

  it('a key is new once; a second instance on the same database sees it too', async () => {
    const first = databaseJtiStore(tdb.db)
    const second = databaseJtiStore(tdb.db)
    const key = jtiKey(JKT, 'jti-1')
    const until = new Date(Date.now() + 60_000)
    assert.equal(await first.remember(key, until), true)
    assert.equal(await first.remember(key, until), false)
    assert.equal(await second.remember(key, until), false)
    assert.equal(await second.remember(jtiKey(JKT, 'jti-2'), until), true)
    const rows = await tdb.db.orm.select().from(dpopJti)
    assert.deepEqual(rows.map((r) => r.chave).sort(), [key, jtiKey(JKT, 'jti-2')].sort())
  })

  it('racing instances: of many concurrent attempts at one key, exactly one wins', async () => {
    const stores = Array.from({ length: 8 }, () => databaseJtiStore(tdb.db))
    const key = jtiKey(JKT, 'raced')
    const results = await Promise.all(stores.map((s) => s.remember(key, new Date(Date.now() + 60_000))))
    assert.equal(results.filter(Boolean).length, 1)
  })

  it('one instance under load: concurrent keys go together in few trips, each answered for itself', async () => {
    let trips = 0
    const counted = { oneTrip: (statements: Parameters<typeof tdb.db.oneTrip>[0]) => { trips++; return tdb.db.oneTrip(statements) } }
    const store = databaseJtiStore(counted)
    const until = new Date(Date.now() + 60_000)
    await store.remember(jtiKey(JKT, 'already'), until)
    trips = 0
    const keys = [...Array.from({ length: 40 }, (_, i) => jtiKey(JKT, `load-${i}`)), jtiKey(JKT, 'already')]
    // Each of the 40 new keys twice at once (a proof sent twice), and one recorded before.
    const results = await Promise.all([...keys, ...keys].map((k) => store.remember(k, until)))
    const byKey = new Map(keys.map((k) => [k, results.filter((r, i) => [...keys, ...keys][i] === k && r).length]))
    assert.deepEqual([...byKey.values()], [...Array(40).fill(1), 0], 'each new key recorded once, the old one never')
    assert.ok(trips <= 2, `${trips} trips for ${results.length} keys`)
    const rows = (await tdb.db.orm.select().from(dpopJti)).filter((r) => keys.includes(r.chave))
    assert.equal(rows.length, 41)
    assert.deepEqual(new Set(rows.map((r) => r.expiraEm.getTime())), new Set([until.getTime()]))
  })

  it('a trip that fails refuses every key it held, and the next keys are tried anew', async () => {
    let fail = true
    const flaky = {
      oneTrip: (statements: Parameters<typeof tdb.db.oneTrip>[0]) => fail ? Promise.reject(new Error('connection lost')) : tdb.db.oneTrip(statements),
    }
    const store = databaseJtiStore(flaky)
    const until = new Date(Date.now() + 60_000)
    const failed = await Promise.allSettled([1, 2, 3].map((i) => store.remember(jtiKey(JKT, `flaky-${i}`), until)))
    assert.deepEqual(failed.map((r) => r.status), ['rejected', 'rejected', 'rejected'])
    fail = false
    assert.deepEqual(await Promise.all([1, 2, 3].map((i) => store.remember(jtiKey(JKT, `flaky-${i}`), until))), [true, true, true])
  })

  it('the insert\'s commit does not wait for the disk: synchronous_commit is off in its transaction, and only there', async () => {
    const seen: unknown[] = []
    const watched = {
      oneTrip: async (statements: Parameters<typeof tdb.db.oneTrip>[0]) => {
        const answers = await tdb.db.oneTrip([...statements, sql`SELECT current_setting('synchronous_commit') AS s`])
        seen.push(answers.at(-1)![0]!.s)
        return answers.slice(0, -1)
      },
    }
    assert.equal(await databaseJtiStore(watched).remember(jtiKey(JKT, 'disk'), new Date(Date.now() + 60_000)), true)
    assert.deepEqual(seen, ['off'])
    const [after] = await tdb.db.oneTrip([sql`SELECT current_setting('synchronous_commit') AS s`])
    assert.deepEqual(after, [{ s: 'on' }], 'the next transaction on the pool waits for the disk again')
  })

  it('a database that does not keep up: past the queue\'s bound a proof is refused at once, the queued ones answered', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => { release = resolve })
    const slow = { oneTrip: async (statements: Parameters<typeof tdb.db.oneTrip>[0]) => { await held; return tdb.db.oneTrip(statements) } }
    const store = databaseJtiStore(slow)
    const until = new Date(Date.now() + 60_000)
    const first = store.remember(jtiKey(JKT, 'stuck-0'), until)
    const queued = Array.from({ length: MAX_QUEUED }, (_, i) => store.remember(jtiKey(JKT, `stuck-${i + 1}`), until))
    await assert.rejects(store.remember(jtiKey(JKT, 'one-too-many'), until), JtiStoreBusyError)
    release()
    assert.equal(await first, true)
    const answers = await Promise.all(queued)
    assert.equal(answers.filter(Boolean).length, MAX_QUEUED)
  })

  it('the purge deletes expired rows only, and says how many', async () => {
    const store = databaseJtiStore(tdb.db)
    const now = new Date('2026-11-23T12:00:00Z')
    await store.remember(jtiKey(JKT, 'old'), new Date('2026-11-23T11:59:00Z'))
    await store.remember(jtiKey(JKT, 'live'), new Date('2026-11-23T12:01:00Z'))
    const before = (await tdb.db.orm.select().from(dpopJti)).length
    assert.equal(await purgeExpiredJtis(tdb.db.orm, now), 1)
    const left = (await tdb.db.orm.select().from(dpopJti)).map((r) => r.chave)
    assert.equal(left.length, before - 1)
    assert.ok(left.includes(jtiKey(JKT, 'live')))
    assert.ok(!left.includes(jtiKey(JKT, 'old')))
  })

  it('keys are per key and jti: the same jti of another key, or another jti, is another key', () => {
    assert.notEqual(jtiKey(JKT, 'a'), jtiKey(JKT.replace('N', 'M'), 'a'))
    assert.notEqual(jtiKey(JKT, 'a'), jtiKey(JKT, 'b'))
    assert.match(jtiKey(JKT, 'x'.repeat(256)), /^[0-9a-f]{64}$/)
  })
})

describe('the replay cache on Redis', () => {
  let redis: TestRedis
  const clients: Redis[] = []
  const client = () => {
    const c = new Redis(redis.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true, commandTimeout: 500 })
    c.on('error', () => {})
    clients.push(c)
    return c
  }
  before(async () => {
    redis = await createTestRedis()
    await redis.start()
  })
  after(async () => {
    for (const c of clients) c.disconnect()
    await redis?.kill()
  })

  it('a key is new once; a second instance with its own connection sees it too', async () => {
    const clock = testClock('2026-11-23T12:00:00Z')
    const a = client()
    const b = client()
    await Promise.all([a.connect(), b.connect()])
    const first = redisJtiStore(a, clock)
    const second = redisJtiStore(b, clock)
    const key = jtiKey(JKT, 'redis-1')
    assert.equal(await first.remember(key, new Date('2026-11-23T12:01:05Z')), true)
    assert.equal(await second.remember(key, new Date('2026-11-23T12:01:05Z')), false)
    assert.equal(await first.remember(key, new Date('2026-11-23T12:01:05Z')), false)
    // Kept exactly as long as asked, then Redis drops it by itself.
    const ttl = await a.pttl(REDIS_JTI_PREFIX + key)
    assert.ok(ttl > 0 && ttl <= 65_000, `ttl ${ttl}`)
    // An expiry already reached still records the key, for a millisecond: PX must be positive.
    assert.equal(await second.remember(jtiKey(JKT, 'redis-2'), new Date('2026-11-23T11:59:00Z')), true)
  })

  it('an expired key is new again (the proof it stood for can no longer pass the iat check)', async () => {
    const clock = testClock('2026-11-23T12:00:00Z')
    const c = client()
    await c.connect()
    const store = redisJtiStore(c, clock)
    const key = jtiKey(JKT, 'short-lived')
    assert.equal(await store.remember(key, new Date('2026-11-23T12:00:00.050Z')), true)
    await until('Redis to expire the key', async () => (await c.exists(REDIS_JTI_PREFIX + key)) === 0, 5000)
    assert.equal(await store.remember(key, new Date('2026-11-23T12:01:00Z')), true)
  })

  it('with Redis down, remember rejects: a proof is never taken as new when it could not be recorded', async () => {
    const c = client()
    await c.connect()
    const store = redisJtiStore(c, testClock('2026-11-23T12:00:00Z'))
    await redis.kill()
    await assert.rejects(store.remember(jtiKey(JKT, 'while-down'), new Date('2026-11-23T12:01:00Z')))
  })
})

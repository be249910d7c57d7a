// A graceful stop is not a Redis outage: closing the app quits its Redis client without logging
// "redis unavailable", and an injected client is left with no listeners of the closed app.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Redis } from 'ioredis'
import { createTestApp } from '../../helpers/app.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'
import { until } from '../../helpers/wait.ts'

type Log = { msg?: string, level?: number }
const REDIS_URL = process.env.REDIS_URL
const redisWarnings = (logs: Log[]) => logs.filter((l) => (l.level ?? 0) >= 40 && /redis/i.test(l.msg ?? ''))

describe('closing an app with REDIS_URL', { skip: REDIS_URL ? false : 'REDIS_URL is not set: these tests need a Redis' }, () => {
  const tdb = useTestDatabase()

  it('a normal close quits the client and logs no redis warning', async (t) => {
    const logs: Log[] = []
    const app = await createTestApp({ db: tdb.db, env: { REDIS_URL: REDIS_URL! }, logs })
    t.after(() => app.close())
    const client = app.deps.redis!
    assert.equal(client.status, 'ready', 'the app connected to Redis')
    assert.equal((await app.inject({ url: '/api/health' })).statusCode, 200)
    await app.close()
    // ioredis emits 'close' and then sets 'end' once the quit is done: by then a false warning would be logged.
    await until('the Redis client to end', () => client.status === 'end', 5000)
    assert.deepEqual(redisWarnings(logs), [])
  })

  it('an injected client keeps no listeners of closed apps and its quit is no warning', async (t) => {
    const client = new Redis(REDIS_URL!, { maxRetriesPerRequest: 1 })
    t.after(() => client.disconnect())
    await until('the injected client to connect', () => client.status === 'ready', 5000)
    const before = ['ready', 'close', 'end', 'error'].map((e) => client.listenerCount(e))
    const logs: Log[] = []
    for (let i = 0; i < 3; i++) {
      const app = await createTestApp({ db: tdb.db, env: { REDIS_URL: REDIS_URL! }, deps: { redis: client }, logs })
      await app.close()
    }
    assert.deepEqual(['ready', 'close', 'end', 'error'].map((e) => client.listenerCount(e)), before)
    await client.quit()
    await until('the injected client to end', () => client.status === 'end', 5000)
    assert.deepEqual(redisWarnings(logs), [])
  })
})

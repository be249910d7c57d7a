// SIGTERM to the built server while keep-alive clients load it, straight to the instance (the same behind nginx is
// test-scale/sigterm.test.ts). The stop must end with exit 0 every time: answers after the signal close their
// connection, the request in flight is answered, and a connection whose keep-alive answer left after the listener
// closed does not hold the process (it did: the stop then ran into the grace and exited 1).
import assert from 'node:assert/strict'
import { Agent } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { builtEnv, runBuilt } from '../helpers/built-process.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'
import { answered, get, halfSentContact, keepAliveLoad, refusesConnections, STOPPING_ERRORS } from '../helpers/keep-alive-load.ts'
import { tempDir } from '../helpers/temp.ts'
import { until } from '../helpers/wait.ts'

const TRIALS = 2
// Long enough for the test to reach the idle connection's second request within it on a loaded machine (CI's two lanes
// on two cores): at 300 ms the wait for readiness's 503 once outlasted it, the listener closed, and that request met a
// reset instead of the answer it checks.
const SHUTDOWN_DELAY_MS = 1500
/** Only so a broken stop fails the test instead of hanging it: the service's own grace is 10 s plus the delay. */
const CEILING_MS = 60_000

describe('SIGTERM under keep-alive load, straight to the built instance', () => {
  let database: TestDatabase | undefined
  const dataDir = tempDir('sigterm')
  before(async () => {
    // On PostgreSQL a database of its own; on PGlite the trials' instances share DATA_DIR, one after the other.
    if (process.env.DATABASE_URL) database = await createTestDatabase()
  })
  after(async () => { await database?.dispose() })

  for (let trial = 1; trial <= TRIALS; trial++) {
    const last = trial === TRIALS
    const title = `trial ${trial}: exit 0; answers after the signal say Connection: close; the request in flight is answered` +
      (last ? '; a request never finished is cut at the drain deadline' : '')
    it(title, { timeout: CEILING_MS }, async (t) => {
      const server = runBuilt(t, 'dist/main.js', [], builtEnv({
        HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, DATABASE_URL: database?.url, MAIL_SANDBOX: 'on',
        RATE_LIMIT_ALLOWLIST: '127.0.0.1', SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
      }))
      const port = Number((await server.waitFor(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/, 'listening'))[1])

      const load = keepAliveLoad(port, 4, ['/api/status', '/api/health'])
      // A connection opened before the signal and left idle, used once more during the delay.
      const idle = new Agent({ keepAlive: true, maxSockets: 1 })
      t.after(() => idle.destroy())
      assert.equal((await get(port, '/api/health', idle)).headers.connection, 'keep-alive')
      const inflight = await halfSentContact(port, `sigterm-${trial}`)
      const never = last ? await halfSentContact(port, `sigterm-never-${trial}`) : undefined
      t.after(() => { inflight.socket.destroy(); never?.socket.destroy() })
      let signalledAt = Infinity
      try {
        await until('load under way', () => load.answers.length > 100, 20_000)
        signalledAt = Date.now()
        server.child.kill('SIGTERM')
        await until('readiness 503 (draining)', async () => (await get(port, '/api/health/ready', false)).status === 503)
        const late = await get(port, '/api/health', idle)
        assert.equal(late.status, 200)
        assert.equal(late.headers.connection, 'close', 'an answer on an old connection after the signal closes it')

        // The answer to the request in flight leaves once the listener is closed, and says keep-alive: it began before.
        await until('the listener closed', () => refusesConnections(port), 10_000)
        inflight.finish()
        await until('the in-flight answer', () => answered(inflight.reply()), 10_000)
        assert.match(inflight.reply(), /^HTTP\/1\.1 202 /, inflight.reply())
        // The server closes it once answered, although the client sends nothing more.
        await inflight.closed

        assert.equal(await server.exited, 0, server.output().slice(-3000))
      } finally {
        await load.stop()
      }
      const unexpected = load.errors.filter((e) => e.at < signalledAt || !STOPPING_ERRORS.includes(e.code))
      assert.deepEqual(unexpected, [], 'no request failed before the signal, none but a refused or reset connection after it')
      assert.deepEqual(load.answers.filter((a) => a.status !== 200), [], 'every answer is 200')
      assert.match(server.output(), /"msg":"stopped"/)
      if (never) {
        assert.equal(never.reply(), '', 'the request never finished has no answer')
        assert.match(server.output(), /connections still open after the drain are cut/)
      }
    })
  }
})

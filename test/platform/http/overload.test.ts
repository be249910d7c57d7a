// Load shedding under real event-loop pressure: the loop of this very process (which runs the server)
// is blocked, and the next requests are answered 503 at once, then served again once it recovers.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { loadConfig } from '../../../src/config.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { until } from '../../helpers/wait.ts'

function blockEventLoop(ms: number): void {
  const end = Date.now() + ms
  while (Date.now() < end) { /* busy: nothing else runs meanwhile */ }
}

describe('overload', () => {
  // Pressure is sampled every 300 ms and holds until the next sample: room for the requests below.
  const ctx = useTestApp({ env: { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '20', OVERLOAD_SAMPLE_MS: '300', OVERLOAD_RETRY_AFTER_S: '7' }, listen: true })

  it('sheds with 503 servico_indisponivel and Retry-After while the event loop lags, keeps liveness up, then recovers', async () => {
    // Start-up itself (migrations, the first status) can lag the loop past this low threshold: let it settle.
    await until('served before any pressure', async () => (await fetch(`${ctx.base}/api/status`)).status === 200)
    const shed = await until('a request shed under pressure', async () => {
      blockEventLoop(1000)
      const [status, health, page] = await Promise.all([fetch(`${ctx.base}/api/status`), fetch(`${ctx.base}/api/health`), fetch(`${ctx.base}/`)])
      if (status.status !== 503) return undefined
      return { status, health, page, body: await status.json(), pageBody: await page.json() }
    })
    assert.equal(shed.status.headers.get('retry-after'), '7')
    assert.deepEqual(shed.body, { detail: 'servico_indisponivel' })
    assert.ok(shed.status.headers.get('x-request-id'), 'a shed answer still names its request')
    assert.equal(shed.page.status, 503, 'site pages are shed too')
    assert.deepEqual(shed.pageBody, { detail: 'servico_indisponivel' })
    assert.equal(shed.health.status, 200, 'liveness is never shed: a killed instance moves its load onto the others')
    assert.deepEqual(await shed.health.json(), { status: 'ok' })
    await until('served again once the loop is free', async () => (await fetch(`${ctx.base}/api/status`)).status === 200)
  })
})

describe('overload configuration', () => {
  it('has defaults, takes 0 to turn a check off, and refuses a bad value naming it', () => {
    const d = loadConfig({}).overload
    assert.equal(d.maxEventLoopDelayMs, 1000)
    assert.ok(d.maxHeapUsedBytes > 0, 'the heap check is on by default')
    assert.equal(d.maxRssBytes, 0)
    assert.equal(d.retryAfterSeconds, 10)
    const off = loadConfig({ OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', OVERLOAD_MAX_HEAP_MB: '0', OVERLOAD_MAX_RSS_MB: '512' }).overload
    assert.equal(off.maxEventLoopDelayMs, 0)
    assert.equal(off.maxHeapUsedBytes, 0)
    assert.equal(off.maxRssBytes, 512 * 1024 * 1024)
    assert.throws(() => loadConfig({ OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '-5' }), /OVERLOAD_MAX_EVENT_LOOP_DELAY_MS must be a whole number/)
    assert.throws(() => loadConfig({ OVERLOAD_SAMPLE_MS: '1' }), /OVERLOAD_SAMPLE_MS must be a whole number from 10/)
  })
})

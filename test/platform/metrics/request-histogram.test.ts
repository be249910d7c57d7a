// The hand-kept request histogram must expose exactly what prom-client's own Histogram would for the same
// observations: same lines, same cumulative buckets (a value on a bound counts in that bucket), same sums.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Histogram, Registry } from 'prom-client'
import { REQUEST_DURATION } from '../../../src/platform/metrics/registry.ts'
import { RequestDurationHistogram } from '../../../src/platform/metrics/request-histogram.ts'

type Observation = [method: string, route: string, status: number, seconds: number]

async function both(observations: Observation[]): Promise<{ ours: string, theirs: string }> {
  const ourRegistry = new Registry()
  const ours = new RequestDurationHistogram(REQUEST_DURATION.name, REQUEST_DURATION.help, REQUEST_DURATION.buckets)
  ourRegistry.registerMetric(ours.asMetric())
  const theirRegistry = new Registry()
  const theirs = new Histogram({
    name: REQUEST_DURATION.name, help: REQUEST_DURATION.help, labelNames: ['method', 'route', 'status_code'],
    buckets: [...REQUEST_DURATION.buckets], registers: [theirRegistry],
  })
  for (const [method, route, status, seconds] of observations) {
    ours.observe(method, route, status, seconds)
    theirs.observe({ method, route, status_code: String(status) }, seconds)
  }
  return { ours: await ourRegistry.metrics(), theirs: await theirRegistry.metrics() }
}

describe('request duration histogram', () => {
  it('writes the same exposition as prom-client for the same observations', async () => {
    const { ours, theirs } = await both([
      ['GET', '/api/health', 200, 0.0004],
      ['GET', '/api/health', 200, 0.005], // on a bound: counted in le="0.005"
      ['GET', '/api/health', 200, 0.0051],
      ['GET', '/api/health', 503, 2],
      ['POST', '/api/site/contato', 202, 0.03],
      ['GET', '/assets/:name', 200, 11], // past the last bound: only +Inf
      ['GET', '(nao_encontrada)', 404, 0.001],
      ['POST', '/api/site/contato', 422, 0.002],
    ])
    assert.match(ours, /http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/health",status_code="200"\} 2/)
    assert.equal(ours, theirs)
  })

  it('is empty again after a reset, as the registry does on resetMetrics()', async () => {
    const registry = new Registry()
    const h = new RequestDurationHistogram(REQUEST_DURATION.name, REQUEST_DURATION.help, REQUEST_DURATION.buckets)
    registry.registerMetric(h.asMetric())
    h.observe('GET', '/api/version', 200, 0.001)
    assert.match(await registry.metrics(), /_count\{method="GET",route="\/api\/version",status_code="200"\} 1/)
    registry.resetMetrics()
    assert.doesNotMatch(await registry.metrics(), /_count/)
  })
})

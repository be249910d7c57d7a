// The request-duration histogram, kept by hand and exposed through prom-client's registry. prom-client's own
// Histogram validates and hashes the label object on every observe(); once per request that was about 3 % of
// the CPU of GET /api/health (BENCHMARKS.md). Here a series is found through three map lookups on values the
// request already has, and the exposition is the same text prom-client writes for its own histogram
// (test/platform/metrics/request-histogram.test.ts compares them).
import type { Metric, MetricObjectWithValues, MetricValueWithName } from 'prom-client'

type Labels = 'method' | 'route' | 'status_code' | 'le'

type Series = { method: string, route: string, status: string, counts: number[], sum: number, count: number }

export class RequestDurationHistogram {
  readonly type = 'histogram'
  readonly aggregator = 'sum'
  readonly #buckets: readonly number[]
  readonly #series = new Map<string, Map<string, Map<number, Series>>>()
  /** In the order first seen, as prom-client lists its series. */
  #all: Series[] = []

  readonly name: string
  readonly help: string
  constructor(name: string, help: string, buckets: readonly number[]) {
    this.name = name
    this.help = help
    this.#buckets = [...buckets].sort((a, b) => a - b)
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.#series.get(route)
    if (!byMethod) this.#series.set(route, byMethod = new Map())
    let byStatus = byMethod.get(method)
    if (!byStatus) byMethod.set(method, byStatus = new Map())
    let series = byStatus.get(status)
    if (!series) {
      series = { method, route, status: String(status), counts: this.#buckets.map(() => 0), sum: 0, count: 0 }
      byStatus.set(status, series)
      this.#all.push(series)
    }
    const buckets = this.#buckets
    let i = 0
    while (i < buckets.length && seconds > buckets[i]!) i++
    if (i < buckets.length) series.counts[i]!++
    series.sum += seconds
    series.count++
  }

  async get(): Promise<MetricObjectWithValues<MetricValueWithName<Labels>>> {
    const values: MetricValueWithName<Labels>[] = []
    const bucket = `${this.name}_bucket`
    for (const s of this.#all) {
      const labels = { method: s.method, route: s.route, status_code: s.status }
      let cumulative = 0
      this.#buckets.forEach((le, i) => {
        cumulative += s.counts[i]!
        values.push({ metricName: bucket, labels: { le, ...labels }, value: cumulative })
      })
      values.push({ metricName: bucket, labels: { le: '+Inf', ...labels }, value: s.count })
      values.push({ metricName: `${this.name}_sum`, labels, value: s.sum })
      values.push({ metricName: `${this.name}_count`, labels, value: s.count })
    }
    return { name: this.name, help: this.help, type: this.type as never, values, aggregator: this.aggregator, collect: () => undefined }
  }

  reset(): void {
    this.#series.clear()
    this.#all = []
  }

  /** For Registry.registerMetric, which only ever calls get(), reset() and reads name/help/type. */
  asMetric(): Metric<Labels> {
    return this as unknown as Metric<Labels>
  }
}

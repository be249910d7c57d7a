// The platform's Prometheus metrics, on a registry of its own per app (never prom-client's global one: the tests
// build many apps in one process, and two apps must not share or collide on a metric). A module adds its own
// metrics to `registry` in its setup (the contact module's counters, the status module's gauges).
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client'
import type { OutboxFigures } from './outbox.ts'
import { RequestDurationHistogram } from './request-histogram.ts'

export type Metrics = {
  registry: Registry
  httpDuration: RequestDurationHistogram
  rateLimited: Counter<'route'>
  deliveries: Counter<'resultado'>
  /** Gauges read at scrape time: their sources are set once the app has them. */
  outboxDepth: Gauge<'estado'>
  outboxOldestAge: Gauge
  buildInfo: Gauge<'version' | 'commit' | 'node_version'>
}

export type MetricSources = {
  /** Outbox rows by state and the oldest open one; rejects (or times out) when the database cannot answer. */
  outbox?: () => Promise<OutboxFigures>
  build?: { versao: string, commit: string }
  now?: () => Date
}

export function createMetrics(opts: { processMetrics: boolean }, sources: MetricSources = {}): Metrics {
  const registry = new Registry()
  // Process and event-loop metrics start a monitor and GC observers: only when something can read them.
  if (opts.processMetrics) collectDefaultMetrics({ register: registry })
  const registers = [registry]
  const now = sources.now ?? (() => new Date())
  return {
    registry,
    httpDuration: requestDuration(registry),
    rateLimited: new Counter({
      name: 'http_rate_limited_total', help: 'Requests refused with 429 by a per-IP budget, by route template', labelNames: ['route'], registers,
    }),
    deliveries: new Counter({
      name: 'mail_delivery_attempts_total',
      help: 'Delivery attempts by result: enviado, sandbox, adiado (retried later) or falhou (given up)',
      labelNames: ['resultado'],
      registers,
    }),
    outboxDepth: new Gauge({
      name: 'mail_outbox_messages',
      help: 'Outbox messages waiting (pendente), being sent (enviando) or given up (falhou); absent when the database does not answer',
      labelNames: ['estado'],
      registers,
      async collect() {
        this.reset()
        if (!sources.outbox) return
        try {
          for (const [estado, n] of Object.entries((await sources.outbox()).depth)) this.set({ estado }, n)
        } catch {
          // No sample rather than a stale one: an alert on absent() sees it; the status page says why.
        }
      },
    }),
    outboxOldestAge: new Gauge({
      name: 'mail_outbox_oldest_age_seconds',
      help: 'Seconds the oldest message waiting or being sent has been in the outbox (0 when none); absent when the database does not answer',
      registers,
      async collect() {
        this.reset()
        if (!sources.outbox) return
        try {
          const { oldestOpenAt } = await sources.outbox()
          this.set(oldestOpenAt ? Math.max(0, (now().getTime() - oldestOpenAt.getTime()) / 1000) : 0)
        } catch {
          // As mail_outbox_messages: no sample rather than a stale one.
        }
      },
    }),
    buildInfo: buildInfo(registers, sources.build),
  }
}

/** Value 1, the identity in its labels: joined on in queries (`* on(instance) group_left(version) build_info`). */
function buildInfo(registers: Registry[], build: MetricSources['build']): Gauge<'version' | 'commit' | 'node_version'> {
  const gauge = new Gauge({
    name: 'build_info', help: 'The running build: APP_VERSION, APP_COMMIT and the Node.js version, as labels; always 1',
    labelNames: ['version', 'commit', 'node_version'], registers,
  })
  gauge.set({ version: build?.versao ?? '', commit: build?.commit ?? '', node_version: process.versions.node }, 1)
  return gauge
}

export const REQUEST_DURATION = {
  name: 'http_request_duration_seconds',
  help: 'Time to answer a request, by route template (not the raw URL), method and status code',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
} as const

function requestDuration(registry: Registry): RequestDurationHistogram {
  const histogram = new RequestDurationHistogram(REQUEST_DURATION.name, REQUEST_DURATION.help, REQUEST_DURATION.buckets)
  registry.registerMetric(histogram.asMetric())
  return histogram
}

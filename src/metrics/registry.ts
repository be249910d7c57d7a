// The service's Prometheus metrics, on a registry of its own per app (never prom-client's global one:
// the tests build many apps in one process, and two apps must not share or collide on a metric).
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client'
import { RequestDurationHistogram } from './request-histogram.ts'

export type Metrics = {
  registry: Registry
  httpDuration: RequestDurationHistogram
  rateLimited: Counter<'route'>
  deliveries: Counter<'resultado'>
  contactsAccepted: Counter<'canal'>
  /** For the spam filter's onSpam(reason) hook. */
  spam: Counter<'motivo'>
  /** Gauges read at scrape time: their sources are set once the app has them. */
  outboxDepth: Gauge<'estado'>
  snapshotAge: Gauge
}

export type MetricSources = {
  /** Outbox rows by state; rejects (or times out) when the database cannot answer. */
  outboxDepth?: () => Promise<Record<string, number>>
  /** When the status snapshot last finished computing; undefined before the first time. */
  snapshotRefreshedAt?: () => Date | undefined
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
    contactsAccepted: new Counter({
      name: 'contacts_accepted_total', help: 'Contacts accepted (202), by channel: api or site form', labelNames: ['canal'], registers,
    }),
    spam: new Counter({
      name: 'contact_spam_total', help: 'Contact submissions kept as spam and never e-mailed, by reason', labelNames: ['motivo'], registers,
    }),
    outboxDepth: new Gauge({
      name: 'mail_outbox_messages',
      help: 'Outbox messages waiting (pendente), being sent (enviando) or given up (falhou); absent when the database does not answer',
      labelNames: ['estado'],
      registers,
      async collect() {
        this.reset()
        if (!sources.outboxDepth) return
        try {
          for (const [estado, n] of Object.entries(await sources.outboxDepth())) this.set({ estado }, n)
        } catch {
          // No sample rather than a stale one: an alert on absent() sees it; the status page says why.
        }
      },
    }),
    snapshotAge: new Gauge({
      name: 'status_snapshot_age_seconds',
      help: 'Seconds since the /api/status snapshot was last computed; grows when its refresh is stuck',
      registers,
      collect() {
        this.reset()
        const at = sources.snapshotRefreshedAt?.()
        if (at) this.set((now().getTime() - at.getTime()) / 1000)
      },
    }),
  }
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

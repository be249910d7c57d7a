// The metrics capability as the app wires it: a registry per app (request metrics are observed by the
// access log's hook: observeHttp in ./http.ts), and the listener on METRICS_PORT opened when the app is ready and closed with it.
import type { FastifyInstance } from 'fastify'
import type { Clock } from '../lib/clock.ts'
import type { Orm } from '../db/database.ts'
import { outboxSource } from './outbox.ts'
import { createMetrics, type Metrics } from './registry.ts'
import { startMetricsServer, type MetricsServer } from './server.ts'

export type { Metrics } from './registry.ts'
export { observeHttp } from './http.ts'

export type MetricsSetup = {
  host: string
  /** undefined: no listener (the counters still count, for whoever holds app.deps.metrics). */
  port: number | undefined
  orm: Orm
  dbTimeoutMs: number
  build: { versao: string, commit: string }
  clock: Clock
}

export function setupMetrics(app: FastifyInstance, setup: MetricsSetup): Metrics {
  const metrics = createMetrics({ processMetrics: setup.port !== undefined }, {
    outbox: outboxSource(setup.orm, setup.dbTimeoutMs),
    build: setup.build,
    now: () => setup.clock.now(),
  })
  if (setup.port === undefined) return metrics
  const port = setup.port
  let server: MetricsServer | undefined
  app.addHook('onReady', async () => {
    server = await startMetricsServer(metrics.registry, setup.host, port)
    app.log.info({ port: server.port }, 'metrics listening')
  })
  app.addHook('onClose', async () => {
    await server?.close()
  })
  return metrics
}

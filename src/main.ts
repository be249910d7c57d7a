// Process entry: read the config, build the app, listen; on SIGTERM/SIGINT stop gracefully: readiness
// fails at once, in-flight requests finish, the delivery worker hands back what it holds, exit 0.
import { setTimeout as sleep } from 'node:timers/promises'
import closeWithGrace from 'close-with-grace'
import type { App } from './app.ts'
import { loadConfig, type Config } from './config.ts'
import { recordServerUrl } from './platform/db/embedded-server-url.ts'
import { drainConnections } from './platform/http/connection-drain.ts'
import { errorFacts } from './platform/lib/log-safety.ts'
import { databaseRefusal, exitOnStartupProblem, listenStartupError, startupProblem } from './platform/lib/startup.ts'

/** The longest a stop may take before the process gives up and exits 1 (Kubernetes' grace must exceed it). */
const SHUTDOWN_GRACE_MS = 10_000
/**
 * How long, once the listener is closed, the requests in flight have to finish (the database's timeout bounds
 * them to a second or two) before the connections still open are cut; the rest of the grace is the delivery
 * worker's, to hand back the message it holds, and the pools'.
 */
const DRAIN_MS = 5_000

// Whatever the service writes (the embedded database, sandbox mail holding visitors' data) is its user's alone.
process.umask(0o077)

function fail(err: unknown): never {
  if (startupProblem(err) !== undefined) exitOnStartupProblem(err)
  const refused = databaseRefusal(err)
  if (refused !== undefined) {
    console.error(`start-up failed: ${refused}`)
    process.exit(1)
  }
  const { type, code, frames } = errorFacts(err)
  console.error(`start-up failed: ${type}${code ? ` (${code})` : ''}\n${frames ?? ''}`)
  process.exit(1)
}

async function main(): Promise<void> {
  let config: Config
  let app: App
  try {
    config = loadConfig()
    // Tracing patches pg and ioredis as they load, so it starts before the app's modules are imported.
    const tracing = config.otelEndpoint ? await (await import('./platform/telemetry/tracing.ts')).startTracing(config.build, config.otelServiceName) : undefined
    app = await (await import('./app.ts')).buildApp(config)
    if (tracing) app.addHook('onClose', () => tracing.shutdown())
    // The CLI beside an embedded server builds its links from this server's address, never from its own PORT and HOST.
    if (!config.databaseUrl) {
      const forget = recordServerUrl(config.dataDir, config.publicUrl)
      app.addHook('onClose', async () => forget())
    }
  } catch (err) {
    fail(err)
  }
  closeWithGrace({ delay: SHUTDOWN_GRACE_MS + config.shutdownDelayMs }, async ({ signal, err }) => {
    app.deps.lifecycle.draining = true
    const connections = drainConnections(app.server)
    if (err) app.log.error(errorFacts(err), 'closing after an error')
    else app.log.info({ signal, delayMs: config.shutdownDelayMs }, 'stopping: readiness answers 503, then the listener closes')
    if (config.shutdownDelayMs) await sleep(config.shutdownDelayMs)
    const deadline = setTimeout(() => {
      app.log.warn({ afterMs: DRAIN_MS }, 'stopping: connections still open after the drain are cut')
      connections.cut()
    }, DRAIN_MS)
    try {
      await app.close()
    } finally {
      clearTimeout(deadline)
    }
    app.log.info('stopped')
  })
  try {
    await app.listen({ port: config.port, host: config.host })
  } catch (err) {
    await app.close().catch(() => {})
    fail(listenStartupError(err, config.host, config.port))
  }
  app.log.info({
    url: config.publicUrl,
    ambiente: config.ambiente || 'desenvolvimento',
    banco: app.deps.db.kind,
    email: app.deps.channel.mode,
    limites: app.deps.redis ? 'redis' : 'memoria',
    entrega: app.deps.worker ? 'neste processo' : 'MAIL_WORKER=off',
  }, 'service ready')
}

await main()

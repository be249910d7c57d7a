// Process entry: read the config, build the app, listen; on SIGTERM/SIGINT stop gracefully: readiness
// fails at once, in-flight requests finish, the delivery worker hands back what it holds, exit 0.
import { setTimeout as sleep } from 'node:timers/promises'
import closeWithGrace from 'close-with-grace'
import { buildApp, type App } from './app.ts'
import { loadConfig, type Config } from './config.ts'
import { errorFacts } from './log-safety.ts'
import { databaseRefusal, exitOnStartupProblem, listenStartupError, startupProblem } from './startup.ts'

/** The longest a stop may take before the process gives up and exits 1 (Kubernetes' grace must exceed it). */
const SHUTDOWN_GRACE_MS = 10_000

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
    app = await buildApp(config)
  } catch (err) {
    fail(err)
  }
  closeWithGrace({ delay: SHUTDOWN_GRACE_MS + config.shutdownDelayMs }, async ({ signal, err }) => {
    app.deps.lifecycle.draining = true
    if (err) app.log.error(errorFacts(err), 'closing after an error')
    else app.log.info({ signal, delayMs: config.shutdownDelayMs }, 'stopping: readiness answers 503, then the listener closes')
    if (config.shutdownDelayMs) await sleep(config.shutdownDelayMs)
    await app.close()
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

// `npm run worker`: the delivery worker alone, for deployments that run it apart from the server
// (then start the server with MAIL_WORKER=off). Stops cleanly on SIGINT/SIGTERM.
import closeWithGrace from 'close-with-grace'
import { pino, type Logger } from 'pino'
import { systemClock } from './platform/lib/clock.ts'
import { loadConfig, type Config } from './config.ts'
import type { Database } from './platform/db/database.ts'
import { openConfiguredDatabase } from './platform/db/open.ts'
import { loggerOptions } from './platform/lib/logging.ts'
import { exitOnStartupProblem, prepareDataDir } from './platform/lib/startup.ts'
import { MailChannel } from './platform/outbox/channel.ts'
import { mailTransportFor } from './platform/outbox/transport.ts'
import { DeliveryWorker } from './platform/outbox/worker.ts'

process.umask(0o077) // sandbox mail and the embedded database are this user's alone

let config: Config
let db: Database
let log: Logger
try {
  config = loadConfig()
  const { stream, ...options } = loggerOptions(config)
  log = pino(options, stream).child({ component: 'entrega' })
  ;({ db } = await openConfiguredDatabase(config, {
    onPoolError: (err) => log.warn({ code: (err as NodeJS.ErrnoException).code }, 'idle database connection lost'),
  }))
  if (config.mailSandbox) prepareDataDir(config.dataDir)
} catch (err) {
  exitOnStartupProblem(err)
}
const transport = mailTransportFor(config)
const channel = new MailChannel({
  mode: transport.mode, verify: () => transport.verify(), clock: systemClock, reverifyMs: config.mail.reverifyMs,
  deliveryExpected: config.ambiente === 'producao', log,
})
const worker = new DeliveryWorker({
  db, transport, mailFrom: config.mailFrom, clock: systemClock, config: config.mail, log,
})
channel.start()
await worker.start()
log.info({ modo: transport.mode }, 'delivery worker started')

closeWithGrace({ delay: 30_000 }, async ({ signal, err }) => {
  if (err) log.error({ type: err.name }, 'closing after an error')
  else log.info({ signal }, 'closing')
  await worker.stop()
  channel.stop()
  transport.close()
  await db.close()
})

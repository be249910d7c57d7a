// `npm run worker`: the delivery worker alone, for deployments that run it apart from the server
// (then start the server with MAIL_WORKER=off). Stops cleanly on SIGINT/SIGTERM.
import closeWithGrace from 'close-with-grace'
import { pino } from 'pino'
import { systemClock } from '../clock.ts'
import { ConfigError, loadConfig } from '../config.ts'
import { makeSubjectRouter } from '../contact/subjects.ts'
import { openDatabase } from '../db/database.ts'
import { DataDirBusyError } from '../db/dir-lock.ts'
import { migrate } from '../db/migrate.ts'
import { MailChannel } from './channel.ts'
import { mailTransportFor } from './transport.ts'
import { DeliveryWorker } from './worker.ts'

let config
try {
  config = loadConfig()
} catch (err) {
  if (!(err instanceof ConfigError)) throw err
  console.error(`configuration error: ${err.message}`)
  process.exit(2)
}
const log = pino({ level: config.logLevel }).child({ component: 'entrega' })
let db
try {
  db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : `${config.dataDir}/pglite`, connectTimeoutMs: config.dbTimeoutMs, onPoolError: (err) => log.warn({ code: (err as NodeJS.ErrnoException).code }, 'idle database connection lost') })
} catch (err) {
  if (!(err instanceof DataDirBusyError)) throw err
  console.error(err.message)
  process.exit(2)
}
await migrate(db)
const transport = mailTransportFor(config)
const channel = new MailChannel({ mode: transport.mode, verify: () => transport.verify(), clock: systemClock, reverifyMs: config.mail.reverifyMs, log })
const worker = new DeliveryWorker({ db, transport, subjects: makeSubjectRouter(config.subjects), mailFrom: config.mailFrom, clock: systemClock, config: config.mail, log })
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

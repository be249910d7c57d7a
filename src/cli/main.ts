// Operator commands: thin calls into the same module functions the server uses.
import { systemClock } from '../clock.ts'
import { ConfigError, loadConfig, type Config } from '../config.ts'
import { openDatabase, type Database } from '../db/database.ts'
import { DataDirBusyError } from '../db/dir-lock.ts'
import { migrate } from '../db/migrate.ts'
import { contactsCommand, CONTACTS_HELP } from './contacts.ts'
import { maintenanceCommand, MAINTENANCE_HELP } from './maintenance.ts'
import { UsageError, type Output } from './output.ts'
import { queueCommand, QUEUE_HELP, mailCommand, MAIL_HELP } from './queue.ts'

const HELP = `Usage: npm run cli -- <command> [options]

Commands:
  migrate                      apply pending database migrations (the server also does at start)
${MAINTENANCE_HELP}
${QUEUE_HELP}
${MAIL_HELP}
${CONTACTS_HELP}
  help                         this text

The database is DATABASE_URL, or the embedded one in DATA_DIR (stop the server first:
the embedded database admits one process at a time).`

export type CliDeps = {
  /** Opens the database; by default DATABASE_URL or DATA_DIR's embedded one (tests pass their own). */
  open?: (config: Config) => Promise<Database>
}

export async function runCli(argv: string[], out: Output, env: Record<string, string | undefined> = process.env, deps: CliDeps = {}): Promise<number> {
  const [command, ...rest] = argv
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    out.log(HELP)
    return command ? 0 : 2
  }
  let db: Database | undefined
  let owned = false
  try {
    const config = loadConfig(env)
    const open = async () => {
      if (db) return db
      if (deps.open) {
        db = await deps.open(config)
      } else {
        db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : `${config.dataDir}/pglite` })
        owned = true
      }
      return db
    }
    const ctx = { open: async () => { const d = await open(); await migrate(d); return d }, out, clock: systemClock, config }
    switch (command) {
      case 'migrate': {
        const applied = await migrate(await open())
        out.log(applied.length ? `applied: ${applied.map((m) => `${String(m.version).padStart(4, '0')}_${m.name}`).join(', ')}` : 'database is up to date')
        return 0
      }
      case 'manutencao': return await maintenanceCommand(rest, ctx)
      case 'fila': return await queueCommand(rest, ctx)
      case 'email': return await mailCommand(rest, ctx)
      case 'contatos': return await contactsCommand(rest, ctx)
      default: throw new UsageError(`unknown command "${command}"`)
    }
  } catch (err) {
    if (err instanceof UsageError) {
      out.error(`error: ${err.message}\n\n${HELP}`)
      return 2
    }
    if (err instanceof ConfigError || err instanceof DataDirBusyError) {
      out.error(`error: ${err.message}`)
      return 2
    }
    out.error(`error: ${(err as Error).message}`)
    return 1
  } finally {
    if (owned) await db?.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await runCli(process.argv.slice(2), { log: (s) => console.log(s), error: (s) => console.error(s) })
}

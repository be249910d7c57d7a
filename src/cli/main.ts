// Operator commands: thin calls into the same module functions the server uses.
import { systemClock } from '../clock.ts'
import { ConfigError, loadConfig } from '../config.ts'
import { openDatabase, type Database } from '../db/database.ts'
import { DataDirBusyError } from '../db/dir-lock.ts'
import { migrate } from '../db/migrate.ts'
import { maintenanceCommand, MAINTENANCE_HELP } from './maintenance.ts'
import { UsageError, type Output } from './output.ts'

const HELP = `Usage: npm run cli -- <command> [options]

Commands:
  migrate                      apply pending database migrations (the server also does at start)
${MAINTENANCE_HELP}
  help                         this text

The database is DATABASE_URL, or the embedded one in DATA_DIR (stop the server first:
the embedded database admits one process at a time).`

export async function runCli(argv: string[], out: Output, env = process.env): Promise<number> {
  const [command, ...rest] = argv
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    out.log(HELP)
    return command ? 0 : 2
  }
  let db: Database | undefined
  try {
    const config = loadConfig(env)
    const open = async () => {
      db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : `${config.dataDir}/pglite` })
      await migrate(db)
      return db
    }
    switch (command) {
      case 'migrate': {
        db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : `${config.dataDir}/pglite` })
        const applied = await migrate(db)
        out.log(applied.length ? `applied: ${applied.map((m) => `${String(m.version).padStart(4, '0')}_${m.name}`).join(', ')}` : 'database is up to date')
        return 0
      }
      case 'manutencao':
        return await maintenanceCommand(rest, { open, out, clock: systemClock })
      default:
        throw new UsageError(`unknown command "${command}"`)
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
    await db?.close()
  }
}


if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await runCli(process.argv.slice(2), { log: (s) => console.log(s), error: (s) => console.error(s) })
}

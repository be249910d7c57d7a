// The database a process is configured for, opened and migrated: PostgreSQL at DATABASE_URL, or the
// embedded one in DATA_DIR. One place for the server, the worker and the CLI, so they open it alike and
// fail alike: a connection problem names DATABASE_URL or DATA_DIR, never with a stack or a password.
import { databaseStartupError, prepareDataDir } from '../lib/startup.ts'
import { openDatabase, type Database } from './database.ts'
import { migrate, type Migration } from './migrate.ts'
import { checkServingRole } from './runtime-role.ts'

export type OpenedDatabase = { db: Database, applied: Migration[] }

export type OpenOptions = {
  /**
   * Apply pending migrations, then check that the serving session is the runtime role (the server and the
   * worker do; the CLI migrates and checks itself, because its `migrate` command reports what it applied).
   */
  migrate?: boolean
  onPoolError?: (err: Error) => void
  /** See DatabaseOptions: the server serves the embedded database on a socket, the CLI may use it. */
  serveSocket?: boolean
  viaSocket?: boolean
  onSocketUnavailable?: (why: string) => void
}

/** Config's database settings (src/platform/db/settings.ts reads them). */
type DatabaseSettings = {
  databaseUrl: string | undefined
  migrationDatabaseUrl: string | undefined
  dataDir: string
  dbTimeoutMs: number
  databasePoolMax: number
}

export async function openConfiguredDatabase(config: DatabaseSettings, opts: OpenOptions = {}): Promise<OpenedDatabase> {
  if (!config.databaseUrl) prepareDataDir(config.dataDir)
  let db: Database | undefined
  try {
    db = await openDatabase({
      databaseUrl: config.databaseUrl,
      migrationUrl: config.migrationDatabaseUrl,
      dataDir: config.databaseUrl ? undefined : `${config.dataDir}/pglite`,
      connectTimeoutMs: config.dbTimeoutMs,
      poolMax: config.databasePoolMax,
      onPoolError: opts.onPoolError,
      serveSocket: opts.serveSocket,
      viaSocket: opts.viaSocket,
      onSocketUnavailable: opts.onSocketUnavailable,
    })
    if (opts.migrate === false) return { db, applied: [] }
    const applied = await migrate(db)
    await checkServingRole(db)
    return { db, applied }
  } catch (err) {
    await db?.close().catch(() => {})
    throw config.databaseUrl ? databaseStartupError(err, config.databaseUrl) : err
  }
}

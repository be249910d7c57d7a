// Which database the CLI works on, said before it works on it, and the links it builds. Run from another directory, or
// with another environment than the service's, the CLI used to make a fresh ./data and write customers and tokens
// there that the service never saw, and to e-mail links to the port it guessed from its own PORT. Now every command
// that opens a database names it on stderr (stdout stays the command's, for --json); a missing embedded database is
// made only by `migrate` or when asked (--criar-banco); and a link's origin is PUBLIC_URL, else the address the server
// running on this embedded database recorded, else the command refuses.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Config } from '../config.ts'
import type { Database } from '../platform/db/database.ts'
import { lockHolder } from '../platform/db/dir-lock.ts'
import { recordedServerUrl } from '../platform/db/embedded-server-url.ts'
import { openConfiguredDatabase } from '../platform/db/open.ts'
import { StartupError } from '../platform/lib/startup-error.ts'

/** The option that lets a command other than `migrate` create an embedded database that does not exist yet. */
export const CREATE_OPTION = '--criar-banco'

export type CliOpenOptions = {
  /** May create the embedded database when DATA_DIR holds none (`migrate`, or CREATE_OPTION given). */
  create: boolean
  /** Where the line naming the database goes (stderr). */
  say: (line: string) => void
}

/** The configured database, opened as the CLI does (through a running server's socket when one holds the files). */
export async function openCliDatabase(config: Config, opts: CliOpenOptions): Promise<Database> {
  const open = async () => (await openConfiguredDatabase(config, { migrate: false, viaSocket: true })).db
  if (config.databaseUrl) {
    // Said before connecting: when the connection fails, the operator still sees which server it tried.
    const { shown, hadPassword } = shownPostgresUrl(config.databaseUrl)
    opts.say(`database: PostgreSQL ${shown} (DATABASE_URL${hadPassword ? ', its password not shown' : ''})`)
    return open()
  }
  const dir = join(config.dataDir, 'pglite')
  // The file PostgreSQL (and PGlite's start, pglite-init.ts) takes as "a database is here".
  const existed = existsSync(join(dir, 'PG_VERSION'))
  if (!existed && !opts.create) {
    throw new StartupError(`no embedded database in ${dir} (DATA_DIR is ${config.dataDir}, DATABASE_URL is unset): run the CLI with the service's ` +
      `DATA_DIR or DATABASE_URL, or add ${CREATE_OPTION} to create a new, empty database there`)
  }
  const db = await open()
  const how = db.throughServer
    ? `through the running server (process ${lockHolder(dir) ?? 'unknown'})`
    : `${existed ? '' : 'created now, '}its files opened directly (no server runs on it)`
  opts.say(`database: embedded, ${dir} (DATA_DIR), ${how}`)
  return db
}

/** The URL without its password or query (which may hold one: `?password=`), the socket directory kept. */
function shownPostgresUrl(raw: string): { shown: string, hadPassword: boolean } {
  let u: URL
  try { u = new URL(raw) } catch { return { shown: 'at a URL that does not parse', hadPassword: false } }
  const hadPassword = u.password !== '' || u.searchParams.has('password')
  const socketDir = u.searchParams.get('host')
  u.password = ''
  u.search = ''
  if (socketDir) u.searchParams.set('host', socketDir)
  return { shown: u.toString(), hadPassword }
}

/**
 * The origin of the links a command prints or e-mails. `db` is the database the command opened, when the CLI opened
 * it: lent by a running embedded server, that server's recorded address is the service's own.
 */
export function linkOrigin(config: Config, db: Database | undefined): string {
  if (config.publicUrlSet) return config.publicUrl
  const recorded = db?.throughServer ? recordedServerUrl(config.dataDir) : undefined
  if (recorded) return recorded
  throw new StartupError('PUBLIC_URL is unset and no running server on this database recorded its address: set PUBLIC_URL to the ' +
    'address the service is reached at (e.g. https://www.suaempresa.com.br), so the link does not point elsewhere')
}

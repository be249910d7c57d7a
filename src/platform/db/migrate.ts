// Applies the numbered SQL files in ./migrations once each, in order, under a lock so that
// several instances starting together do not race. See docs/decisions.md for why not drizzle-kit's migrator.
// Each applied file's SHA-256 is recorded, and a file changed after it was applied stops the start: the
// database holds what the old text did, and the new text would never run anywhere it was already applied.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Database, RawTx } from './database.ts'
import { checkRuntimeRoleCanBeMade, RUNTIME_ROLE } from './runtime-role.ts'
import { StartupError } from '../lib/startup-error.ts'

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations')
const MIGRATION_LOCK = 7348382 // arbitrary constant shared by every instance

export type Migration = { version: number, name: string, sql: string }

/** The SHA-256 of a migration's text, line endings normalized (a checkout with CRLF is the same file). */
export function migrationChecksum(m: Pick<Migration, 'sql'>): string {
  return createHash('sha256').update(m.sql.replace(/\r\n/g, '\n')).digest('hex')
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f.slice(5, -4), sql: readFileSync(join(dir, f), 'utf8') }))
}

/**
 * Returns the migrations it applied (empty when the database was current). Runs as the schema's owner; when that
 * is the runtime role itself (DATABASE_URL is its login and MIGRATION_DATABASE_URL is unset), it only checks that
 * nothing is pending, and says which setting to give when something is.
 */
export async function migrate(db: Database, migrations = readMigrations()): Promise<Migration[]> {
  return db.ownerTransaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    if (db.ownerUrlVariable) await checkRuntimeRoleCanBeMade((text) => tx.query(text), db.ownerUrlVariable)
    const [who] = await tx.query<{ runtime: boolean, created: boolean }>(
      "SELECT current_user = $1 AS runtime, to_regclass('schema_migracoes') IS NOT NULL AS created", [RUNTIME_ROLE])
    // Created by the owner's first run; only looked at otherwise (the runtime role may create nothing).
    if (!who!.created && !who!.runtime) {
      await tx.exec(`CREATE TABLE schema_migracoes (
        versao integer PRIMARY KEY, nome text NOT NULL, aplicada_em timestamptz NOT NULL DEFAULT now(), checksum text)`)
    }
    if (who!.created && !who!.runtime) await recordMissingChecksums(tx, migrations)
    const applied = who!.runtime && !who!.created ? [] : await appliedMigrations(tx)
    refuseChangedMigrations(applied, migrations)
    const done = new Set(applied.map((r) => r.versao))
    const pending = migrations.filter((m) => !done.has(m.version))
    if (pending.length && who!.runtime) {
      throw new StartupError(`DATABASE_URL logs in as the runtime role ${RUNTIME_ROLE}, which may not change the schema, and ` +
        `${pending.length} migration${pending.length === 1 ? ' is' : 's are'} pending (${pending.map(migrationName).join(', ')}): ` +
        'set MIGRATION_DATABASE_URL to the schema owner\'s URL (the server, or `npm run cli -- migrate`, applies them then)')
    }
    for (const m of pending) {
      await tx.exec(m.sql)
      await tx.query('INSERT INTO schema_migracoes (versao, nome, checksum) VALUES ($1, $2, $3)', [m.version, m.name, migrationChecksum(m)])
    }
    return pending
  })
}

type Applied = { versao: number, nome: string, checksum: string | null }

/**
 * A database migrated before checksums were recorded gets the column, and its rows the checksums of the files
 * as they are now. Safe because nothing better is known about those rows: the text that ran is gone, and the
 * files of this release are the ones every later start compares with, so a change from here on is caught. A
 * file edited before this release went unnoticed then and stays so; no existing install is refused by it.
 */
async function recordMissingChecksums(tx: RawTx, migrations: Migration[]): Promise<void> {
  await tx.exec('ALTER TABLE schema_migracoes ADD COLUMN IF NOT EXISTS checksum text')
  for (const row of await tx.query<{ versao: number }>('SELECT versao FROM schema_migracoes WHERE checksum IS NULL')) {
    const m = migrations.find((x) => x.version === row.versao)
    if (m) await tx.query('UPDATE schema_migracoes SET checksum = $2 WHERE versao = $1', [m.version, migrationChecksum(m)])
  }
}

/** The applied rows; a runtime role reading a table the owner has not given the column yet sees no checksums. */
async function appliedMigrations(tx: RawTx): Promise<Applied[]> {
  const [col] = await tx.query<{ n: number | string }>(
    `SELECT count(*) AS n FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = 'schema_migracoes' AND column_name = 'checksum'`)
  return tx.query<Applied>(Number(col!.n) > 0
    ? 'SELECT versao, nome, checksum FROM schema_migracoes ORDER BY versao'
    : 'SELECT versao, nome, NULL AS checksum FROM schema_migracoes ORDER BY versao')
}

function refuseChangedMigrations(applied: Applied[], migrations: Migration[]): void {
  const changed = applied.flatMap((row) => {
    const m = migrations.find((x) => x.version === row.versao)
    return m && row.checksum && row.checksum !== migrationChecksum(m) ? [migrationName(m)] : []
  })
  if (!changed.length) return
  throw new StartupError(`migration${changed.length === 1 ? '' : 's'} ${changed.join(', ')} changed after ${changed.length === 1 ? 'it was' : 'they were'} ` +
    'applied to this database (its SHA-256 differs from the one recorded in schema_migracoes): restore the released text of the file, ' +
    'and put the change in a new numbered migration')
}

export const migrationName = (m: Migration): string => `${String(m.version).padStart(4, '0')}_${m.name}`

export async function schemaVersion(db: Database): Promise<number> {
  return db.rawTransaction(async (tx) => {
    const rows = await tx.query<{ v: number | null }>('SELECT max(versao) AS v FROM schema_migracoes')
    return rows[0]?.v ?? 0
  })
}

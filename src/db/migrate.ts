// Applies the numbered SQL files in ./migrations once each, in order, under a lock so that
// several instances starting together do not race. See docs/decisions.md for why not drizzle-kit's migrator.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Database } from './database.ts'
import { checkRuntimeRoleCanBeMade, RUNTIME_ROLE } from './runtime-role.ts'
import { StartupError } from '../startup-error.ts'

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations')
const MIGRATION_LOCK = 7348382 // arbitrary constant shared by every instance

export type Migration = { version: number, name: string, sql: string }

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
        versao integer PRIMARY KEY, nome text NOT NULL, aplicada_em timestamptz NOT NULL DEFAULT now())`)
    }
    const applied = who!.runtime && !who!.created ? [] : await tx.query<{ versao: number }>('SELECT versao FROM schema_migracoes')
    const done = new Set(applied.map((r) => r.versao))
    const pending = migrations.filter((m) => !done.has(m.version))
    if (pending.length && who!.runtime) {
      throw new StartupError(`DATABASE_URL logs in as the runtime role ${RUNTIME_ROLE}, which may not change the schema, and ` +
        `${pending.length} migration${pending.length === 1 ? ' is' : 's are'} pending (${pending.map(migrationName).join(', ')}): ` +
        'set MIGRATION_DATABASE_URL to the schema owner\'s URL (the server, or `npm run cli -- migrate`, applies them then)')
    }
    for (const m of pending) {
      await tx.exec(m.sql)
      await tx.query('INSERT INTO schema_migracoes (versao, nome) VALUES ($1, $2)', [m.version, m.name])
    }
    return pending
  })
}

export const migrationName = (m: Migration): string => `${String(m.version).padStart(4, '0')}_${m.name}`

export async function schemaVersion(db: Database): Promise<number> {
  return db.rawTransaction(async (tx) => {
    const rows = await tx.query<{ v: number | null }>('SELECT max(versao) AS v FROM schema_migracoes')
    return rows[0]?.v ?? 0
  })
}

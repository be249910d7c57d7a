// Applies the numbered SQL files in ./migrations once each, in order, under a lock so that
// several instances starting together do not race. See docs/decisions.md for why not drizzle-kit's migrator.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Database } from './database.ts'

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations')
const MIGRATION_LOCK = 7348382 // arbitrary constant shared by every instance

export type Migration = { version: number, name: string, sql: string }

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f.slice(5, -4), sql: readFileSync(join(dir, f), 'utf8') }))
}

/** Returns the migrations it applied (empty when the database was current). */
export async function migrate(db: Database, migrations = readMigrations()): Promise<Migration[]> {
  return db.rawTransaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migracoes (
      versao integer PRIMARY KEY, nome text NOT NULL, aplicada_em timestamptz NOT NULL DEFAULT now())`)
    const done = new Set((await tx.query<{ versao: number }>('SELECT versao FROM schema_migracoes')).map((r) => r.versao))
    const pending = migrations.filter((m) => !done.has(m.version))
    for (const m of pending) {
      await tx.exec(m.sql)
      await tx.query('INSERT INTO schema_migracoes (versao, nome) VALUES ($1, $2)', [m.version, m.name])
    }
    return pending
  })
}

export async function schemaVersion(db: Database): Promise<number> {
  return db.rawTransaction(async (tx) => {
    const rows = await tx.query<{ v: number | null }>('SELECT max(versao) AS v FROM schema_migracoes')
    return rows[0]?.v ?? 0
  })
}

// The database layer's settings: which PostgreSQL (or the embedded one), whose login migrates, pool and timeout.
import { int, url } from '../settings/kinds.ts'
import type { Values } from '../settings/load.ts'
import { ConfigError } from '../lib/startup-error.ts'

const POSTGRES = ['postgres:', 'postgresql:']

export const DB_SETTINGS = {
  databaseUrl: url('DATABASE_URL', { protocols: POSTGRES, unset: 'embedded PGlite in DATA_DIR/pglite', description: 'the PostgreSQL to use' }),
  migrationDatabaseUrl: url('MIGRATION_DATABASE_URL', {
    protocols: POSTGRES, unset: 'DATABASE_URL\'s login migrates', description: 'the schema owner\'s login, for migrations only',
  }),
  dbTimeoutMs: int('DB_TIMEOUT_MS', { default: 1500, min: 50, max: 30_000, description: 'how long readiness and status checks wait for the database' }),
  databasePoolMax: int('DATABASE_POOL_MAX', { default: 10, min: 1, max: 1000, description: 'the most connections each instance\'s pool holds' }),
}

export function dbConfig(v: Values<typeof DB_SETTINGS>): Values<typeof DB_SETTINGS> {
  const { databaseUrl, migrationDatabaseUrl, dbTimeoutMs, databasePoolMax } = v
  if (migrationDatabaseUrl && !databaseUrl) {
    throw new ConfigError('MIGRATION_DATABASE_URL needs DATABASE_URL (the runtime role\'s login): the embedded database has no roles to split')
  }
  // Only this area's values: the caller passes every area's.
  return { databaseUrl, migrationDatabaseUrl, dbTimeoutMs, databasePoolMax }
}

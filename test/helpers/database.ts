// A fresh, migrated database: a new database on the PostgreSQL server named by DATABASE_URL (dropped by
// dispose), or an in-memory PGlite when DATABASE_URL is unset. Suites get theirs through fixture.ts, which
// disposes of it however the suite ends. Each is a copy of a migrated image (migrated-image.ts) unless it asks for
// its own list of migrations (a database as an earlier release left it).
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { TestContext } from 'node:test'
import { openDatabase, type Database } from '../../src/platform/db/database.ts'
import { migrate, type Migration } from '../../src/platform/db/migrate.ts'
import { checkServingRole } from '../../src/platform/db/runtime-role.ts'
import { migratedPgliteImage, PG_TEMPLATE_VARIABLE, pgliteRuntime } from './migrated-image.ts'

export type TestDatabase = { db: Database, url: string | undefined, dispose(): Promise<void> }

export const usingPostgres = Boolean(process.env.DATABASE_URL)

// Read and compiled while the test file's other modules load (file reads and WebAssembly compile off the main
// thread): a file's first test starts that much sooner. A failure here is left for the first database to report.
if (!usingPostgres) {
  migratedPgliteImage().catch(() => {})
  pgliteRuntime().catch(() => {})
}

/** Migrated by every migration, or by `migrations` alone (a database as an earlier release left it). */
export async function createTestDatabase(migrations?: Migration[]): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL
  if (!adminUrl) {
    const pgliteImage = migrations ? undefined : await migratedPgliteImage()
    return migrated(await openDatabase({ pgliteImage, pgliteRuntime: await pgliteRuntime() }), undefined, async () => {}, migrations)
  }
  // Named after the test run (scripts/test.mjs), which checks afterwards that none was left behind.
  const name = `fps_t_${process.env.FPS_TEST_RUN ?? 'adhoc'}_${process.pid}_${randomBytes(4).toString('hex')}`
  const template = migrations ? undefined : process.env[PG_TEMPLATE_VARIABLE]
  await adminQuery(adminUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${pg.escapeIdentifier(template)}` : ''}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const drop = () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  try {
    return await migrated(await openDatabase({ databaseUrl: url.toString() }), url.toString(), drop, migrations)
  } catch (err) {
    await drop() // created but never handed out: nobody else could drop it
    throw err
  }
}

// A copy of the image carries the image's installation secrets (instalacao: the IP salt, the key the DPoP nonces
// derive from): each copy gets its own, as each new installation makes them, from every column's own default.
const NEW_INSTALLATION = `DO $$ DECLARE cols text; BEGIN
  SELECT string_agg(format('%I = DEFAULT', column_name), ', ') INTO cols FROM information_schema.columns
   WHERE table_schema = current_schema() AND table_name = 'instalacao' AND column_default IS NOT NULL AND column_name <> 'id';
  IF cols IS NOT NULL THEN EXECUTE 'UPDATE instalacao SET ' || cols; END IF;
END $$`

async function migrated(db: Database, url: string | undefined, drop: () => Promise<void>, migrations?: Migration[]): Promise<TestDatabase> {
  try {
    if (!migrations) await asOwner(db, NEW_INSTALLATION)
    await migrate(db, migrations)
    // Every test runs as the service does: as the runtime role, under row-level security.
    await checkServingRole(db)
  } catch (err) {
    await db.close().catch(() => {})
    throw err
  }
  return {
    db,
    url,
    async dispose() {
      // A test may have closed the database itself (the "database is down" cases): closing again fails, and
      // the drop must still run.
      await db.close().catch(() => {})
      await drop()
    },
  }
}

export async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

/** Runs SQL as the schema's owner (a test's triggers and functions): the service's own role may create nothing. */
export function asOwner(db: Database, text: string): Promise<void> {
  return db.ownerTransaction((tx) => tx.exec(text))
}

/** node:test's skip for a test that needs PostgreSQL: false there, the reason on PGlite. */
export const onPostgresOnly = (reason: string): string | false => usingPostgres ? false : reason

/** What another session holds: released by `release()`, or when the test ends, however it ends. */
export type Held = { release(): Promise<void> }

/**
 * Another session on the test's PostgreSQL database, in an open transaction that has run `statements` (a row
 * lock, a table lock, an advisory lock): what the app waits for, or finds taken, until `release()` rolls it back.
 */
export async function holdInAnotherSession(t: TestContext, url: string | undefined, statements: (string | pg.QueryConfig)[]): Promise<Held> {
  if (!url) throw new Error('holdInAnotherSession needs a PostgreSQL database (onPostgresOnly)')
  const session = new pg.Client({ connectionString: url })
  await session.connect()
  let open = true
  const release = async () => {
    if (open) await session.query('ROLLBACK')
    open = false
  }
  t.after(async () => {
    await release().catch(() => {})
    await session.end()
  })
  await session.query('BEGIN')
  for (const statement of statements) await session.query(statement)
  return { release }
}

/** Until `n` sessions of the database wait for a lock: the requests that hold them are in flight. */
export async function lockWaiters(url: string, n: number): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const count = async () => (await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows[0]!.n
    while (await count() < n) await new Promise((r) => setTimeout(r, 20))
  } finally {
    await client.end()
  }
}

// A fresh, migrated database for one test file: a new database on the PostgreSQL server named by
// DATABASE_URL (dropped afterwards), or an in-memory PGlite when DATABASE_URL is unset.
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openDatabase, type Database } from '../../src/db/database.ts'
import { migrate } from '../../src/db/migrate.ts'

export type TestDatabase = { db: Database, url: string | undefined, dispose(): Promise<void> }

export const usingPostgres = Boolean(process.env.DATABASE_URL)

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL
  if (!adminUrl) {
    const db = await openDatabase({})
    await migrate(db)
    return { db, url: undefined, dispose: () => db.close() }
  }
  // Named after the test run (scripts/test.mjs), which checks afterwards that none was left behind.
  const name = `fps_t_${process.env.FPS_TEST_RUN ?? 'adhoc'}_${process.pid}_${randomBytes(4).toString('hex')}`
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const db = await openDatabase({ databaseUrl: url.toString() })
  await migrate(db)
  return {
    db,
    url: url.toString(),
    async dispose() {
      // A test may have closed the database itself (the "database is down" cases): the DROP must still run.
      await db.close().catch(() => {})
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

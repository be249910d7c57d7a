// Run once by scripts/test.mjs before the test files: the migrated image the run's databases copy
// (migrated-image.ts). With DATABASE_URL, the PostgreSQL template named by the argument: created, migrated, and
// left with no connection (a template with one cannot be copied); without it, the PGlite image in the cache.
import { openDatabase } from '../../src/platform/db/database.ts'
import { migrate } from '../../src/platform/db/migrate.ts'
import { adminQuery } from './database.ts'
import { migratedPgliteImage } from './migrated-image.ts'

const adminUrl = process.env.DATABASE_URL
const template = process.argv[2]
if (adminUrl && template) {
  await adminQuery(adminUrl, `CREATE DATABASE ${template}`)
  const url = new URL(adminUrl)
  url.pathname = `/${template}`
  const db = await openDatabase({ databaseUrl: url.toString() })
  try {
    await migrate(db)
  } finally {
    await db.close()
  }
} else if (!adminUrl) {
  console.log('test run: making the migrated embedded database the tests copy (once for these migrations, 10–20 s)')
  await migratedPgliteImage()
}

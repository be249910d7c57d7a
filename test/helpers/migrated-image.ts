// A test's fresh database costs a copy, not a new cluster and two dozen migrations. On PGlite a new database runs
// initdb (about 6 s of CPU on this machine, 227 times a suite); on PostgreSQL the migrations take about a second.
// So each starts from a migrated image instead:
// - PGlite: the files of a migrated embedded database (dumpEmbedded), kept under node_modules/.cache/fps-test and
//   named by what makes them (PGlite's version, its start parameters, every migration's checksum): a changed
//   migration makes a new image, never a stale database. Made once, by the first test that needs it.
// - PostgreSQL: a migrated database that scripts/test.mjs makes once per run (prepare-run.ts) and names in
//   FPS_TEST_PG_TEMPLATE; each test's database is `CREATE DATABASE … TEMPLATE` it.
// Every copy is still migrated (nothing pending: a read of schema_migracoes that checks each checksum) and checked
// to serve as the runtime role, exactly as a new one was.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openDatabase } from '../../src/platform/db/database.ts'
import { migrate, migrationChecksum, readMigrations } from '../../src/platform/db/migrate.ts'
import { dumpEmbedded } from '../../src/platform/db/pglite.ts'
import { PGLITE_START_PARAMS } from '../../src/platform/db/pglite-init.ts'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'fps-test')

/** The environment variable naming the run's migrated PostgreSQL template (set by scripts/test.mjs). */
export const PG_TEMPLATE_VARIABLE = 'FPS_TEST_PG_TEMPLATE'

function imageKey(): string {
  const pglite = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string }
  const hash = createHash('sha256').update(`pglite ${pglite.version}\n${PGLITE_START_PARAMS.join(' ')}\n`)
  for (const m of readMigrations()) hash.update(`${m.version} ${migrationChecksum(m)}\n`)
  return hash.digest('hex').slice(0, 16)
}

let image: Promise<Blob> | undefined

/** The migrated embedded database's files: read from the cache, or made there first. */
export function migratedPgliteImage(): Promise<Blob> {
  image ??= loadOrMake().catch((err: unknown) => {
    image = undefined
    throw err
  })
  return image
}

async function loadOrMake(): Promise<Blob> {
  const file = join(CACHE_DIR, `pglite-${imageKey()}.tar`)
  if (existsSync(file)) return new Blob([readFileSync(file)])
  const db = await openDatabase({})
  let blob: Blob
  try {
    await migrate(db)
    blob = await dumpEmbedded(db)
  } finally {
    await db.close()
  }
  mkdirSync(CACHE_DIR, { recursive: true })
  // Written beside, then renamed: two test processes making it at once each leave a whole file, never a torn one.
  const partial = `${file}.${process.pid}.partial`
  writeFileSync(partial, Buffer.from(await blob.arrayBuffer()))
  renameSync(partial, file)
  for (const old of readdirSync(CACHE_DIR)) {
    if (old.startsWith('pglite-') && old.endsWith('.tar') && join(CACHE_DIR, old) !== file) rmSync(join(CACHE_DIR, old), { force: true })
  }
  return blob
}

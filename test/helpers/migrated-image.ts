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
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { openDatabase } from '../../src/platform/db/database.ts'
import { migrate, migrationChecksum, readMigrations } from '../../src/platform/db/migrate.ts'
import { dumpEmbedded, type PgliteRuntime } from '../../src/platform/db/pglite.ts'
import { PGLITE_START_PARAMS } from '../../src/platform/db/pglite-init.ts'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'fps-test')

/** The environment variable naming the run's migrated PostgreSQL template (set by scripts/test.mjs). */
export const PG_TEMPLATE_VARIABLE = 'FPS_TEST_PG_TEMPLATE'

function imageKey(): string {
  const pglite = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string }
  const hash = createHash('sha256').update(`pglite ${pglite.version}\n${PGLITE_START_PARAMS.join(' ')}\nwithout templates\n`)
  for (const m of readMigrations()) hash.update(`${m.version} ${migrationChecksum(m)}\n`)
  return hash.digest('hex').slice(0, 16)
}

let image: Promise<Blob> | undefined
let runtime: Promise<PgliteRuntime> | undefined

/**
 * PGlite's WebAssembly compiled and its installation's files read once a process: every test database of the
 * process starts from them (each start would otherwise compile and read them again, a quarter of a second).
 */
export function pgliteRuntime(): Promise<PgliteRuntime> {
  runtime ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'))
    const [wasm, data] = await Promise.all([readFile(join(dist, 'pglite.wasm')), readFile(join(dist, 'pglite.data'))])
    return { wasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) }
  })().catch((err: unknown) => {
    runtime = undefined
    throw err
  })
  return runtime
}

/** The migrated embedded database's files: read from the cache, or made there first. */
export function migratedPgliteImage(): Promise<Blob> {
  image ??= loadOrMake().catch((err: unknown) => {
    image = undefined
    throw err
  })
  return image
}

/**
 * The image without the cluster's template databases, which no test uses (a test database is the `postgres` one; a
 * copy is made by loading the image, never by CREATE DATABASE): a third fewer files for each test database to load.
 */
async function withoutTemplates(files: Blob): Promise<Blob> {
  const pglite = await PGlite.create({ loadDataDir: files, startParams: PGLITE_START_PARAMS })
  try {
    await pglite.exec("UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')")
    await pglite.exec('DROP DATABASE template0')
    await pglite.exec('DROP DATABASE template1')
    await pglite.exec('CHECKPOINT')
    return await pglite.dumpDataDir('none')
  } finally {
    await pglite.close()
  }
}

async function loadOrMake(): Promise<Blob> {
  const file = join(CACHE_DIR, `pglite-${imageKey()}.tar`)
  if (existsSync(file)) return new Blob([readFileSync(file)])
  const db = await openDatabase({})
  let blob: Blob
  try {
    await migrate(db)
    blob = await withoutTemplates(await dumpEmbedded(db))
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

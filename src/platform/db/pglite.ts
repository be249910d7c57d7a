// The embedded half of src/platform/db/database.ts: PGlite in DATA_DIR (or in memory), behind the same Database
// interface. Imported on demand, so a PostgreSQL deployment never loads PGlite.
import { PGlite, type Transaction } from '@electric-sql/pglite'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { mkdirSync } from 'node:fs'
import type { Database, Orm, RawTx } from './database.ts'
import { boundStatement, PGLITE_ORM_PARSERS } from './one-trip.ts'
import { acquireDirLock, type DirLock } from './dir-lock.ts'
import { EmbeddedSocketError, serveEmbeddedSocket, type EmbeddedSocket } from './embedded-socket.ts'
import { initPgliteDir, PGLITE_START_PARAMS } from './pglite-init.ts'
import { makePrivate } from './private-files.ts'
import { BECOME_RUNTIME_ROLE_IF_IT_EXISTS } from './runtime-role.ts'
import { schema } from './schema.ts'

/**
 * `image`: the files to start an in-memory database from, as `dumpEmbedded` wrote them (the test suite starts each
 * test's database from one migrated image: PGlite's own start runs initdb, which costs seconds).
 */
export async function openPglite(
  dataDir: string | undefined, serveSocket: boolean, onSocketUnavailable?: (why: string) => void, image?: Blob, runtime?: PgliteRuntime,
): Promise<Database> {
  let lock: DirLock | undefined
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 })
    lock = acquireDirLock(dataDir)
  }
  let client: PGlite | undefined
  let socket: EmbeddedSocket | undefined
  try {
    if (dataDir) await initPgliteDir(dataDir)
    client = await PGlite.create(dataDir, {
      startParams: PGLITE_START_PARAMS,
      ...(image && !dataDir ? { loadDataDir: image } : {}),
      ...(runtime ? { pgliteWasmModule: runtime.wasmModule, fsBundle: runtime.fsBundle } : {}),
    })
    // Its one session logs in as a superuser, which row security does not hold: it serves as the runtime role
    // from here on (or, in a database not yet migrated, from the migration that creates the role).
    await client.exec(BECOME_RUNTIME_ROLE_IF_IT_EXISTS)
    if (dataDir) {
      // PGlite writes its first files by untarring an initdb image through Emscripten's FS.writeFile, which
      // chmods each one to 0666 whatever the umask: put every file and directory back to this user alone.
      makePrivate(dataDir)
      // The socket only lends the database to the CLI: without it the site still works, and the CLI says the files are in use.
      if (serveSocket) {
        socket = await serveEmbeddedSocket(client, dataDir, BECOME_RUNTIME_ROLE_IF_IT_EXISTS).catch((err: unknown) => {
          onSocketUnavailable?.(err instanceof EmbeddedSocketError ? err.message : 'serving it failed')
          return undefined
        })
      }
    }
  } catch (err) {
    await client?.close().catch(() => {})
    lock?.release()
    throw err
  }
  const db = pgliteDatabase(client, socket, lock)
  clients.set(db, client)
  return db
}

const clients = new WeakMap<Database, PGlite>()

/**
 * What every PGlite start reads and compiles, PGlite's WebAssembly and the files of its installation, given by a
 * process that opens many embedded databases (the tests: a quarter of a second each start).
 */
export type PgliteRuntime = { wasmModule: WebAssembly.Module, fsBundle: Blob }

/** The files of an embedded database, uncompressed, as `openPglite` takes them back as its `image`. */
export async function dumpEmbedded(db: Database): Promise<Blob> {
  const client = clients.get(db)
  if (!client) throw new Error('dumpEmbedded takes an embedded database opened by openPglite')
  return client.dumpDataDir('none')
}

function pgliteDatabase(client: PGlite, socket: EmbeddedSocket | undefined, lock: DirLock | undefined): Database {
  const orm = drizzlePglite({ client, schema }) as unknown as Orm
  const rawTx = (tx: Transaction): RawTx => ({
    exec: async (text) => { await tx.exec(text) },
    query: async <R>(text: string, params?: unknown[]) => (await tx.query<R>(text, params)).rows,
  })
  return {
    kind: 'pglite',
    orm,
    // PGlite has one session: a BEGIN sent with query() would be shared by every caller, so use its own transaction().
    rawTransaction: (fn) => client.transaction((tx) => fn(rawTx(tx))),
    // In process there is no round trip to save: the statements run in order, with their parameters, in one transaction.
    oneTrip: (statements) => client.transaction(async (tx) => {
      const answers: Record<string, unknown>[][] = []
      for (const { text, values } of statements.map(boundStatement)) {
        answers.push((await tx.query<Record<string, unknown>>(text, values as unknown[], { parsers: PGLITE_ORM_PARSERS })).rows)
      }
      return answers
    }),
    async ownerTransaction(fn) {
      // The session's login is the superuser: back to it for this transaction only.
      const result = await client.transaction(async (tx) => {
        await tx.exec('SET LOCAL ROLE NONE')
        return fn(rawTx(tx))
      })
      // The migration that creates the runtime role may just have run.
      await client.exec(BECOME_RUNTIME_ROLE_IF_IT_EXISTS)
      return result
    },
    async listen(channel, onNotify) {
      return client.listen(channel, () => onNotify())
    },
    async close() {
      await socket?.close()
      await client.close()
      lock?.release()
    },
  }
}

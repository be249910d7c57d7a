// One interface over PostgreSQL (node-postgres pool) and embedded PGlite, so every query has one code path.
import type { SQL } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { existsSync } from 'node:fs'
import { dirname } from 'node:path'
import pg from 'pg'
import { DataDirBusyError } from './dir-lock.ts'
import type { PgliteRuntime } from './pglite.ts'
import { SOCKET_PORT, socketPathIn } from './embedded-socket.ts'
import { lastingListener } from './listener.ts'
import { BECOME_RUNTIME_ROLE, runtimeRoleError } from './runtime-role.ts'
import { schema } from './schema.ts'
import { databaseUnavailable } from './unavailable.ts'
import { boundStatement, ORM_TYPE_PARSERS, type OneTripStatement } from './one-trip.ts'
import { tripBatcher } from './trip-batch.ts'
import { databaseStartupError } from '../lib/startup.ts'

export type Orm = PgDatabase<PgQueryResultHKT, typeof schema>

/** Runs multi-statement SQL text inside one transaction (used by the migrator). */
export type RawTx = {
  exec(sqlText: string): Promise<void>
  query<R = Record<string, unknown>>(sqlText: string, params?: unknown[]): Promise<R[]>
}

/** Every query through `orm`, `rawTransaction` and `listen` runs as the runtime role (src/platform/db/runtime-role.ts). */
export interface Database {
  readonly kind: 'postgres' | 'pglite'
  readonly orm: Orm
  /** The setting whose login runs `ownerTransaction` on PostgreSQL (undefined on the embedded database). */
  readonly ownerUrlVariable?: 'DATABASE_URL' | 'MIGRATION_DATABASE_URL' | undefined
  /** The embedded database lent by the server that holds its files, through its socket (the CLI beside a running server). */
  readonly throughServer?: boolean
  rawTransaction<T>(fn: (tx: RawTx) => Promise<T>): Promise<T>
  /**
   * Runs `statements` as one transaction in one round trip to the server (one-trip.ts), answering each one's rows:
   * a read as a customer, or a write whose only statement is small. Any statement failing undoes them all.
   */
  oneTrip(statements: readonly OneTripStatement[]): Promise<Record<string, unknown>[][]>
  /**
   * One transaction as the schema's owner, for migrations (and a test's DDL): MIGRATION_DATABASE_URL's login, or
   * DATABASE_URL's own login before any switch to the runtime role; on the embedded database, its superuser.
   */
  ownerTransaction<T>(fn: (tx: RawTx) => Promise<T>): Promise<T>
  /** Calls `onNotify` on each NOTIFY on `channel`; resolves to a function that stops listening. */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>
  close(): Promise<void>
}

export type DatabaseOptions = {
  databaseUrl?: string | undefined
  /**
   * The schema owner's URL. Set: DATABASE_URL must log in as the runtime role itself and is used as it is.
   * Unset: DATABASE_URL's login runs the migrations, and each pooled connection switches to the runtime role.
   */
  migrationUrl?: string | undefined
  /** Where PGlite keeps its files; undefined keeps it in memory (tests). */
  dataDir?: string | undefined
  /** In memory only: the embedded database's files to start from (pglite.ts's `dumpEmbedded`), instead of a new one. */
  pgliteImage?: Blob | undefined
  /** PGlite compiled and its own files read once, for a process that opens many embedded databases (the tests). */
  pgliteRuntime?: PgliteRuntime | undefined
  /** How long a pooled connection attempt may take before the query fails (readiness depends on it). */
  connectTimeoutMs?: number
  /** The most connections the pool holds (DATABASE_POOL_MAX; 10 when unset). */
  poolMax?: number | undefined
  /** How long a query, or one trip of a batch, may wait for its answer (QUERY_TIMEOUT_MS when unset; tests shorten it). */
  queryTimeoutMs?: number
  onPoolError?: (err: Error) => void
  /** The server: offer the embedded database to local processes over a Unix socket next to its files. */
  serveSocket?: boolean
  /** The CLI: when a live server holds the embedded database, use that server's socket instead of failing. */
  viaSocket?: boolean
  /** The socket could not be served (`why` names the cause): the server runs without it. */
  onSocketUnavailable?: (why: string) => void
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts)
  try {
    // Loaded only when used: PGlite and its driver cost a tenth of a second at every start on PostgreSQL.
    const { openPglite } = await import('./pglite.ts')
    return await openPglite(opts.dataDir, opts.serveSocket === true, opts.onSocketUnavailable, opts.pgliteImage, opts.pgliteRuntime)
  } catch (err) {
    if (!(err instanceof DataDirBusyError) || !opts.viaSocket || !opts.dataDir) throw err
    const socketDir = dirname(socketPathIn(opts.dataDir))
    if (!existsSync(socketPathIn(opts.dataDir))) throw err
    // One connection: the server lends its database for that session alone (see embedded-socket.ts), so the
    // owner's transactions must use it too (a second connection would wait for the first to end).
    const url = `postgres://postgres@/postgres?host=${encodeURIComponent(socketDir)}&port=${SOCKET_PORT}`
    return { ...openPostgres(url, { ...opts, migrationUrl: undefined, max: 1, sharedSession: true }), kind: 'pglite', throughServer: true }
  }
}

type PostgresOptions = DatabaseOptions & { max?: number, sharedSession?: boolean }

/** How long a query (or one trip of a batch) may wait for its answer before it fails and its connection is closed. */
const QUERY_TIMEOUT_MS = 10_000

function openPostgres(url: string, opts: PostgresOptions): Database {
  const split = opts.migrationUrl !== undefined
  const queryTimeoutMs = opts.queryTimeoutMs ?? QUERY_TIMEOUT_MS
  // Awaited by the pool before it hands the client to anyone: no query runs on a connection that failed to switch.
  const becomeRuntimeRole = async (client: pg.ClientBase) => {
    if (split) return
    await client.query(BECOME_RUNTIME_ROLE).catch((err: unknown) => { throw runtimeRoleError(err, (client as pg.Client).user) })
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? opts.poolMax ?? 10,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 2000,
    idleTimeoutMillis: 30_000,
    // Whatever the server's or the role's default: node-postgres writes and reads text as UTF-8.
    client_encoding: 'UTF8',
    // A server that stops answering must fail queries, not hang them (and the requests waiting on them).
    query_timeout: queryTimeoutMs,
    keepAlive: true,
    onConnect: becomeRuntimeRole,
  })
  // An idle client dropped by the server emits 'error' on the pool; unhandled, it would kill the process.
  pool.on('error', (err) => opts.onPoolError?.(err))
  // pg-pool listens for a client's 'error' only while the client is idle: it removes that listener when it hands
  // the client out, so a connection lost under a checked-out client (a transaction, when the server stops) would
  // emit an 'error' nobody hears, which kills the process. Every client the pool makes gets a listener for life.
  // The error itself reaches the query in flight, whose request answers 503; and pg-pool discards the client when
  // it is released, as a lost connection marks it not queryable (`_release` in pg-pool checks `_queryable`).
  pool.on('connect', (client) => client.on('error', ignoreConnectionError))
  const orm = drizzlePg({ client: pool, schema }) as unknown as Orm
  const lend = async () => {
    const client = await pool.connect()
    return { client, release: (err?: Error) => client.release(err) }
  }
  // The embedded database's socket (the CLI beside a running server) lends its one session to one command at a
  // time: nothing there to batch, and batches over PGlite's protocol are untested, so one trip a write.
  const trips = tripBatcher(lend, ORM_TYPE_PARSERS, databaseUnavailable, { maxTrips: opts.sharedSession ? 1 : 32, tripTimeoutMs: queryTimeoutMs })
  return {
    kind: 'postgres',
    orm,
    ownerUrlVariable: opts.sharedSession ? undefined : split ? 'MIGRATION_DATABASE_URL' : 'DATABASE_URL',
    async rawTransaction(fn) {
      const client = await pool.connect()
      return releasing(client, () => inTransaction(client, fn))
    },
    oneTrip: (statements) => trips(statements.map(boundStatement)),
    async ownerTransaction(fn) {
      if (opts.sharedSession) {
        // The embedded database's session: its login is the superuser, back for this transaction only.
        const client = await pool.connect()
        return releasing(client, () => inTransaction(client, fn, 'SET LOCAL ROLE NONE'))
      }
      // A connection of its own, never switched: the pool's may not exist yet (the migrations create the role).
      const ownerUrl = opts.migrationUrl ?? url
      const client = new pg.Client({ connectionString: ownerUrl, connectionTimeoutMillis: opts.connectTimeoutMs ?? 2000 })
      client.on('error', ignoreConnectionError)
      try {
        await client.connect()
      } catch (err) {
        await client.end().catch(() => {})
        throw split ? databaseStartupError(err, ownerUrl, 'MIGRATION_DATABASE_URL') : err
      }
      try {
        return await inTransaction(client, fn)
      } finally {
        await client.end().catch(() => {})
      }
    },
    async listen(channel, onNotify) {
      // LISTEN needs a session of its own: a pooled client would be handed to other queries.
      return lastingListener(async () => {
        const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: opts.connectTimeoutMs ?? 2000, keepAlive: true })
        client.on('error', (err) => opts.onPoolError?.(err))
        client.on('notification', (n) => { if (n.channel === channel) onNotify() })
        try {
          await client.connect()
          await becomeRuntimeRole(client)
          await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
        } catch (err) {
          await client.end().catch(() => {})
          throw err
        }
        return client
      }, onNotify)
    },
    close: () => pool.end(),
  }
}

/** A lost connection's 'error' event: heard so it cannot reach the process; the query in flight fails with it. */
const ignoreConnectionError = (): void => {}

/**
 * Runs `work` on a checked-out client, then hands the client back; after a failure that means the connection is
 * gone or stuck (a lost server, a query that timed out and may still run), the pool destroys it rather than
 * lending it again.
 */
async function releasing<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
  try {
    const result = await work()
    client.release()
    return result
  } catch (err) {
    client.release(databaseUnavailable(err) ? (err as Error) : undefined)
    throw err
  }
}

async function inTransaction<T>(client: pg.ClientBase, fn: (tx: RawTx) => Promise<T>, first?: string): Promise<T> {
  try {
    await client.query('BEGIN')
    if (first) await client.query(first)
    const result = await fn({
      // Without parameters node-postgres uses the simple protocol, which accepts several statements.
      exec: async (text) => { await client.query(text) },
      query: async (text, params) => (await client.query(text, params)).rows,
    })
    await client.query('COMMIT')
    return result
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {})
    throw err
  }
}

/** Rows of a raw SQL query; node-postgres and PGlite both answer `{ rows }`. */
export async function queryRows<R>(orm: { execute(query: SQL): PromiseLike<unknown> }, query: SQL): Promise<R[]> {
  const result = (await orm.execute(query)) as { rows: R[] }
  return result.rows
}

/** A nullable timestamp of a raw row, as either driver hands it (a Date, or its text). */
export const dateOrNull = (value: Date | string | null): Date | null => (value === null ? null : new Date(value))

// Statements sent inside a transaction the ORM opened, on its connection, in one round trip: a request that reads
// several things under a lock, or writes several rows, pays one exchange for them and builds no query (each is a
// fixed statement, rendered once and prepared once per connection). The ORM's transaction still begins, commits
// and rolls back; a failing statement fails the transaction, as any query in it would.
import { entityKind, is } from 'drizzle-orm'
import { PgTransaction } from 'drizzle-orm/pg-core'
import pg from 'pg'
import type { Orm } from './database.ts'
import { PGLITE_ORM_PARSERS, ORM_TYPE_PARSERS } from './one-trip.ts'
import { forgetPrepared, runPipeline, stalePrepared, type BoundStatement } from './pipeline.ts'
import { PreparedStatementLost } from './unavailable.ts'

type PgliteConnection = {
  query(text: string, params: unknown[], options: { parsers: typeof PGLITE_ORM_PARSERS }): Promise<{ rows: Record<string, unknown>[] }>
}

/** Each statement's rows, in order. */
export async function sendInTransaction(tx: Orm, statements: readonly BoundStatement[]): Promise<Record<string, unknown>[][]> {
  const connection = connectionOf(tx)
  if (connection instanceof pg.Client) {
    try {
      return await runPipeline(connection, statements, ORM_TYPE_PARSERS)
    } catch (err) {
      // The trip cannot be sent again, the transaction failed with it: the connection forgets what it had prepared,
      // and the request is answered as one to retry (503), whose retry parses afresh (Database.oneTrip retries by
      // itself, having no transaction to lose).
      if (!stalePrepared(err, statements)) throw err
      forgetPrepared(connection)
      throw new PreparedStatementLost(err)
    }
  }
  // PGlite runs in this process: a round trip costs nothing, so one statement after another.
  const answers: Record<string, unknown>[][] = []
  for (const s of statements) answers.push((await connection.query(s.text, [...s.values], { parsers: PGLITE_ORM_PARSERS })).rows)
  return answers
}

/**
 * The connection under a transaction of drizzle's: its session's client, node-postgres's pooled client or PGlite's
 * transaction. Not part of drizzle's typed surface; the tests of this file run on both databases, so a drizzle that
 * moved it fails there, not in a request.
 */
function connectionOf(tx: Orm): pg.ClientBase | PgliteConnection {
  if (!is(tx, PgTransaction)) throw new TypeError('statements are sent in a transaction (db.orm.transaction), not on the pool')
  const session = (tx as unknown as { _?: { session?: { client?: unknown } } })._?.session
  const kind = (session?.constructor as { [entityKind]?: string } | undefined)?.[entityKind]
  if (kind === 'NodePgSession' && session!.client instanceof pg.Client) return session!.client
  if (kind === 'PgliteSession' && typeof (session!.client as { query?: unknown })?.query === 'function') return session!.client as PgliteConnection
  throw new TypeError('the transaction\'s connection is not one this module knows')
}

/** A fixed statement and what its rows answer. */
export type Read<T> = { readonly statement: BoundStatement, answer(rows: Record<string, unknown>[]): T }

type Answers<R extends readonly Read<unknown>[]> = { -readonly [K in keyof R]: R[K] extends Read<infer T> ? T : never }

/** Several reads in the transaction, in one round trip: each one's answer, in order. */
export async function readInTransaction<const R extends readonly Read<unknown>[]>(tx: Orm, reads: R): Promise<Answers<R>> {
  const rows = await sendInTransaction(tx, reads.map((r) => r.statement))
  return reads.map((r, i) => r.answer(rows[i]!)) as Answers<R>
}

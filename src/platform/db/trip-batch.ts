// The one-trip transactions that requests start in the same turn of the event loop, written to PostgreSQL in
// one write on one connection: each trip keeps its own Sync, so each is still its own implicit transaction that
// commits or fails alone (PostgreSQL's protocol, "Pipelining": after an error the server skips to that trip's Sync
// and runs the next trip). On a loopback or a virtual machine each socket write costs as much as the rest of a
// simple read; a loaded server starting ten reads a turn makes one write instead of ten.
//
// node-postgres runs one query at a time per connection and counts a ReadyForQuery as the end of it, so a batch
// is one query to it that claims the connection again after each of its trips' ReadyForQuery but the last.
// Its own pipeline mode (`pipeline: true`) refuses queries that write their own messages, as a trip does.
import pg from 'pg'
import { Pipeline, forgetPrepared, runPipeline, stalePrepared, type BoundStatement } from './pipeline.ts'

type TypeParsers = ConstructorParameters<typeof Pipeline>[1]
type Connection = Parameters<Pipeline['submit']>[0]
type Rows = Record<string, unknown>[][]

/** What a batch needs of node-postgres's client beyond its API: which query the answers go to. */
type ClientState = { _activeQuery: unknown, readyForQuery: boolean, _queryable?: boolean, _ending?: boolean }

/** The trips of one batch on one connection; settles each trip's own promise, then its own callback. */
export class TripBatch {
  /** Set by the caller; node-postgres wraps it with its read timeout, which then fails the whole batch. */
  callback: ((err: Error | null) => void) | undefined
  private at = 0
  private ended = false

  constructor(private readonly client: pg.ClientBase, private trips: Pipeline[]) {}

  /** The trips' texts (never their values), as a query's `text` (for tracing). */
  get text(): string {
    return this.trips.map((t) => t.text).join(';\n')
  }

  submit(connection: Connection): Error | null {
    connection.stream.cork?.()
    try {
      // A trip whose values cannot be sent writes nothing and fails alone.
      this.trips = this.trips.filter((trip) => {
        const err = trip.submit(connection)
        if (err) process.nextTick(() => trip.handleError(err))
        return !err
      })
    } finally {
      connection.stream.uncork?.()
    }
    // Nothing written, nothing will answer: node-postgres hands the error back to handleError and frees the client.
    return this.trips.length ? null : new Error('no trip of the batch could be sent')
  }

  handleRowDescription(msg: Parameters<Pipeline['handleRowDescription']>[0]): void { this.trips[this.at]?.handleRowDescription(msg) }
  handleDataRow(msg: Parameters<Pipeline['handleDataRow']>[0]): void { this.trips[this.at]?.handleDataRow(msg) }
  handleCommandComplete(): void { this.trips[this.at]?.handleCommandComplete() }
  handleEmptyQuery(): void { this.trips[this.at]?.handleEmptyQuery() }
  handlePortalSuspended(): void { this.trips[this.at]?.handlePortalSuspended() }
  handleCopyInResponse(connection: Connection): void { this.trips[this.at]?.handleCopyInResponse(connection) }
  handleCopyData(): void {}

  handleError(err: Error): void {
    if (this.ended) return
    const state = this.client as unknown as ClientState
    if (err instanceof pg.DatabaseError && state._queryable !== false && !state._ending) {
      // The server's error for the current trip: it skips to that trip's Sync, whose ReadyForQuery is ours.
      this.trips[this.at]?.handleError(err)
      state._activeQuery = this
      return
    }
    // The connection is lost or timed out: no trip not yet answered will be.
    for (const trip of this.trips.slice(this.at)) trip.handleError(err)
    this.finish(err)
  }

  handleReadyForQuery(): void {
    if (this.ended) return
    this.trips[this.at++]?.handleReadyForQuery()
    if (this.at < this.trips.length) {
      // node-postgres has just let the connection go: the next trip's answers are still to come.
      const state = this.client as unknown as ClientState
      state._activeQuery = this
      state.readyForQuery = false
      return
    }
    this.finish(null)
  }

  private finish(err: Error | null): void {
    this.ended = true
    const cb = this.callback
    this.callback = undefined
    cb?.(err)
  }
}

type Waiting = { statements: readonly BoundStatement[], resolve(rows: Rows): void, reject(err: unknown): void }

export type TripBatcher = (statements: readonly BoundStatement[]) => Promise<Rows>

/**
 * Trips asked for in one turn of the event loop go out together once the turn's I/O is handled (setImmediate),
 * at most `maxTrips` to a connection. `connect` lends a client and takes it back: `release(err)` with the error
 * that makes the connection unusable, if one did.
 */
export function tripBatcher(
  connect: () => Promise<{ client: pg.ClientBase, release(err?: Error): void }>,
  types: TypeParsers,
  unusable: (err: unknown) => boolean,
  maxTrips = 32,
): TripBatcher {
  let waiting: Waiting[] = []
  const flush = () => {
    const all = waiting
    waiting = []
    for (let i = 0; i < all.length; i += maxTrips) void send(all.slice(i, i + maxTrips))
  }
  const send = async (batch: Waiting[]) => {
    let lent: Awaited<ReturnType<typeof connect>>
    try {
      lent = await connect()
    } catch (err) {
      for (const w of batch) w.reject(err)
      return
    }
    let lost: Error | undefined
    const stale: Waiting[] = []
    const trips = batch.map((w) => {
      const trip = new Pipeline(w.statements, types)
      trip.callback = (err, rows) => {
        if (!err) return w.resolve(rows!)
        if (unusable(err)) lost ??= err
        // A failed trip did nothing: sent again alone once the batch is over, its statements parsed afresh, when
        // what failed was a prepared statement this connection no longer has as it was.
        if (!lost && stalePrepared(err, w.statements)) stale.push(w)
        else w.reject(err)
      }
      return trip
    })
    await new Promise<void>((resolve) => {
      const submitted = new TripBatch(lent.client, trips)
      submitted.callback = (err) => {
        if (err && unusable(err)) lost ??= err
        resolve()
      }
      lent.client.query(submitted as unknown as pg.QueryConfig)
    })
    if (stale.length && !lost) {
      forgetPrepared(lent.client)
      for (const w of stale) {
        try {
          w.resolve(await runPipeline(lent.client, w.statements, types))
        } catch (err) {
          if (unusable(err)) lost ??= err as Error
          w.reject(err)
        }
      }
    } else {
      for (const w of stale) w.reject(lost)
    }
    lent.release(lost)
  }
  return (statements) => new Promise<Rows>((resolve, reject) => {
    waiting.push({ statements, resolve, reject })
    if (waiting.length === 1) setImmediate(flush)
  })
}

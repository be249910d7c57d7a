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

// node-postgres's read timeout would count the whole batch, so that one slow trip failed the trips behind it that
// had not had their own time yet: it is set out of reach, and each trip is timed from its own start instead.
const NO_TIMEOUT = 2 ** 31 - 1

/** The trips of one batch on one connection; settles each trip's own promise, then its own callback. */
export class TripBatch {
  /** Set by the caller; node-postgres wraps it with its read timeout (out of reach: query_timeout). */
  callback: ((err: Error | null) => void) | undefined
  readonly query_timeout = NO_TIMEOUT
  private at = 0
  private ended = false
  private timer: NodeJS.Timeout | undefined

  /** `timeoutMs`: how long one trip may take to be answered; past it the connection is given up. */
  private readonly client: pg.ClientBase
  private trips: Pipeline[]
  private readonly timeoutMs?: number
  constructor(client: pg.ClientBase, trips: Pipeline[], timeoutMs?: number) {
    this.client = client
    this.trips = trips
    this.timeoutMs = timeoutMs
  }

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
    if (!this.trips.length) return new Error('no trip of the batch could be sent')
    this.startClock()
    return null
  }

  handleRowDescription(msg: Parameters<Pipeline['handleRowDescription']>[0]): void { this.trips[this.at]?.handleRowDescription(msg) }
  handleDataRow(msg: Parameters<Pipeline['handleDataRow']>[0]): void { this.trips[this.at]?.handleDataRow(msg) }
  handleCommandComplete(): void { this.trips[this.at]?.handleCommandComplete() }
  handleEmptyQuery(): void { this.trips[this.at]?.handleEmptyQuery() }
  handlePortalSuspended(): void { this.trips[this.at]?.handlePortalSuspended() }
  handleCopyData(): void {}

  handleCopyInResponse(connection: Connection): void {
    if (this.ended) return
    // The last trip is ended as it would be alone. Behind any other, the next trips' messages are already written
    // and the server would read them as the COPY's data: the connection is given up.
    if (this.at === this.trips.length - 1) return this.trips[this.at]!.handleCopyInResponse(connection)
    this.trips[this.at++]!.handleError(new Error('a statement of one trip asked for COPY'))
    this.giveUp(new Error('Connection terminated: a trip asked for COPY in the middle of a batch'))
  }

  handleError(err: Error): void {
    if (this.ended) return
    const state = this.client as unknown as ClientState
    if (err instanceof pg.DatabaseError && state._queryable !== false && !state._ending) {
      // The server's error for the current trip: it skips to that trip's Sync, whose ReadyForQuery is ours.
      this.trips[this.at]?.handleError(err)
      state._activeQuery = this
      return
    }
    // The connection is lost: no trip not yet answered will be.
    this.giveUp(err)
  }

  handleReadyForQuery(): void {
    if (this.ended) return
    if (this.client.getTransactionStatus() !== 'I') {
      // A trip is one transaction: one that opened another (a BEGIN of its own) would leave it open to the next
      // trip, as another customer. Its connection is given up, which rolls the transaction back.
      this.trips[this.at++]?.handleError(new Error('a trip left a transaction open: undone with its connection'))
      return this.giveUp(new Error('Connection terminated: a trip of the batch left a transaction open'))
    }
    this.trips[this.at++]?.handleReadyForQuery()
    if (this.at < this.trips.length) {
      // node-postgres has just let the connection go: the next trip's answers are still to come.
      const state = this.client as unknown as ClientState
      state._activeQuery = this
      state.readyForQuery = false
      this.startClock()
      return
    }
    this.finish(null)
  }

  private startClock(): void {
    if (this.timeoutMs === undefined) return
    if (this.timer) this.timer.refresh()
    else this.timer = setTimeout(() => this.giveUp(new Error('Query read timeout')), this.timeoutMs)
  }

  /** Every trip not yet answered fails with `err`, which tells the caller to close the connection. */
  private giveUp(err: Error): void {
    if (this.ended) return
    for (const trip of this.trips.slice(this.at)) trip.handleError(err)
    this.finish(err)
  }

  private finish(err: Error | null): void {
    this.ended = true
    clearTimeout(this.timer)
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
  opts: { maxTrips: number, tripTimeoutMs?: number },
): TripBatcher {
  const { maxTrips, tripTimeoutMs } = opts
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
      const submitted = new TripBatch(lent.client, trips, tripTimeoutMs)
      submitted.callback = (err) => {
        if (err && unusable(err)) lost ??= err
        resolve()
      }
      lent.client.query(submitted as unknown as pg.QueryConfig)
    })
    if (stale.length && !lost) {
      forgetPrepared(lent.client)
      for (const w of stale) {
        // A retry that lost the connection leaves nothing to retry the others on.
        if (lost) {
          w.reject(lost)
          continue
        }
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

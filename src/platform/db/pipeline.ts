// Several statements sent to PostgreSQL in one write and answered in one exchange, with their values bound as
// parameters: the extended protocol's messages for each (Parse when needed, Bind, Describe, Execute) and one Sync
// at the end. Everything before a Sync runs as one implicit transaction (PostgreSQL's protocol, "Pipelining"), so
// a tenant's setting and its read travel and commit together; after an error the server skips to the Sync, so a
// failure undoes every statement of the trip. Inside a transaction already open (in-transaction.ts) the Sync
// commits nothing, and an error fails that whole transaction, statements before the trip included.
//
// node-postgres sends a Sync after every query and waits for it, so it takes its "submittable" interface (what
// pg-cursor uses): an object that writes its own messages and receives the answers. A named statement is parsed
// once per connection and then only bound, which spares PostgreSQL planning it again on every request (half of
// a simple read's cost on the server).
import pg from 'pg'

/** A statement and its values; `name` makes it a prepared statement kept by each connection (fixedStatement). */
export type BoundStatement = { readonly text: string, readonly values: readonly unknown[], readonly name?: string | undefined }

type Field = { name: string, dataTypeID: number }
type Connection = {
  parse(q: { text: string, name: string, types: number[] }): void
  bind(c: { portal: string, statement: string, values: readonly unknown[], binary: boolean }): void
  describe(m: { type: 'P' | 'S', name: string }): void
  execute(c: { portal: string, rows: number }): void
  close(m: { type: 'P' | 'S', name: string }): void
  sync(): void
  sendCopyFail(message: string): void
  stream: { cork?(): void, uncork?(): void }
}
type TypeParsers = { getTypeParser(oid: number, format?: 'text'): (value: string) => unknown }

// node-postgres's own conversion of a parameter to the text it sends (untyped in @types/pg).
const { prepareValue } = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils

/**
 * The statements each connection has prepared, by name. Only a statement that completed is known to be prepared:
 * after an error the rest of the trip was skipped, and the failing one may or may not have been parsed, so a name
 * not known here is closed before it is parsed again (closing an unknown statement is no error).
 */
const preparedOn = new WeakMap<object, Set<string>>()

export class Pipeline {
  /** Set by the caller before submitting; node-postgres may wrap it (its query timeout). */
  callback: ((err: Error | null, rows?: Record<string, unknown>[][]) => void) | undefined
  private readonly answers: Record<string, unknown>[][] = []
  private fields: Field[] = []
  private parsers: ((value: string) => unknown)[] = []
  private rows: Record<string, unknown>[] = []
  private prepared: Set<string> | undefined
  /** A row that could not be read: the trip fails with it once the server is ready again (as pg's Query does). */
  private failed: Error | undefined

  private readonly statements: readonly BoundStatement[]
  private readonly types: TypeParsers
  constructor(statements: readonly BoundStatement[], types: TypeParsers) {
    this.statements = statements
    this.types = types
  }

  /**
   * The statements' texts (never their values), for whatever reads a query's `text`: OpenTelemetry's pg
   * instrumentation only wraps the callback, and so ends its span, of a query object that has one.
   */
  get text(): string {
    return this.statements.map((s) => s.text).join(';\n')
  }

  submit(connection: Connection): Error | null {
    let values: unknown[][]
    try {
      // Every value converted before a message is written: one that cannot be sent fails the whole trip unsent.
      values = this.statements.map((s) => s.values.map(prepareValue))
    } catch (err) {
      return err as Error
    }
    let prepared = preparedOn.get(connection)
    if (!prepared) preparedOn.set(connection, prepared = new Set())
    this.prepared = prepared
    connection.stream.cork?.()
    try {
      this.statements.forEach((s, i) => {
        const name = s.name ?? ''
        if (!name || !prepared.has(name)) {
          if (name) connection.close({ type: 'S', name })
          connection.parse({ text: s.text, name, types: [] })
        }
        connection.bind({ portal: '', statement: name, values: values[i]!, binary: false })
        connection.describe({ type: 'P', name: '' })
        connection.execute({ portal: '', rows: 0 })
      })
      connection.sync()
    } catch (err) {
      // Some messages may be written: the Sync ends them, and the trip fails when the server is ready (pg's own way).
      this.failed = err as Error
      connection.sync()
    } finally {
      connection.stream.uncork?.()
    }
    return null
  }

  handleRowDescription(msg: { fields: Field[] }): void {
    this.fields = msg.fields
    this.parsers = msg.fields.map((f) => this.types.getTypeParser(f.dataTypeID, 'text'))
  }

  handleDataRow(msg: { fields: (string | null)[] }): void {
    if (this.failed) return
    const row: Record<string, unknown> = {}
    try {
      for (let i = 0; i < this.fields.length; i++) {
        const value = msg.fields[i]
        row[this.fields[i]!.name] = value === null || value === undefined ? null : this.parsers[i]!(value)
      }
    } catch (err) {
      // Thrown here it would escape into node-postgres's socket handler.
      this.failed = err as Error
      return
    }
    this.rows.push(row)
  }

  handleCommandComplete(): void {
    const done = this.statements[this.answers.length]
    if (done?.name) this.prepared?.add(done.name)
    this.answers.push(this.rows)
    this.rows = []
    this.fields = []
  }

  handleEmptyQuery(): void {
    this.handleCommandComplete()
  }

  handlePortalSuspended(): void {
    this.handleError(new Error('a statement of one trip was suspended'))
  }

  handleError(err: Error): void {
    const cb = this.callback
    this.callback = undefined
    cb?.(err)
  }

  handleReadyForQuery(): void {
    const cb = this.callback
    this.callback = undefined
    if (this.failed) cb?.(this.failed)
    // A statement holding its own `;` cannot be prepared, so every statement answers once; checked all the same.
    else if (this.answers.length !== this.statements.length) cb?.(new Error(`one trip of ${this.statements.length} statements answered ${this.answers.length}`))
    else cb?.(null, this.answers)
  }

  handleCopyInResponse(connection: Connection): void {
    // The server waits for data that will not come: refused, so it answers with an error. It ignored the trip's
    // Sync while it waited for data, so another ends the trip.
    this.failed ??= new Error('a statement of one trip asked for COPY')
    connection.sendCopyFail('one trip sends no COPY data')
    connection.sync()
  }

  handleCopyData(): void {}
}

/**
 * Forgets what `client`'s connection has prepared: after a DEALLOCATE or DISCARD (a pooler's), or a migration that
 * changed a prepared statement's result, each is closed and parsed again on its next use.
 */
export function forgetPrepared(client: pg.ClientBase): void {
  preparedOn.delete((client as unknown as { connection: object }).connection)
}

/**
 * Whether a trip of `statements` failed because a prepared statement is gone (26000) or outdated by a change of its
 * tables (0A000, "cached plan must not change result type"; the code covers other unsupported features too, so
 * only a trip that had named statements is taken to have met this one).
 */
export function stalePrepared(err: unknown, statements: readonly BoundStatement[]): boolean {
  const code = (err as { code?: unknown })?.code
  return (code === '26000' || code === '0A000') && statements.some((s) => s.name)
}

/** Runs the statements in one exchange on `client`: each statement's rows, in order. */
export function runPipeline(client: pg.ClientBase, statements: readonly BoundStatement[], types: TypeParsers): Promise<Record<string, unknown>[][]> {
  return new Promise((resolve, reject) => {
    const pipeline = new Pipeline(statements, types)
    pipeline.callback = (err, rows) => (err ? reject(err) : resolve(rows!))
    client.query(pipeline as unknown as pg.QueryConfig)
  })
}

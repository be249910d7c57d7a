// Whether an error means the database did not answer (a retry later may work), as opposed to a fault of ours:
// the first is a 503 the client may retry, the second a 500.
import { TimeoutError } from '../lib/timeout.ts'

/** Node's socket errors, as pg reports a refused or dropped connection. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND'])
/** PostgreSQL's SQLSTATEs for a server going away or not taking connections (class 08 is matched by prefix). */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300'])

const PG_MESSAGES = /^(Connection terminated|Client has encountered a connection error and is not queryable|Query read timeout|timeout exceeded when trying to connect)/

type ErrorLike = { code?: unknown, message?: unknown, routine?: unknown, cause?: ErrorLike }

/**
 * A statement the connection had prepared is gone or outdated (after a DEALLOCATE or DISCARD, or a migration that
 * changed its result) inside a transaction, which failed with it and cannot be sent again: the connection has
 * forgotten what it prepared, so the client's retry parses afresh.
 */
export class PreparedStatementLost extends Error {
  constructor(cause: unknown) {
    super('a statement this connection had prepared is gone; the request may be retried', { cause })
  }
}

export function databaseUnavailable(err: unknown): boolean {
  for (let e = err as ErrorLike | undefined, depth = 0; e && depth < 3; e = e.cause, depth++) {
    if (e instanceof TimeoutError || e instanceof PreparedStatementLost) return true
    const code = typeof e.code === 'string' ? e.code : ''
    if (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08')) return true
    // A statement the server cancelled while it ran (its statement_timeout, or an administrator's cancel): a retry
    // may be answered. 57014 is also a COPY the client abandoned, which is the statement's own fault; the routine
    // that raised it (never translated, unlike the message) tells the two apart.
    if (code === '57014' && e.routine === 'ProcessInterrupts') return true
    // pg's own errors, which have no code: the server closed the connection mid-query; a statement sent on a
    // connection already lost (drizzle's ROLLBACK after it, whose error replaces the first); no answer in time;
    // no pooled connection lent in time (pg-pool).
    if (typeof e.message === 'string' && PG_MESSAGES.test(e.message)) return true
  }
  return false
}

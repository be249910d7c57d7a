// The Idempotency-Key mechanism without HTTP: run a piece of work once per key, in one transaction with the record
// of its answer, so the answer is stored exactly when the work committed. The same key again gets that answer;
// the same key with another request is refused; a key whose first request is still running is refused too, since
// waiting for it would hold a connection and the client will retry anyway.
import type { Clock } from '../lib/clock.ts'
import type { Database, Orm } from '../db/database.ts'
import { withTenant } from '../tenancy/tenancy.ts'
import { withTimeout } from '../lib/timeout.ts'
import { findKey, saveKey, tryLockKey, type KeyScope, type StoredAnswer, type StoredKey } from './store.ts'

export type KeyedCall = { scope: KeyScope, key: string, fingerprint: string }

/**
 * A call that came without a key: its work runs in the transaction a keyed call's would (the customer's, with the
 * same budget), and nothing is stored. So a route has one path, with or without a key.
 */
export type UnkeyedCall = { clienteId: string | null }

/** The work's answer to store, and what the caller gets back from this run (often the same answer). */
export type Done<T> = { answer: StoredAnswer, result: T }

export type RunOutcome<T> =
  | { kind: 'fresh', result: T }
  | { kind: 'replayed', answer: StoredAnswer }
  /** Another request with this key has not finished. */
  | { kind: 'in_use' }
  /** The key was used for another request. */
  | { kind: 'reused' }

export type IdempotencyDeps = {
  db: Pick<Database, 'orm'>
  clock: Clock
  /** How long an answer is kept (IDEMPOTENCY_KEY_TTL_HOURS). */
  ttlMs: number
}

export type Idempotency = {
  /**
   * Runs `work` in a transaction with the key, unless the key already has an answer; without a key, in the same
   * transaction, storing nothing. The transaction is the customer's (row-level security) when the call names one.
   * A rejection of `work` rolls everything back and stores nothing; so does a timeout, unless the transaction still
   * commits, and then a retry gets its answer. `timeoutMs` is the whole transaction's budget: past it the caller
   * answers 503 (a TimeoutError).
   */
  run<T>(call: KeyedCall | UnkeyedCall, work: (tx: Orm) => Promise<Done<T>>, timeoutMs: number): Promise<RunOutcome<T>>
}

export function makeIdempotency(deps: IdempotencyDeps): Idempotency {
  return {
    run(call, work, timeoutMs) {
      if (!('key' in call)) {
        const once = async (tx: Orm) => ({ kind: 'fresh' as const, result: (await work(tx)).result })
        return withTimeout(inTransaction(deps.db, call.clienteId, once), timeoutMs)
      }
      const now = deps.clock.now()
      const body = async (tx: Orm): Promise<RunOutcome<Awaited<ReturnType<typeof work>>['result']>> => {
        const answered = (found: StoredKey): RunOutcome<never> =>
          found.impressao === call.fingerprint ? { kind: 'replayed', answer: found.answer } : { kind: 'reused' }
        // A key already answered needs no lock: two retries of a finished request both get its answer, not a 409.
        const stored = await findKey(tx, call.scope, call.key, now)
        if (stored) return answered(stored)
        if (!await tryLockKey(tx, call.scope, call.key)) return { kind: 'in_use' }
        // Read again under the lock (each statement sees what committed before it): the holder may have just finished.
        const found = await findKey(tx, call.scope, call.key, now)
        if (found) return answered(found)
        const done = await work(tx)
        await saveKey(tx, call.scope, call.key, call.fingerprint, done.answer, now, deps.ttlMs)
        return { kind: 'fresh', result: done.result }
      }
      return withTimeout(inTransaction(deps.db, call.scope.clienteId, body), timeoutMs)
    },
  }
}

/** The customer's transaction (row-level security), or an anonymous caller's plain one. */
function inTransaction<T>(db: Pick<Database, 'orm'>, clienteId: string | null, fn: (tx: Orm) => Promise<T>): Promise<T> {
  return clienteId ? withTenant(db, clienteId, fn) : db.orm.transaction(fn)
}

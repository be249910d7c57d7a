// The replay cache of DPoP proofs: a proof's jti is remembered until its iat could no longer pass, on a store
// every instance shares (the database, or Redis when REDIS_URL is set), so a proof is accepted once in all.
import { hash } from 'node:crypto'
import { lt, sql } from 'drizzle-orm'
import type { Database, Orm } from '../../../platform/db/database.ts'
import { fixedStatement } from '../../../platform/db/one-trip.ts'
import { dpopJti } from '../../../platform/db/schema.ts'

export interface JtiStore {
  /** Records `key` until `expiresAt`; false when it was already recorded (a replay). Throws when the store cannot answer. */
  remember(key: string, expiresAt: Date): Promise<boolean>
}

/** The store's key of a proof: a jti is unique per key (the client chooses it), and hashing bounds its length. */
export function jtiKey(jkt: string, jti: string): string {
  // A thumbprint is base64url, so '.' cannot occur in it: no two (jkt, jti) pairs give the same text.
  return hash('sha256', `${jkt}.${jti}`, 'hex')
}

/**
 * On the dpop_jti table (migration 0007), PostgreSQL or PGlite: the primary key decides which of two racing proofs
 * wins. Every DPoP request writes here, so the write is made cheap two ways. Its commit does not wait for the disk
 * (synchronous_commit off for this transaction alone): the row is in the WAL and replicated like any other; what a
 * crash of the database server can lose is the last fraction of a second of recorded jtis, and a proof replayed
 * after that still needs its nonce and its minute of age to be current. And the writes are grouped: one insert is
 * in flight at a time, and the keys that arrive meanwhile go together in the next (one statement, one round trip,
 * one commit), so a busy instance pays one trip for many proofs and an idle one waits for nothing.
 */
export function databaseJtiStore(db: Pick<Database, 'oneTrip'>): JtiStore {
  const queued: Waiting[] = []
  let inFlight = false

  const flush = async (): Promise<void> => {
    inFlight = true
    while (queued.length) {
      const batch = queued.splice(0, MAX_BATCH)
      // A key twice in one batch (a proof sent twice at once): the first is tried, the others are replays.
      const first = new Map<string, Waiting>()
      for (const w of batch) if (!first.has(w.key)) first.set(w.key, w)
      try {
        const tried = [...first.values()]
        const [, inserted] = await db.oneTrip([WITHOUT_WAITING_FOR_DISK, recordJtis({
          chaves: tried.map((w) => w.key), expiras: tried.map((w) => w.expiresAt.toISOString()),
        })])
        const recorded = new Set(inserted!.map((r) => r.chave as string))
        for (const w of batch) w.resolve(first.get(w.key) === w && recorded.has(w.key))
      } catch (err) {
        for (const w of batch) w.reject(err)
      }
    }
    inFlight = false
  }

  return {
    remember(key, expiresAt) {
      return new Promise<boolean>((resolve, reject) => {
        // The database is not keeping up (a stuck connection, at worst for the query timeout): refused at once,
        // as a store that cannot answer, rather than held in memory without end.
        if (queued.length >= MAX_QUEUED) return reject(new JtiStoreBusyError(MAX_QUEUED))
        queued.push({ key, expiresAt, resolve, reject })
        if (!inFlight) void flush()
      })
    },
  }
}

type Waiting = { key: string, expiresAt: Date, resolve(recorded: boolean): void, reject(err: unknown): void }
// Bounds one statement's size; past it the rest go in the next trip.
const MAX_BATCH = 500
/** Proofs waiting for their insert, at most: many seconds of an instance's DPoP requests. */
export const MAX_QUEUED = 10_000

export class JtiStoreBusyError extends Error {
  constructor(max: number) { super(`the replay cache has ${max} proofs waiting for the database`) }
}

// For this transaction alone (set_config's third argument, as SET LOCAL, which over the extended protocol would
// warn on every trip that it runs outside a transaction block).
const WITHOUT_WAITING_FOR_DISK = sql`SELECT set_config('synchronous_commit', 'off', true)`
const recordJtis = fixedStatement<'chaves' | 'expiras'>(sql`INSERT INTO ${dpopJti} (chave, expira_em)
  SELECT * FROM unnest(${sql.placeholder('chaves')}::text[], ${sql.placeholder('expiras')}::timestamptz[])
  ON CONFLICT DO NOTHING RETURNING chave`)

/** Deletes the rows whose proofs can no longer pass the iat check; returns how many. Run it periodically. */
export async function purgeExpiredJtis(orm: Orm, now: Date): Promise<number> {
  const deleted = await orm.delete(dpopJti).where(lt(dpopJti.expiraEm, now)).returning({ chave: dpopJti.chave })
  return deleted.length
}

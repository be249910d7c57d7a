// The replay cache of DPoP proofs: a proof's jti is remembered until its iat could no longer pass, on a store
// every instance shares (the database, or Redis when REDIS_URL is set), so a proof is accepted once in all.
import { createHash } from 'node:crypto'
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
  return createHash('sha256').update(`${jkt}.${jti}`).digest('hex')
}

/**
 * On the dpop_jti table (migration 0007), PostgreSQL or PGlite: the primary key decides which of two racing proofs
 * wins. Every DPoP request writes here, so the write is made cheap: one round trip (Database.oneTrip) whose commit
 * does not wait for the disk (synchronous_commit off for this transaction alone). The row is in the WAL and
 * replicated like any other; what a crash of the database server can lose is the last fraction of a second of
 * recorded jtis, and a proof replayed after that still needs its nonce and its minute of age to be current.
 */
export function databaseJtiStore(db: Pick<Database, 'oneTrip'>): JtiStore {
  return {
    async remember(key, expiresAt) {
      const [, inserted] = await db.oneTrip([WITHOUT_WAITING_FOR_DISK, recordJti({ chave: key, expira: expiresAt })])
      return inserted!.length === 1
    },
  }
}

const WITHOUT_WAITING_FOR_DISK = sql`SET LOCAL synchronous_commit = off`
const recordJti = fixedStatement<'chave' | 'expira'>(sql`INSERT INTO ${dpopJti} (chave, expira_em)
  VALUES (${sql.placeholder('chave')}, ${sql.placeholder('expira')}) ON CONFLICT DO NOTHING RETURNING chave`)

/** Deletes the rows whose proofs can no longer pass the iat check; returns how many. Run it periodically. */
export async function purgeExpiredJtis(orm: Orm, now: Date): Promise<number> {
  const deleted = await orm.delete(dpopJti).where(lt(dpopJti.expiraEm, now)).returning({ chave: dpopJti.chave })
  return deleted.length
}

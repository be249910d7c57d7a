// The stored answers of Idempotency-Keys (migration 0009): each read and write runs in the transaction of the work
// it answers for, under the caller's tenancy (row-level security keeps customers' keys apart in the database).
import { and, eq, gt, lte, sql } from 'drizzle-orm'
import { queryRows, type Orm } from '../db/database.ts'
import { chavesIdempotencia } from '../db/schema.ts'
import type { Job } from '../jobs/job.ts'

/** Whose key it is: a customer's credential (`clienteId` set), or an anonymous client (`clienteId` null). */
export type KeyScope = { escopo: string, clienteId: string | null }

/** An answer as sent, so that a replay is the same bytes. */
export type StoredAnswer = { status: number, headers: Readonly<Record<string, string>>, body: string }

export type StoredKey = { impressao: string, answer: StoredAnswer }

/**
 * Takes the key for this transaction, or says another transaction has it (the first request still running).
 * A transaction-level advisory lock: released by commit or rollback, and by PostgreSQL when a process dies.
 */
export async function tryLockKey(tx: Orm, scope: KeyScope, key: string): Promise<boolean> {
  const lock = `idempotencia\n${scope.escopo}\n${key}`
  const [row] = await queryRows<{ ok: boolean }>(tx, sql`SELECT pg_try_advisory_xact_lock(hashtextextended(${lock}, 0)) AS ok`)
  return row?.ok === true
}

/** The answer stored for the key, unless it expired. */
export async function findKey(tx: Orm, scope: KeyScope, key: string, now: Date): Promise<StoredKey | undefined> {
  const [row] = await tx.select({
    impressao: chavesIdempotencia.impressao, status: chavesIdempotencia.status, cabecalhos: chavesIdempotencia.cabecalhos, corpo: chavesIdempotencia.corpo,
  }).from(chavesIdempotencia)
    .where(and(eq(chavesIdempotencia.escopo, scope.escopo), eq(chavesIdempotencia.chave, key), gt(chavesIdempotencia.expiraEm, now)))
  return row && { impressao: row.impressao, answer: { status: row.status, headers: row.cabecalhos, body: row.corpo } }
}

/** Stores the answer; an expired row of the same key not yet purged is replaced, a live one never. */
export async function saveKey(tx: Orm, scope: KeyScope, key: string, impressao: string, answer: StoredAnswer, now: Date, ttlMs: number): Promise<void> {
  const row = {
    escopo: scope.escopo, chave: key, clienteId: scope.clienteId, impressao, status: answer.status, cabecalhos: { ...answer.headers }, corpo: answer.body,
    criadaEm: now, expiraEm: new Date(now.getTime() + ttlMs),
  }
  await tx.insert(chavesIdempotencia).values(row)
    .onConflictDoUpdate({ target: [chavesIdempotencia.escopo, chavesIdempotencia.chave], set: row, setWhere: lte(chavesIdempotencia.expiraEm, now) })
}

/** Deletes the expired keys of every customer (a SECURITY DEFINER function: the runtime role sees only its tenant's). */
export async function purgeExpiredKeys(orm: Orm, now: Date): Promise<number> {
  const [row] = await queryRows<{ n: number }>(orm, sql`SELECT purga_chaves_idempotencia(${now.toISOString()}::timestamptz) AS n`)
  return Number(row?.n ?? 0)
}

/** The purge every 6 hours: an expired key not yet purged already counts as new, so only the table's size waits on it. */
export function expiredKeysJob(orm: Orm): Job {
  return { name: 'chaves-idempotencia-expurgo', schedule: { everyMs: 6 * 3_600_000 }, run: (now) => purgeExpiredKeys(orm, now) }
}

// The customer a transaction acts for. Row-level security (0005_credenciais.sql) limits every query on the
// customers' tables to the rows of `app.cliente_id`, which only this sets, per transaction (set_config's third
// argument): it ends with the transaction and never leaks into the next user of a pooled connection.
import { sql } from 'drizzle-orm'
import { sendInTransaction } from '../db/in-transaction.ts'
import { fixedStatement, type OneTripStatement } from '../db/one-trip.ts'
import type { Database, Orm } from '../db/database.ts'
import { DomainError } from '../http/domain-error.ts'
import { isUuid } from '../lib/uuid.ts'

/** Not a customer id: refused before any query (a malformed id would otherwise fail the policy's uuid cast). */
export class InvalidTenantError extends DomainError<'nao_encontrado'> {
  constructor() { super('nao_encontrado', 'the customer id must be a UUID') }
}

/** Runs `fn` in one transaction that sees and writes only the rows of customer `clienteId`. */
export async function withTenant<T>(db: Pick<Database, 'orm'>, clienteId: string, fn: (tx: Orm) => Promise<T>): Promise<T> {
  if (!isUuid(clienteId)) throw new InvalidTenantError()
  return db.orm.transaction(async (tx) => {
    await sendInTransaction(tx, [setTenant({ cliente: clienteId.toLowerCase() })])
    return fn(tx)
  })
}

/**
 * One read as customer `clienteId`, in a single round trip (Database.oneTrip): the setting and the query travel
 * together and run as one transaction, so a read costs one exchange with the server instead of four.
 */
export async function readAsTenant<R>(db: Pick<Database, 'oneTrip'>, clienteId: string, query: OneTripStatement): Promise<R[]> {
  const [rows] = await readAllAsTenant(db, clienteId, [query])
  return rows as R[]
}

/**
 * Several reads as customer `clienteId` in one round trip and one transaction: each one's rows. Read committed, as
 * withTenant's: each statement sees what was committed when it began.
 */
export async function readAllAsTenant(
  db: Pick<Database, 'oneTrip'>, clienteId: string, queries: readonly OneTripStatement[],
): Promise<Record<string, unknown>[][]> {
  if (!isUuid(clienteId)) throw new InvalidTenantError()
  const [, ...answers] = await db.oneTrip([setTenant({ cliente: clienteId.toLowerCase() }), ...queries])
  return answers
}

const setTenant = fixedStatement<'cliente'>(sql`SELECT set_config('app.cliente_id', ${sql.placeholder('cliente')}, true)`)

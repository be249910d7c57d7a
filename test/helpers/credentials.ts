// Customers, people and tokens for the credential tests, made through the stores as the operator would.
import { sql } from 'drizzle-orm'
import { OPERATOR, type ActionContext } from '../../src/platform/tenancy/audit/store.ts'
import { createCustomer, type Customer } from '../../src/modules/credentials/customers/store.ts'
import { withTenant } from '../../src/platform/tenancy/tenancy.ts'
import { createToken } from '../../src/modules/credentials/tokens/store.ts'
import { acceptInvitation, findInvitation, inviteUser, type User } from '../../src/modules/credentials/users/store.ts'
import { queryRows, type Database, type Orm } from '../../src/platform/db/database.ts'

/**
 * A well-formed argon2id hash (RFC 9106 parameters of OWASP's minimum). The stores only keep what the login code
 * hashed; they never verify a password, so any argon2id string stands for one here.
 */
export const ARGON2ID_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$8J6m4Zp3Yb0bQX1vA2yk7oGgq0n9b3b9n7dJm2bU0pE'

export const operatorNow = (now = new Date()): ActionContext => ({ actor: OPERATOR, now })

// A test that runs the app on a clock of its own gives that clock's now (`now`) to what it makes here too.
export function customer(db: Database, nome = `Cliente ${Math.random().toString(36).slice(2, 8)}`, now = new Date()): Promise<Customer> {
  return createCustomer(db, { nome }, operatorNow(now))
}

/** A person who accepted their invitation (state `ativo`). */
export async function activeUser(
  db: Database, clienteId: string, email = `${Math.random().toString(36).slice(2, 10)}@cliente.com.br`, now = new Date(),
): Promise<User> {
  const { invitation } = await withTenant(db, clienteId, (tx) => inviteUser(tx, { clienteId, email, nome: 'Pessoa de Teste' }, operatorNow(now)))
  const found = (await findInvitation(db.orm, invitation.token))!
  return withTenant(db, clienteId, (tx) => acceptInvitation(tx, found, ARGON2ID_HASH, { actor: { tipo: 'usuario', id: found.usuarioId }, now }))
}

export async function operatorToken(db: Database, clienteId: string, nome = 'integração'): Promise<{ id: string, token: string }> {
  const { token, info } = await withTenant(db, clienteId, (tx) => createToken(tx, {
    clienteId, usuarioId: null, nome, escopos: ['conta'], expiraEm: new Date(Date.now() + 86_400_000),
  }, operatorNow()))
  return { id: info.id, token }
}

/** Rows of a query as written, in the customer's context (or none: `clienteId` undefined). */
export async function rowsAs<R = Record<string, unknown>>(db: Database, clienteId: string | undefined, text: string): Promise<R[]> {
  if (clienteId === undefined) return queryRows<R>(db.orm, sql.raw(text))
  return withTenant(db, clienteId, (tx: Orm) => queryRows<R>(tx, sql.raw(text)))
}

/** The customer's audit trail as the owner reads it (every column, the address hash included). */
export async function auditRows(db: Database, clienteId: string): Promise<Record<string, unknown>[]> {
  return db.ownerTransaction((tx) => tx.query('SELECT * FROM auditoria_cliente WHERE cliente_id = $1 ORDER BY id', [clienteId]))
}

/** An assertion on a database error: its SQLSTATE and message, whether Drizzle wrapped it (as `cause`) or not. */
export function dbError(code: string, message: RegExp) {
  return (err: Error & { cause?: Error & { code?: string } }): boolean => {
    const e = (err.cause ?? err) as Error & { code?: string }
    return e.code === code && message.test(e.message)
  }
}

// Customers (`clientes`): created, listed, suspended and reactivated by the operator. A customer's own row is
// under row-level security like the rest of its data; the operator's list across customers comes from one
// SECURITY DEFINER function that returns the customers alone (no person, token, session or audit row).
import { randomUUID } from 'node:crypto'
import { and, eq, ne, sql } from 'drizzle-orm'
import type { Database, Orm } from '../../../platform/db/database.ts'
import { queryRows } from '../../../platform/db/database.ts'
import { clientes } from '../../../platform/db/schema.ts'
import { appendAudit, type ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { isUniqueViolation } from '../../../platform/db/driver-errors.ts'
import { CredentialInputError, InactiveCustomerError, UnknownCustomerError } from '../errors.ts'
import { nameProblem, nameRefusal } from '../../../platform/lib/chosen-name.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { normalizeCnpj } from './cnpj.ts'

export type CustomerState = 'ativo' | 'suspenso'
export type Customer = { id: string, nome: string, documento: string | null, estado: CustomerState, criadoEm: Date, estadoEm: Date }

const COLUMNS = {
  id: clientes.id, nome: clientes.nome, documento: clientes.documento, estado: clientes.estado, criadoEm: clientes.criadoEm, estadoEm: clientes.estadoEm,
}

export const NAME_MAX = 200

/** A new active customer, in its own tenant transaction (its id is made here, so the policy admits the row). */
export async function createCustomer(db: Pick<Database, 'orm'>, input: { nome: string, documento?: string }, ctx: ActionContext): Promise<Customer> {
  const nome = input.nome.trim()
  const bad = nameProblem(nome, NAME_MAX)
  if (bad) throw new CredentialInputError(nameRefusal('name', bad, NAME_MAX))
  let documento: string | null = null
  if (input.documento !== undefined) {
    documento = normalizeCnpj(input.documento) ?? null
    if (!documento) throw new CredentialInputError('the document is not a valid CNPJ (14 characters whose check digits hold)')
  }
  const id = randomUUID()
  try {
    return await withTenant(db, id, async (tx) => {
      const [row] = await tx.insert(clientes).values({ id, nome, documento, criadoEm: ctx.now, estadoEm: ctx.now }).returning(COLUMNS)
      await appendAudit(tx, id, ctx, 'cliente.criado', { alvoId: id })
      return row!
    })
  } catch (err) {
    if (isUniqueViolation(err, 'clientes_documento_key')) throw new CredentialInputError('a customer with this CNPJ exists already')
    throw err
  }
}

/** Every customer, oldest first: the operator's index (SECURITY DEFINER `operador_clientes`). */
export async function listCustomers(orm: Orm): Promise<Customer[]> {
  type Row = { id: string, nome: string, documento: string | null, estado: CustomerState, criado_em: Date | string, estado_em: Date | string }
  const rows = await queryRows<Row>(orm, sql`SELECT id, nome, documento, estado, criado_em, estado_em FROM operador_clientes()`)
  return rows.map((r) => ({
    id: r.id, nome: r.nome, documento: r.documento, estado: r.estado, criadoEm: new Date(r.criado_em), estadoEm: new Date(r.estado_em),
  }))
}

/** The customer of the transaction's tenant; undefined for another customer's id (row-level security). */
export async function getCustomer(tx: Orm, clienteId: string): Promise<Customer | undefined> {
  const [row] = await tx.select(COLUMNS).from(clientes).where(eq(clientes.id, clienteId))
  return row
}

export type StateChange = { customer: Customer, changed: boolean } | undefined

export const suspendCustomer = (tx: Orm, clienteId: string, ctx: ActionContext): Promise<StateChange> => setState(tx, clienteId, 'suspenso', ctx)
export const reactivateCustomer = (tx: Orm, clienteId: string, ctx: ActionContext): Promise<StateChange> => setState(tx, clienteId, 'ativo', ctx)

/** Audited only when the state really changes; undefined when the customer does not exist (or is not this tenant). */
async function setState(tx: Orm, clienteId: string, estado: CustomerState, ctx: ActionContext): Promise<StateChange> {
  const [changed] = await tx.update(clientes).set({ estado, estadoEm: ctx.now })
    .where(and(eq(clientes.id, clienteId), ne(clientes.estado, estado))).returning(COLUMNS)
  if (changed) {
    await appendAudit(tx, clienteId, ctx, estado === 'suspenso' ? 'cliente.suspenso' : 'cliente.reativado', { alvoId: clienteId })
    return { customer: changed, changed: true }
  }
  const customer = await getCustomer(tx, clienteId)
  return customer && { customer, changed: false }
}

/** Refuses to issue credentials (tokens, invitations) to a suspended or unknown customer. */
export async function activeCustomer(tx: Orm, clienteId: string): Promise<Customer> {
  const customer = await getCustomer(tx, clienteId)
  if (!customer) throw new UnknownCustomerError()
  if (customer.estado !== 'ativo') throw new InactiveCustomerError()
  return customer
}

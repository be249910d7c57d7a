// The customer's collection accounts: added, read, listed a page at a time, changed, confirmed. Each in the caller's
// tenant transaction (row-level security: another customer's account is not found). A duplicate is the database's
// to find (its unique constraint, race-free), answered with the id of the account that holds it.
import { and, desc, eq, getTableColumns, lt, sql, type SQL } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { isUniqueViolation } from '../../../platform/db/driver-errors.ts'
import { pageFrom } from '../../../platform/http/api-schemas.ts'
import { ExternalIdInUseError } from '../../../platform/tenancy/external-id.ts'
import { CollectionAccountConfirmerError, CollectionAccountExistsError, CollectionAccountOfAnotherError } from './errors.ts'
import { contasCobranca } from './tables.ts'

type Row = typeof contasCobranca.$inferSelect

/** An account as stored, with the names of the people who added and confirmed it. */
export type CollectionAccount = Row & { incluidaPorNome: string | null, confirmadaPorNome: string | null }

export type NewCollectionAccount = Pick<Row, 'clienteId' | 'idExterno' | 'nome' | 'banco' | 'agencia' | 'agenciaDigito' | 'conta' | 'contaDigito'
  | 'carteira' | 'convenio' | 'layoutCnab' | 'transporte' | 'chavePix' | 'proximoNossoNumero' | 'proximaRemessa'>

/** What a change may set: never the bank, the agência, the conta or the carteira (a new account is made instead). */
export type CollectionAccountChange = Partial<Pick<Row, 'nome' | 'chavePix' | 'convenio' | 'layoutCnab' | 'transporte' | 'ativa'
  | 'proximoNossoNumero' | 'proximaRemessa'>>

/** Who acts (the person behind the credential, if any), and when. */
export type By = { usuarioId: string | null, now: Date }

const named = {
  incluidaPorNome: sql<string | null>`(SELECT u.nome FROM usuarios u WHERE u.id = ${contasCobranca.incluidaPorUsuarioId})`,
  confirmadaPorNome: sql<string | null>`(SELECT u.nome FROM usuarios u WHERE u.id = ${contasCobranca.confirmadaPorUsuarioId})`,
}
const withNames = { ...getTableColumns(contasCobranca), ...named }

export async function createAccount(tx: Orm, input: NewCollectionAccount, by: By): Promise<CollectionAccount> {
  // With no person behind the request, nobody could be told apart from its confirmer: an account is added by a person.
  if (by.usuarioId === null) {
    throw new CollectionAccountConfirmerError('a token with no person cannot add a collection account: a person adds it, and another confirms it')
  }
  let id: string
  try {
    // A savepoint: a duplicate's failure leaves the caller's transaction usable to find the row that holds it.
    id = await tx.transaction(async (sp) => (await sp.insert(contasCobranca).values({
      ...input, ativa: true, incluidaEm: by.now, incluidaPorUsuarioId: by.usuarioId!, pendentePorUsuarioIds: [by.usuarioId!], atualizadaEm: by.now,
    }).returning({ id: contasCobranca.id }))[0]!.id)
  } catch (err) {
    // Another customer's account (migration 0046): said without saying whose.
    if (isUniqueViolation(err, 'contas_cobranca_titular')) throw new CollectionAccountOfAnotherError()
    if (isUniqueViolation(err, 'contas_cobranca_conta_unica')) {
      const [held] = await tx.select({ id: contasCobranca.id }).from(contasCobranca).where(and(eq(contasCobranca.banco, input.banco),
        eq(contasCobranca.agencia, input.agencia), eq(contasCobranca.conta, input.conta), eq(contasCobranca.carteira, input.carteira)))
      throw new CollectionAccountExistsError(held!.id)
    }
    if (input.idExterno !== null && isUniqueViolation(err, 'contas_cobranca_id_externo_unico')) {
      const [held] = await tx.select({ id: contasCobranca.id }).from(contasCobranca).where(eq(contasCobranca.idExterno, input.idExterno))
      throw new ExternalIdInUseError(held!.id)
    }
    throw err
  }
  return (await getAccount(tx, id))!
}

/** `lock`: read FOR UPDATE, for a change computed from what it reads (two changes at once then take turns). */
export async function getAccount(tx: Orm, id: string, lock = false): Promise<CollectionAccount | undefined> {
  if (lock) {
    const [held] = await tx.select({ id: contasCobranca.id }).from(contasCobranca).where(eq(contasCobranca.id, id)).for('update')
    if (!held) return undefined
  }
  const [row] = await tx.select(withNames).from(contasCobranca).where(eq(contasCobranca.id, id))
  return row
}

export type AccountFilter = { banco?: string, ativa?: boolean }

/** A page of the customer's accounts, newest first. */
export async function listAccounts(
  tx: Orm, filter: AccountFilter, page: { limit: number, before?: number },
): Promise<{ items: CollectionAccount[], next: number | null }> {
  const where: SQL[] = []
  if (page.before !== undefined) where.push(lt(contasCobranca.seq, page.before))
  if (filter.banco !== undefined) where.push(eq(contasCobranca.banco, filter.banco as Row['banco']))
  if (filter.ativa !== undefined) where.push(eq(contasCobranca.ativa, filter.ativa))
  const rows = await tx.select(withNames).from(contasCobranca).where(and(...where))
    .orderBy(desc(contasCobranca.seq)).limit(page.limit + 1)
  return pageFrom(rows, page.limit)
}

/**
 * Changes what `change` names, on an account read locked; `unconfirm` takes its confirmation away (where the money
 * goes changed). Undefined when the customer has no account with this id.
 */
export async function changeAccount(
  tx: Orm, current: CollectionAccount, change: CollectionAccountChange, route: { moved: boolean, unconfirm: boolean }, by: By,
): Promise<CollectionAccount | undefined> {
  const id = current.id
  // Where the sacados' money goes is changed by a person, who then may not confirm it: that takes a second one.
  if (route.moved && by.usuarioId === null) {
    throw new CollectionAccountConfirmerError('a token with no person cannot change where the sacados\' money goes: a person changes it, '
      + 'and another confirms it')
  }
  const [row] = await tx.update(contasCobranca).set({
    ...change, ...(route.unconfirm ? { confirmadaEm: null, confirmadaPorUsuarioId: null } : {}),
    // A change after a confirmation starts the list anew; one before it joins those it already waits for.
    ...(route.moved ? { pendentePorUsuarioIds: pendingAfter(current, by.usuarioId!) } : {}), atualizadaEm: by.now,
  }).where(eq(contasCobranca.id, id)).returning({ id: contasCobranca.id }).catch((err: unknown) => {
    // A transport turned to the API on another customer's account (migration 0046).
    throw isUniqueViolation(err, 'contas_cobranca_titular') ? new CollectionAccountOfAnotherError() : err
  })
  return row ? getAccount(tx, id) : undefined
}

/** Who awaits the confirmation once `usuarioId` changes where the money goes. */
function pendingAfter(current: CollectionAccount, usuarioId: string): string[] {
  if (current.confirmadaEm !== null) return [usuarioId]
  return current.pendentePorUsuarioIds.includes(usuarioId) ? current.pendentePorUsuarioIds : [...current.pendentePorUsuarioIds, usuarioId]
}

/**
 * A second person confirms the account: from then on charges may be registered under it. Undefined when the customer
 * has no account with this id; `changed` false when it was confirmed already (answered as it is).
 */
export async function confirmAccount(tx: Orm, id: string, by: By): Promise<{ account: CollectionAccount, changed: boolean } | undefined> {
  const current = await getAccount(tx, id, true)
  if (!current) return undefined
  if (current.confirmadaEm) return { account: current, changed: false }
  if (by.usuarioId === null || by.usuarioId === current.incluidaPorUsuarioId || current.pendentePorUsuarioIds.includes(by.usuarioId)) {
    throw new CollectionAccountConfirmerError(by.usuarioId === null
      ? 'a token with no person cannot confirm a collection account'
      : by.usuarioId === current.incluidaPorUsuarioId ? 'the person who added a collection account cannot confirm it'
        : 'the person who changed where a collection account\'s money goes cannot confirm that change')
  }
  await tx.update(contasCobranca).set({ confirmadaEm: by.now, confirmadaPorUsuarioId: by.usuarioId }).where(eq(contasCobranca.id, id))
  return { account: (await getAccount(tx, id))!, changed: true }
}

// The customer's cedentes and sacados: created, read, listed a page at a time, changed. One set of functions for
// both kinds (they share every column but a cedente's IOF profile and bank accounts), each in the caller's tenant
// transaction (row-level security: another customer's rows are not found). Duplicates are the database's to
// find (its unique constraints, race-free), answered with the id that holds the value.
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import { queryRows, type Orm } from '../../../platform/db/database.ts'
import { isUniqueViolation } from '../../../platform/db/driver-errors.ts'
import { ExternalIdInUseError } from '../../../platform/tenancy/external-id.ts'
import { AccountConfirmerError, DocumentInUseError } from './errors.ts'
import { cedenteContas, cedentes, sacados } from './tables.ts'
import type { ContaKept } from './checks.ts'
import type { MotivoIsencao, PerfilIof } from './iof-profile.ts'

export type Kind = 'cedente' | 'sacado'
type Table = typeof cedentes | typeof sacados
const TABLES: Record<Kind, Table> = { cedente: cedentes, sacado: sacados }

export type PartyFields = {
  razaoSocial: string
  nomeFantasia: string | null
  email: string | null
  telefone: string | null
  municipioIbge: string | null
  uf: string | null
  limiteCentavos: bigint | null
}
/** A sacado's address (migration 0041): what its remessa prints. */
export type Endereco = {
  logradouro: string | null, numero: string | null, complemento: string | null, bairro: string | null, cep: string | null, cidade: string | null,
}
export const ENDERECO_CAMPOS = ['logradouro', 'numero', 'complemento', 'bairro', 'cep', 'cidade'] as const

export type CedenteFields = {
  perfilIof: PerfilIof, motivoIsencao: MotivoIsencao | null, simplesDeclaradoEm: string | null, simplesDeclaracaoSha256: string | null,
}

export type NewParty = PartyFields & Partial<Endereco> & { clienteId: string, idExterno: string | null, documento: string, tipoPessoa: 'pf' | 'pj' }
  & Partial<CedenteFields> & { contas?: ContaKept[] }

/**
 * A cedente's bank account as stored: usable for a payment once `confirmadaEm` is set, at registration or by a
 * person other than the one who added it (issue 31 item 6).
 */
export type StoredConta = ContaKept & {
  id: string, incluidaEm: Date, incluidaPorUsuarioId: string | null, confirmadaEm: Date | null, confirmadaPorUsuarioId: string | null
}

/** Who changes a cedente's accounts (the person behind the credential, if any), and when. */
export type AccountsChange = { usuarioId: string | null, now: Date }

export type Party = typeof sacados.$inferSelect
  & Partial<Pick<typeof cedentes.$inferSelect, 'perfilIof' | 'motivoIsencao' | 'simplesDeclaradoEm' | 'simplesDeclaracaoSha256'>> & {
  contas?: StoredConta[]
  /** The open balance of its acquired títulos (the operations' view `exposicoes`), when read. */
  exposicao?: bigint
}

const UNIQUE = {
  cedente: { documento: 'cedentes_documento_unico', idExterno: 'cedentes_id_externo_unico' },
  sacado: { documento: 'sacados_documento_unico', idExterno: 'sacados_id_externo_unico' },
} as const

export async function createParty(tx: Orm, kind: Kind, input: NewParty, now: Date, usuarioId: string | null = null): Promise<Party> {
  const table = TABLES[kind]
  const { contas, ...row } = input
  const values = kind === 'cedente' ? row : withoutCedenteFields(row)
  let made: Party
  try {
    // A savepoint: a duplicate's failure leaves the caller's transaction usable to find the row that holds it.
    made = await tx.transaction(async (sp) => (await sp.insert(table).values({ ...values, criadoEm: now, atualizadoEm: now } as never).returning())[0] as Party)
  } catch (err) {
    if (isUniqueViolation(err, UNIQUE[kind].documento)) throw new DocumentInUseError(await idWhere(tx, table, eq(table.documento, input.documento)))
    if (input.idExterno !== null && isUniqueViolation(err, UNIQUE[kind].idExterno)) {
      throw new ExternalIdInUseError(await idWhere(tx, table, eq(table.idExterno, input.idExterno)))
    }
    throw err
  }
  // The accounts given at registration are usable at once: registering the cedente is when they are checked.
  if (kind === 'cedente') made.contas = await replaceContas(tx, made, contas ?? [], { usuarioId, now }, true)
  return made
}

/** `lock`: read FOR UPDATE, for a change computed from what it reads (two changes at once then take turns). */
export async function getParty(tx: Orm, kind: Kind, id: string, lock = false): Promise<Party | undefined> {
  const table = TABLES[kind]
  const query = tx.select().from(table).where(eq(table.id, id))
  const [row] = lock ? await query.for('update') : await query
  if (!row) return undefined
  const party = row as Party
  if (kind === 'cedente') party.contas = await contasOf(tx, party.clienteId, [party.id]).then((m) => m.get(party.id) ?? [])
  party.exposicao = (await exposures(tx, kind, [party.id])).get(party.id) ?? 0n
  return party
}

/**
 * The exposure of each register: read from the view `exposicoes` (migration 0019), which sums the acquired títulos
 * of the operations; by name, so that the registers need not know the operations' tables.
 */
async function exposures(tx: Orm, kind: Kind, ids: string[]): Promise<Map<string, bigint>> {
  if (!ids.length) return new Map()
  const rows = await queryRows<{ id: string, exposicao: string }>(tx, sql`SELECT cadastro_id AS id, exposicao_centavos::text AS exposicao
    FROM exposicoes WHERE tipo = ${kind} AND cadastro_id IN (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`)
  return new Map(rows.map((r) => [r.id, BigInt(r.exposicao)]))
}

export type PartyFilter = { documento?: string, estado?: 'ativo' | 'bloqueado', idExterno?: string }

/** Each register of a list with its exposure, and a cedente with its accounts (a list's page, read after its rows). */
export async function withExposure(tx: Orm, kind: Kind, items: Party[]): Promise<void> {
  const exposure = await exposures(tx, kind, items.map((p) => p.id))
  for (const p of items) p.exposicao = exposure.get(p.id) ?? 0n
  if (kind === 'cedente' && items.length) {
    const contas = await contasOf(tx, items[0]!.clienteId, items.map((p) => p.id))
    for (const p of items) p.contas = contas.get(p.id) ?? []
  }
}

export type PartyChange = Partial<PartyFields & Endereco & CedenteFields & { estado: 'ativo' | 'bloqueado' }> & { contas?: ContaKept[] }

/** Changes what `change` names; undefined when no register of this kind has the id. */
export async function changeParty(
  tx: Orm, kind: Kind, id: string, change: PartyChange, now: Date, usuarioId: string | null = null,
): Promise<Party | undefined> {
  const table = TABLES[kind]
  const { contas, ...fields } = change
  const set = kind === 'cedente' ? fields : withoutCedenteFields(fields)
  const [row] = await tx.update(table).set({ ...set, atualizadoEm: now } as never).where(eq(table.id, id)).returning()
  if (!row) return undefined
  const party = row as Party
  if (kind === 'cedente') {
    party.contas = contas
      ? await replaceContas(tx, party, contas, { usuarioId, now }, false)
      : (await contasOf(tx, party.clienteId, [party.id])).get(party.id) ?? []
  }
  party.exposicao = (await exposures(tx, kind, [id])).get(id) ?? 0n
  return party
}

async function idWhere(tx: Orm, table: Table, where: SQL): Promise<string> {
  const [row] = await tx.select({ id: table.id }).from(table).where(where)
  return row!.id
}

function withoutCedenteFields<T extends Partial<CedenteFields>>(row: T): Omit<T, keyof CedenteFields> {
  const { perfilIof: _p, motivoIsencao: _m, simplesDeclaradoEm: _d, simplesDeclaracaoSha256: _h, ...rest } = row
  return rest
}

const sameAccount = (a: ContaKept, b: ContaKept) => a.banco === b.banco && a.agencia === b.agencia && a.conta === b.conta && a.digito === b.digito
  && a.titularDocumento === b.titularDocumento

/**
 * The cedente's accounts become `contas`, in that order. One already there keeps its id and its confirmation; one
 * new is confirmed by the registration itself (`registering`), else waits for a second person's confirmation.
 */
async function replaceContas(
  tx: Orm, cedente: Pick<Party, 'id' | 'clienteId'>, contas: ContaKept[], by: AccountsChange, registering: boolean,
): Promise<StoredConta[]> {
  const before = (await contasOf(tx, cedente.clienteId, [cedente.id])).get(cedente.id) ?? []
  // With no person behind the change, nobody could be told apart from its confirmer (an integration's token and the
  // administrador who holds it may be one human): a new account is added by a person.
  if (!registering && by.usuarioId === null && contas.some((c) => !before.some((b) => sameAccount(b, c)))) {
    throw new AccountConfirmerError('a token with no person cannot add a bank account: a person adds it, and another confirms it')
  }
  await tx.delete(cedenteContas).where(eq(cedenteContas.cedenteId, cedente.id))
  if (!contas.length) return []
  const rows = contas.map((c, ordem) => {
    const kept = before.find((b) => sameAccount(b, c))
    return {
      ...c, ordem, clienteId: cedente.clienteId, cedenteId: cedente.id,
      ...(kept
        ? { id: kept.id, incluidaEm: kept.incluidaEm, incluidaPorUsuarioId: kept.incluidaPorUsuarioId, confirmadaEm: kept.confirmadaEm,
          confirmadaPorUsuarioId: kept.confirmadaPorUsuarioId }
        : { incluidaEm: by.now, incluidaPorUsuarioId: by.usuarioId, confirmadaEm: registering ? by.now : null, confirmadaPorUsuarioId: null }),
    }
  })
  return (await tx.insert(cedenteContas).values(rows).returning()).sort((a, b) => a.ordem - b.ordem).map(storedConta)
}

function storedConta(r: typeof cedenteContas.$inferSelect): StoredConta {
  return {
    id: r.id, banco: r.banco, agencia: r.agencia, conta: r.conta, digito: r.digito, titularDocumento: r.titularDocumento,
    incluidaEm: r.incluidaEm, incluidaPorUsuarioId: r.incluidaPorUsuarioId, confirmadaEm: r.confirmadaEm, confirmadaPorUsuarioId: r.confirmadaPorUsuarioId,
  }
}

/**
 * A second person confirms an account added after the cedente's registration: from then on it may be paid to.
 * Undefined when the cedente has no account with this id; the account as it is when it was confirmed already.
 */
export async function confirmConta(tx: Orm, cedenteId: string, contaId: string, by: AccountsChange): Promise<StoredConta | undefined> {
  const [row] = await tx.select().from(cedenteContas)
    .where(and(eq(cedenteContas.cedenteId, cedenteId), eq(cedenteContas.id, contaId))).for('update')
  if (!row) return undefined
  if (row.confirmadaEm) return storedConta(row)
  if (by.usuarioId === null || by.usuarioId === row.incluidaPorUsuarioId) {
    throw new AccountConfirmerError(by.usuarioId === null
      ? 'a token with no person cannot confirm a bank account'
      : 'the person who added a bank account cannot confirm it')
  }
  const [done] = await tx.update(cedenteContas).set({ confirmadaEm: by.now, confirmadaPorUsuarioId: by.usuarioId })
    .where(eq(cedenteContas.id, contaId)).returning()
  return storedConta(done!)
}

/** The accounts of these cedentes (by cedente id), in their order. */
export async function contasOf(tx: Orm, clienteId: string, ids: string[]): Promise<Map<string, StoredConta[]>> {
  const rows = await tx.select().from(cedenteContas)
    .where(and(eq(cedenteContas.clienteId, clienteId), inArray(cedenteContas.cedenteId, ids))).orderBy(asc(cedenteContas.ordem))
  const byCedente = new Map<string, StoredConta[]>()
  for (const r of rows) {
    const list = byCedente.get(r.cedenteId) ?? []
    list.push(storedConta(r))
    byCedente.set(r.cedenteId, list)
  }
  return byCedente
}

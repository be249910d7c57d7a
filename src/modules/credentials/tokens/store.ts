// Personal access tokens (`tokens`): made by a person of the customer or by the operator, shown once, stored as
// the SHA-256 of the secret, optionally bound to a DPoP key (its RFC 7638 thumbprint), revoked for good.
import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { dateOrNull, queryRows } from '../../../platform/db/database.ts'
import { tokens, usuarios } from '../../../platform/db/schema.ts'
import { newToken, tokenHash, tokenKind } from '../token-format.ts'
import { appendAudit, type ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { activeCustomer, type CustomerState } from '../customers/store.ts'
import { CredentialInputError, RoleError } from '../errors.ts'
import { nameProblem, nameRefusal } from '../../../platform/lib/chosen-name.ts'
import { isScope, type Scope } from '../scopes.ts'
import type { UserState } from '../users/store.ts'
import { scopesBeyond, type Papel } from '../roles.ts'
import { isJwkThumbprint } from './thumbprint.ts'

/** A token lives at most this long: a leaked one that nobody revokes still ends. */
export const TOKEN_MAX_DAYS = 366
export const TOKEN_NAME_MAX = 100
/** A use from the same address within this long after the last recorded one is not written again (see recordTokenUse). */
export const LAST_USE_PRECISION_MS = 60_000

export type TokenInfo = {
  id: string
  clienteId: string
  /** Who made it; null when the operator did. */
  usuarioId: string | null
  nome: string
  escopos: Scope[]
  criadoEm: Date
  expiraEm: Date
  primeiroUsoEm: Date | null
  ultimoUsoEm: Date | null
  ultimoUsoIp: string | null
  revogadoEm: Date | null
  dpopJkt: string | null
}

// Never the digest: a listing has no use for it.
const COLUMNS = {
  id: tokens.id, clienteId: tokens.clienteId, usuarioId: tokens.usuarioId, nome: tokens.nome, escopos: tokens.escopos, criadoEm: tokens.criadoEm,
  expiraEm: tokens.expiraEm, primeiroUsoEm: tokens.primeiroUsoEm, ultimoUsoEm: tokens.ultimoUsoEm, ultimoUsoIp: tokens.ultimoUsoIp,
  revogadoEm: tokens.revogadoEm, dpopJkt: tokens.dpopJkt,
}

export type NewToken = { clienteId: string, usuarioId: string | null, nome: string, escopos: readonly string[], expiraEm: Date, dpopJkt?: string | null }

/** Issues a token to an active customer; `token` is the secret, returned here once and never stored. */
export async function createToken(tx: Orm, input: NewToken, ctx: ActionContext): Promise<{ token: string, info: TokenInfo }> {
  const nome = input.nome.trim()
  const bad = nameProblem(nome, TOKEN_NAME_MAX)
  if (bad) throw new CredentialInputError(nameRefusal('token name', bad, TOKEN_NAME_MAX))
  const escopos = [...new Set(input.escopos)]
  if (escopos.length === 0 || !escopos.every(isScope)) throw new CredentialInputError('the scopes must be known ones, at least one')
  if (!(input.expiraEm.getTime() > ctx.now.getTime())) throw new CredentialInputError('the expiry must be in the future')
  if (input.expiraEm.getTime() - ctx.now.getTime() > TOKEN_MAX_DAYS * 86_400_000) {
    throw new CredentialInputError(`a token lives at most ${TOKEN_MAX_DAYS} days`)
  }
  const dpopJkt = input.dpopJkt ?? null
  if (dpopJkt !== null && !isJwkThumbprint(dpopJkt)) {
    throw new CredentialInputError('the DPoP key thumbprint must be an RFC 7638 SHA-256 thumbprint: 43 base64url characters (32 bytes)')
  }
  await activeCustomer(tx, input.clienteId)
  if (input.usuarioId !== null) {
    const [maker] = await tx.select({ estado: usuarios.estado, papel: usuarios.papel }).from(usuarios)
      .where(and(eq(usuarios.id, input.usuarioId), eq(usuarios.clienteId, input.clienteId)))
    if (maker?.estado !== 'ativo') throw new CredentialInputError('only an active user of the customer makes tokens')
    const beyond = scopesBeyond(maker.papel, escopos)
    if (beyond.length) throw new RoleError(`a person who is ${maker.papel} cannot give a token the scope${beyond.length > 1 ? 's' : ''} ${beyond.join(', ')}`)
  }
  const token = newToken('pat')
  const [info] = await tx.insert(tokens).values({
    clienteId: input.clienteId, usuarioId: input.usuarioId, nome, hash: tokenHash(token), escopos, criadoEm: ctx.now, expiraEm: input.expiraEm, dpopJkt,
  }).returning(COLUMNS)
  await appendAudit(tx, input.clienteId, ctx, 'token.criado', { alvoId: info!.id })
  return { token, info: asInfo(info!) }
}

/** The customer's tokens, newest first, revoked and expired ones included; never a secret or its digest. */
export async function listTokens(tx: Orm, clienteId: string): Promise<TokenInfo[]> {
  const rows = await tx.select(COLUMNS).from(tokens).where(eq(tokens.clienteId, clienteId)).orderBy(sql`${tokens.criadoEm} DESC`, asc(tokens.id))
  return rows.map(asInfo)
}

export async function getToken(tx: Orm, clienteId: string, tokenId: string): Promise<TokenInfo | undefined> {
  const [row] = await tx.select(COLUMNS).from(tokens).where(and(eq(tokens.clienteId, clienteId), eq(tokens.id, tokenId)))
  return row && asInfo(row)
}

/** `revoked`: now; `already`: earlier (nothing written); `not_found`: no such token of this customer. */
export async function revokeToken(tx: Orm, ref: { clienteId: string, tokenId: string }, ctx: ActionContext): Promise<'revoked' | 'already' | 'not_found'> {
  const [row] = await tx.update(tokens).set({ revogadoEm: ctx.now })
    .where(and(eq(tokens.clienteId, ref.clienteId), eq(tokens.id, ref.tokenId), isNull(tokens.revogadoEm))).returning({ id: tokens.id })
  if (row) {
    await appendAudit(tx, ref.clienteId, ctx, 'token.revogado', { alvoId: ref.tokenId })
    return 'revoked'
  }
  return (await getToken(tx, ref.clienteId, ref.tokenId)) ? 'already' : 'not_found'
}

/**
 * Notes a successful use: the first one is written and audited once; later ones update the last use (time and
 * address) unless the last recorded one is under LAST_USE_PRECISION_MS old from the same address, so an integration
 * calling many times a second does not queue its requests on this row's lock.
 */
export async function recordTokenUse(tx: Orm, ref: { clienteId: string, tokenId: string, ip: string }, ctx: ActionContext): Promise<{ first: boolean }> {
  const mine = and(eq(tokens.clienteId, ref.clienteId), eq(tokens.id, ref.tokenId))
  const [first] = await tx.update(tokens).set({ primeiroUsoEm: ctx.now, ultimoUsoEm: ctx.now, ultimoUsoIp: ref.ip })
    .where(and(mine, isNull(tokens.primeiroUsoEm))).returning({ id: tokens.id })
  if (first) {
    await appendAudit(tx, ref.clienteId, ctx, 'token.primeiro_uso', { alvoId: ref.tokenId })
    return { first: true }
  }
  const stale = new Date(ctx.now.getTime() - LAST_USE_PRECISION_MS)
  await tx.update(tokens).set({ ultimoUsoEm: ctx.now, ultimoUsoIp: ref.ip })
    .where(and(mine, or(lt(tokens.ultimoUsoEm, stale), sql`${tokens.ultimoUsoIp} IS DISTINCT FROM ${ref.ip}::inet`)))
  return { first: false }
}

/** The operator's one step across customers for a token: whose it is (SECURITY DEFINER operador_cliente_do_token). */
export async function customerOfToken(orm: Orm, tokenId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ cliente_id: string | null }>(orm, sql`SELECT operador_cliente_do_token(${tokenId}::uuid) AS cliente_id`)
  return row?.cliente_id ?? undefined
}

export type FoundToken = {
  id: string, clienteId: string, usuarioId: string | null, escopos: Scope[], expiraEm: Date, revogadoEm: Date | null, dpopJkt: string | null,
  clienteEstado: CustomerState, usuarioEstado: UserState | null, usuarioPapel: Papel | null,
  /** The use last recorded (recordTokenUse): whether a request's use is news worth a write. */
  primeiroUsoEm: Date | null, ultimoUsoEm: Date | null, ultimoUsoIp: string | null,
}

/** The token a request presents, before its customer is known; undefined for a malformed or unknown one. */
export async function findToken(orm: Orm, token: string): Promise<FoundToken | undefined> {
  return tokenKind(token) === 'pat' ? findTokenByHash(orm, tokenHash(token)) : undefined
}

/** The token whose digest (tokenHash) is `hash`, through autentica_token. */
export async function findTokenByHash(orm: Orm, hash: string): Promise<FoundToken | undefined> {
  const [row] = await queryRows<{
    id: string, cliente_id: string, usuario_id: string | null, escopos: Scope[], expira_em: Date | string, revogado_em: Date | string | null,
    dpop_jkt: string | null, cliente_estado: CustomerState, usuario_estado: UserState | null, usuario_papel: Papel | null,
    primeiro_uso_em: Date | string | null, ultimo_uso_em: Date | string | null, ultimo_uso_ip: string | null,
  }>(orm, sql`SELECT * FROM autentica_token(${hash})`)
  return row && {
    id: row.id, clienteId: row.cliente_id, usuarioId: row.usuario_id, escopos: row.escopos, expiraEm: new Date(row.expira_em),
    revogadoEm: dateOrNull(row.revogado_em), dpopJkt: row.dpop_jkt,
    clienteEstado: row.cliente_estado, usuarioEstado: row.usuario_estado, usuarioPapel: row.usuario_papel,
    primeiroUsoEm: dateOrNull(row.primeiro_uso_em), ultimoUsoEm: dateOrNull(row.ultimo_uso_em), ultimoUsoIp: row.ultimo_uso_ip,
  }
}

/**
 * Whether this use must be written (recordTokenUse): the first one (its audit row), one from another address, or
 * one more than LAST_USE_PRECISION_MS after the last recorded. Otherwise the request writes nothing: a credentialed
 * read costs the lookup alone. Read from the lookup's own row, so every instance agrees without a cache.
 */
export function tokenUseIsNews(t: Pick<FoundToken, 'primeiroUsoEm' | 'ultimoUsoEm' | 'ultimoUsoIp'>, ip: string, now: Date): boolean {
  if (t.primeiroUsoEm === null || t.ultimoUsoEm === null) return true
  return t.ultimoUsoIp !== ip || now.getTime() - t.ultimoUsoEm.getTime() >= LAST_USE_PRECISION_MS
}

/**
 * Why a found token may not be used now, or undefined when it may: `revogado` and `expirado` are the caller's
 * `token_invalido`; `usuario_inativo`, its maker suspended, too; `cliente_suspenso` its `assinatura_inativa`.
 */
export function tokenRefusal(t: FoundToken, now: Date): 'revogado' | 'expirado' | 'usuario_inativo' | 'cliente_suspenso' | undefined {
  if (t.revogadoEm !== null) return 'revogado'
  if (t.expiraEm.getTime() <= now.getTime()) return 'expirado'
  if (t.usuarioId !== null && t.usuarioEstado !== 'ativo') return 'usuario_inativo'
  if (t.clienteEstado !== 'ativo') return 'cliente_suspenso'
  return undefined
}

function asInfo(row: Omit<TokenInfo, 'escopos'> & { escopos: string[] }): TokenInfo {
  return { ...row, escopos: row.escopos.filter(isScope) }
}

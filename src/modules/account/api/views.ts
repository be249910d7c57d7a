// What the credential layer's endpoints answer, without HTTP: the routes (routes.ts) and the MCP server's tools
// (src/modules/mcp/) both read the account through these, each query in the credential's customer's transaction
// (withTenant), under row-level security.
import type { ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { listAuditNamed, type AuditFilter } from './audit-trail.ts'
import type { Credential } from '../../credentials/index.ts'
import { readAsTenant, withTenant } from '../../../platform/tenancy/tenancy.ts'
import { clientes, tokens, usuarios } from '../../../platform/db/schema.ts'
import { sql, type SQL } from 'drizzle-orm'
import { fixedStatement } from '../../../platform/db/one-trip.ts'
import { tokenJson } from '../../credentials/index.ts'
import { listTokens, revokeToken } from '../../credentials/index.ts'
import type { Database, Orm } from '../../../platform/db/database.ts'
import { isUuid } from '../../../platform/lib/uuid.ts'

type Db = Pick<Database, 'orm'>

/**
 * The customer and the credential (GET /api/conta): one read in one round trip (readAsTenant), the customer's name
 * with the credential's beside it, the token's own or its person's.
 */
export async function accountView(db: Pick<Database, 'oneTrip'>, c: Credential) {
  const values = { cliente: c.clienteId, credencial: c.kind === 'pat' ? c.id : c.usuarioId }
  const [cliente] = await readAsTenant<{ id: string, nome: string, credencial: string | null }>(db, c.clienteId,
    c.kind === 'pat' ? accountWithToken(values) : accountWithPerson(values))
  // The credential was accepted moments ago, by its customer's id: the row is there unless deleted since.
  if (!cliente) throw new Error('the credential\'s customer is not readable')
  return {
    cliente: { id: cliente.id, nome: cliente.nome },
    credencial: { tipo: c.kind, id: c.id, nome: cliente.credencial ?? '', escopos: [...c.escopos], expira_em: c.expiraEm.toISOString(), dpop: c.dpop },
  }
}

const accountAnd = (credentialName: SQL) => fixedStatement<'cliente' | 'credencial'>(sql`SELECT ${clientes.id} AS id, ${clientes.nome} AS nome,
  ${credentialName} AS credencial FROM ${clientes} WHERE ${clientes.id} = ${sql.placeholder('cliente')}`)
const accountWithToken = accountAnd(sql`(SELECT ${tokens.nome} FROM ${tokens} WHERE ${tokens.id} = ${sql.placeholder('credencial')})`)
const accountWithPerson = accountAnd(sql`(SELECT ${usuarios.nome} FROM ${usuarios} WHERE ${usuarios.id} = ${sql.placeholder('credencial')})`)

/** The customer's tokens, newest first, never a secret (GET /api/conta/tokens). */
export async function tokensView(db: Db, c: Credential, now: Date) {
  const tokens = await withTenant(db, c.clienteId, (tx) => listTokens(tx, c.clienteId))
  return { tokens: tokens.map((t) => tokenJson(t, now)) }
}

type Revoked = 'revoked' | 'already' | 'not_found'

/** Revokes one of the customer's tokens, audited in `ctx`. Another customer's id is as unknown as a made-up one. */
export async function revokeOwnToken(db: Db, c: Credential, tokenId: string, ctx: ActionContext): Promise<Revoked> {
  if (!isUuid(tokenId)) return 'not_found'
  return withTenant(db, c.clienteId, (tx) => revokeOwnTokenIn(tx, c, tokenId, ctx))
}

/** The same, in the customer's transaction `tx` (a mutation route's, which stores the answer with it). */
export async function revokeOwnTokenIn(tx: Orm, c: Credential, tokenId: string, ctx: ActionContext): Promise<Revoked> {
  return isUuid(tokenId) ? revokeToken(tx, { clienteId: c.clienteId, tokenId }, ctx) : 'not_found'
}

/** A page of the customer's audit trail, newest first, with who and what by name (GET /api/conta/auditoria). */
export async function auditView(db: Db, c: Credential, page: { limit: number, before?: number }, filter: AuditFilter = {}) {
  const found = await withTenant(db, c.clienteId, (tx) => listAuditNamed(tx, c.clienteId, page, filter))
  return {
    itens: found.items.map((e) => ({
      id: e.id, em: e.em.toISOString(), ator_tipo: e.atorTipo, ator_id: e.atorId, ator_nome: e.atorNome, acao: e.acao, alvo_id: e.alvoId,
      alvo_nome: e.alvoNome, alvo_operacao_id: e.alvoOperacaoId, motivo: e.motivo, request_id: e.requestId, request_id_cliente: e.requestIdCliente,
      alteracoes: e.alteracoes,
    })),
    proximo: found.next,
  }
}

// The customer's audit trail (`auditoria_cliente`): append-only (the database refuses UPDATE, DELETE and TRUNCATE),
// one row per sensitive action: who acted (a person, a token, the operator), what, on what, in which request, and
// from where as an HMAC of the address. Never a secret, a password, a token or an e-mail.
import { and, desc, eq, lt, sql } from 'drizzle-orm'
import type { Orm } from '../../db/database.ts'
import { sendInTransaction } from '../../db/in-transaction.ts'
import { fixedStatement } from '../../db/one-trip.ts'
import { auditoriaCliente, instalacao, type Changes } from '../../db/schema.ts'
import { ipHash } from '../../lib/ip-hash.ts'

/** Every action the trail records; the web app and the API add theirs here, so the list stays the catalogue. */
export const AUDIT_ACTIONS = [
  'cliente.criado', 'cliente.suspenso', 'cliente.reativado',
  'convite.enviado', 'convite.aceito', 'convite.reenviado',
  'usuario.suspenso', 'usuario.reativado', 'usuario.papel_alterado',
  'login.sucesso', 'login.falha',
  'sessao.criada', 'sessao.encerrada',
  'token.criado', 'token.revogado', 'token.primeiro_uso', 'token.recusado',
  'cedente.criado', 'cedente.alterado', 'cedente.conta_confirmada', 'sacado.criado', 'sacado.alterado', 'feriado.criado', 'feriado.removido',
  'produto.criado', 'produto.versao_criada',
  'operacao.criada', 'operacao.titulos_adicionados', 'operacao.titulo_removido', 'operacao.cotada', 'operacao.aceita', 'operacao.formalizada',
  'operacao.cancelada', 'desembolso.solicitado', 'desembolso.aprovado', 'desembolso.pago', 'desembolso.falhou',
  // One per MCP tool call (each module's tools, src/modules/mcp/tool.ts), whatever the tool did; `motivo` is the refusal's code when it refused.
  'mcp.status_servicos', 'mcp.versao', 'mcp.assuntos_contato', 'mcp.enviar_contato', 'mcp.minha_conta', 'mcp.listar_tokens', 'mcp.revogar_token',
  'mcp.auditoria', 'mcp.simular', 'mcp.listar_operacoes', 'mcp.ler_operacao', 'mcp.criar_operacao', 'mcp.cotar_operacao', 'mcp.listar_cedentes',
  'mcp.listar_sacados', 'mcp.listar_produtos', 'mcp.ler_painel',
  'lancamento_manual.solicitado', 'lancamento_manual.confirmado', 'lancamento_manual.recusado',
  'operacao.termo_enviado', 'cliente.documento_alterado',
  // An approver's refusal of a payment (issue 32).
  'desembolso.recusado',
  // Collection accounts (issue 33).
  'conta_cobranca.criada', 'conta_cobranca.alterada', 'conta_cobranca.confirmada', 'cobranca.criada', 'cobranca.boleto_enviado',
  'retorno.enviado', 'recompra.criada', 'recompra.paga', 'recompra.cancelada',
  'cobranca.instrucao', 'remessa.gerada', 'mcp.listar_remessas', 'mcp.ler_remessa', 'mcp.listar_instrucoes',
  'mcp.listar_retornos', 'mcp.ler_retorno', 'mcp.listar_recompras', 'mcp.ler_recompra',
  // Webhooks (issue 34); `webhook.desativado` is the service's, after a day of failed deliveries.
  'webhook.criado', 'webhook.alterado', 'webhook.excluido', 'webhook.segredo_rotacionado', 'webhook.reenvio', 'webhook.desativado',
  'confirmacao.link_enviado', 'confirmacao.registrada', 'confirmacao.dispensada', 'registro.consulta_pedida', 'registro.cessao_pedida',
  'webhook.teste',
] as const

export type AuditAction = (typeof AUDIT_ACTIONS)[number]

export type Actor = { tipo: 'usuario' | 'token', id: string } | { tipo: 'operador' }

export const OPERATOR: Actor = { tipo: 'operador' }

/**
 * Who is acting, and the request it comes from (the CLI has neither request id nor address): `requestId` the
 * service's own id of it, `requestIdCliente` the X-Request-ID its client sent (src/platform/http/request-id.ts).
 */
export type ActionContext = { actor: Actor, now: Date, requestId?: string | null, requestIdCliente?: string | null, ip?: string | null }

export type AuditEntry = {
  id: number
  clienteId: string
  em: Date
  atorTipo: Actor['tipo']
  atorId: string | null
  acao: string
  alvoId: string | null
  motivo: string | null
  requestId: string | null
  requestIdCliente: string | null
  alteracoes: Changes | null
}

/** In the caller's tenant transaction, so the row is written with the action or not at all. */
export async function appendAudit(
  tx: Orm, clienteId: string, ctx: ActionContext, acao: AuditAction,
  about: { alvoId?: string | null, motivo?: string | null, alteracoes?: Changes | null } = {},
): Promise<void> {
  const hashed = ctx.ip ? ipHash((await sendInTransaction(tx, [SALT({})]))[0]![0]!.s as string, ctx.ip) : null
  await sendInTransaction(tx, [APPEND({
    cliente: clienteId, em: ctx.now.toISOString(), atorTipo: ctx.actor.tipo, atorId: ctx.actor.tipo === 'operador' ? null : ctx.actor.id, acao,
    alvoId: about.alvoId ?? null, motivo: about.motivo ?? null, requestId: ctx.requestId ?? null, requestIdCliente: ctx.requestIdCliente ?? null,
    ipHash: hashed, alteracoes: about.alteracoes ? JSON.stringify(about.alteracoes) : null,
  })])
}

// Fixed statements: every change of every customer writes one, so neither is built again per request.
const SALT = fixedStatement<never>(sql`SELECT ${instalacao.salIp} AS s FROM ${instalacao}`)
const A = auditoriaCliente
const APPEND_FIELDS = ['cliente', 'em', 'atorTipo', 'atorId', 'acao', 'alvoId', 'motivo', 'requestId', 'requestIdCliente', 'ipHash', 'alteracoes'] as const
const APPEND = fixedStatement<(typeof APPEND_FIELDS)[number]>(
  sql`INSERT INTO ${A} (${sql.join([A.clienteId, A.em, A.atorTipo, A.atorId, A.acao, A.alvoId, A.motivo, A.requestId, A.requestIdCliente, A.ipHash,
    A.alteracoes].map((c) => sql.identifier(c.name)), sql`, `)})
  VALUES (${sql.join(APPEND_FIELDS.slice(0, -1).map((k) => sql.placeholder(k)), sql`, `)}, ${sql.placeholder('alteracoes')}::jsonb)`)

export const AUDIT_PAGE_MAX = 200

/**
 * The largest `before` a caller may give (15 digits): far above any row's id, and a whole number a JavaScript
 * number and a bigint parameter both hold exactly. Beyond it (1e300) the query itself would fail.
 */
export const AUDIT_CURSOR_MAX = 999_999_999_999_999

/**
 * Newest first, `limit` at a time, by the customer's own numbers (`id` is the row's number within its customer);
 * `before` is the `next` of the previous page. The address hash is not shown.
 */
export async function listAudit(
  tx: Orm, clienteId: string, page: { before?: number, limit?: number } = {},
): Promise<{ items: AuditEntry[], next: number | null }> {
  const limit = Math.min(Math.max(page.limit ?? 50, 1), AUDIT_PAGE_MAX)
  const items = await tx.select({
    id: auditoriaCliente.numero, clienteId: auditoriaCliente.clienteId, em: auditoriaCliente.em, atorTipo: auditoriaCliente.atorTipo,
    atorId: auditoriaCliente.atorId, acao: auditoriaCliente.acao, alvoId: auditoriaCliente.alvoId, motivo: auditoriaCliente.motivo,
    requestId: auditoriaCliente.requestId, requestIdCliente: auditoriaCliente.requestIdCliente, alteracoes: auditoriaCliente.alteracoes,
  }).from(auditoriaCliente)
    .where(and(eq(auditoriaCliente.clienteId, clienteId), page.before === undefined ? undefined : lt(auditoriaCliente.numero, page.before)))
    .orderBy(desc(auditoriaCliente.numero))
    .limit(limit + 1)
  const more = items.length > limit
  if (more) items.pop()
  return { items, next: more ? items.at(-1)!.id : null }
}

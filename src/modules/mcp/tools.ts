// The MCP server's tools: what the public API and the credential layer's endpoints answer, through the same
// services (the status snapshot, the build identity, the subject router, the contact service, the account's
// views), for the credential of the request. Each call is refused without the scope of its REST twin (twins.ts),
// and audited (`mcp.<tool>`, with the request id) whatever it did.
import type { FastifyRequest } from 'fastify'
import { accountView, auditView, revokeOwnToken, tokensView } from '../account/index.ts'
import { AuditoriaOut, ContaOut, TokensOut } from '../account/index.ts'
import { AUDIT_CURSOR_MAX, AUDIT_PAGE_MAX, type AuditAction } from '../../platform/tenancy/audit/store.ts'
import type { Credential } from '../credentials/index.ts'
import { actionContext, actorOf } from '../credentials/index.ts'
import type { Clock } from '../../platform/lib/clock.ts'
import { ContatoIn, ContatoOut } from '../contact/index.ts'
import type { ContactService } from '../contact/index.ts'
import type { Database } from '../../platform/db/database.ts'
import type { DetailCode } from '../../platform/http/problem-catalogue.ts'
import type { KeyedLimit } from '../../platform/http/rate-limit.ts'
import type { ValidationItem } from '../../platform/http/validation-errors.ts'
import { ManutencaoOut, ServicoOut, StatusOut, VersionOut } from '../status/index.ts'
import type { StatusSnapshot } from '../status/index.ts'
import { AGENT_KEY_ARGUMENT, contactKey } from './contact-key.ts'
import { isPlainKey } from '../../platform/idempotency/key.ts'
import { IN_USE_RETRY_AFTER_SECONDS } from '../../platform/idempotency/http.ts'
import { toolSchema, type JsonSchema } from './json-schema.ts'
import type { ContactSender } from './send-contact.ts'
import { TWINS, type Twin } from './twins.ts'

/** A tool's name is its audit action's second half: the audit catalogue (AUDIT_ACTIONS) lists every tool. */
export type ToolName = Extract<AuditAction, `mcp.${string}`> extends `mcp.${infer N}` ? N : never

export type ToolDeps = {
  db: Database
  clock: Clock
  snapshot: Pick<StatusSnapshot, 'current'>
  version: Record<string, string>
  contact: ContactService
  sendContact: ContactSender
  /** The contact budget of the request's credential (POST /api/site/contato's, per IP there). */
  contactLimit: KeyedLimit
}

/** The credential of a tool call, and the HTTP request it came in. */
export type ToolCall = { credential: Credential, by: FastifyRequest }

/** `alvoId`: what the call was about, for its audit row. A refusal names a code of the catalogue, or the 422's items. */
export type Outcome =
  | { ok: true, value: Record<string, unknown>, alvoId?: string }
  | { ok: false, detail: DetailCode | ValidationItem[], extra?: Record<string, unknown>, alvoId?: string }

export type Tool = {
  name: ToolName
  title: string
  description: string
  /** The REST route it answers as: a call needs that route's scope (TWINS, by the tool's name). */
  twin: Twin
  input?: JsonSchema
  /** The service checks the arguments itself (with its own error items), not the SDK. */
  checksInput?: true
  output: JsonSchema
  run(args: Record<string, unknown>, call: ToolCall): Promise<Outcome>
}

const ok = (value: Record<string, unknown>): Outcome => ({ ok: true, value })

/** The contact form's fields, and the agent's own key for its retries. */
const ENVIAR_CONTATO_IN: JsonSchema = (() => {
  const schema = toolSchema(ContatoIn)
  return { ...schema, properties: { ...(schema.properties as object), chave_idempotencia: AGENT_KEY_ARGUMENT } }
})()

export function makeTools(deps: ToolDeps): Tool[] {
  return toolsWithoutTwins(deps).map((tool) => {
    const twin = TWINS[tool.name]
    return { ...tool, twin, description: twin.escopo ? `${tool.description} Precisa do escopo \`${twin.escopo}\`.` : tool.description }
  })
}

function toolsWithoutTwins(deps: ToolDeps): Omit<Tool, 'twin'>[] {
  const { db, clock } = deps
  return [
    {
      name: 'status_servicos', title: 'Status dos serviços',
      description: 'O estado de cada serviço (banco, e-mail, limites), o estado geral e a janela de manutenção declarada, como em GET /api/status.',
      output: toolSchema(StatusOut, [ServicoOut, ManutencaoOut]),
      run: async () => ok(await deps.snapshot.current()),
    },
    {
      name: 'versao', title: 'Versão em execução',
      description: 'Versão, commit, ambiente, data do build e versão do esquema do banco, como em GET /api/version.',
      output: toolSchema(VersionOut),
      run: async () => ok(deps.version),
    },
    {
      name: 'assuntos_contato', title: 'Assuntos do contato',
      description: 'Os assuntos que enviar_contato aceita (`codigo`) e a caixa de cada um; um assunto desconhecido vai para `geral`.',
      output: toolSchema({
        type: 'object', required: ['assuntos'],
        properties: {
          assuntos: {
            type: 'array', items: { type: 'object', properties: { codigo: { type: 'string' }, rotulo: { type: 'string' }, destino: { type: 'string' } } },
          },
        },
      }),
      run: async () => ok({ assuntos: deps.contact.subjects.list().map((s) => ({ codigo: s.codigo, rotulo: s.rotulo, destino: s.email })) }),
    },
    {
      name: 'enviar_contato', title: 'Enviar mensagem de contato',
      description: 'Envia o formulário de contato, como POST /api/site/contato: guarda a mensagem e a encaminha à caixa do assunto. '
        + 'Repetir a chamada (a mesma `chave_idempotencia`, ou sem ela a mesma mensagem) envia uma só mensagem e responde o mesmo protocolo.',
      // Checked by the contact service, as POST /api/site/contato checks it: the same 422 items.
      input: ENVIAR_CONTATO_IN, checksInput: true,
      output: toolSchema(ContatoOut),
      run: async (args, call) => {
        const { chave_idempotencia: given, ...message } = args
        if (given !== undefined && !isPlainKey(given)) return { ok: false, detail: 'chave_idempotencia_invalida' }
        const checked = deps.contact.validate(message)
        if (!checked.ok) return { ok: false, detail: checked.errors }
        const limit = await deps.contactLimit(call.by)
        if (limit.exceeded) return { ok: false, detail: 'limite_de_requisicoes', extra: { retry_after: limit.retryAfterSeconds } }
        const sent = await deps.sendContact(contactKey(given, checked.value), checked.value, call.by, call.credential)
        if (sent.kind === 'in_use') return { ok: false, detail: 'chave_idempotencia_em_uso', extra: { retry_after: IN_USE_RETRY_AFTER_SECONDS } }
        if (sent.kind === 'reused') return { ok: false, detail: 'chave_idempotencia_reutilizada' }
        if (sent.kind !== 'accepted') return { ok: false, detail: 'servico_indisponivel' }
        const { protocolo, destino, mensagem } = sent
        return ok({ protocolo, destino, mensagem })
      },
    },
    {
      name: 'minha_conta', title: 'Minha conta',
      description: 'O cliente e a credencial desta conexão (nome, escopos, validade, se é DPoP), como GET /api/conta.',
      output: toolSchema(ContaOut),
      run: async (_args, call) => ok(await accountView(db, call.credential)),
    },
    {
      name: 'listar_tokens', title: 'Listar tokens',
      description: 'Os tokens de acesso do cliente, mais novos primeiro, revogados e expirados inclusive; nunca um segredo.',
      output: toolSchema(TokensOut),
      run: async (_args, call) => ok(await tokensView(db, call.credential, clock.now())),
    },
    {
      name: 'revogar_token', title: 'Revogar token',
      description: 'Revoga um token do cliente (auditado). Revogar um já revogado não muda nada.',
      input: toolSchema({
        type: 'object', required: ['id'], additionalProperties: false,
        properties: { id: { type: 'string', description: 'O id do token (listar_tokens).' } },
      }),
      output: toolSchema({
        type: 'object', required: ['id', 'resultado'],
        properties: { id: { type: 'string' }, resultado: { type: 'string', enum: ['revogado', 'ja_revogado'] } },
      }),
      run: async (args, call) => {
        const id = String(args.id)
        const c = call.credential
        const outcome = await revokeOwnToken(db, c, id, actionContext(call.by, actorOf(c), clock.now()))
        if (outcome === 'not_found') return { ok: false, detail: 'nao_encontrado' }
        return { ok: true, value: { id, resultado: outcome === 'revoked' ? 'revogado' : 'ja_revogado' }, alvoId: id }
      },
    },
    {
      name: 'auditoria', title: 'Trilha de auditoria',
      description: 'A trilha de auditoria do cliente, mais nova primeiro, uma página por vez (`antes`: o `proximo` da página anterior).',
      input: toolSchema({
        type: 'object', additionalProperties: false,
        properties: {
          limite: { type: 'integer', minimum: 1, maximum: AUDIT_PAGE_MAX, description: 'Itens por página (padrão 50).' },
          // Bounded as GET /api/conta/auditoria bounds it: a larger one would reach the query and fail there.
          antes: { type: 'integer', minimum: 1, maximum: AUDIT_CURSOR_MAX, description: 'O `proximo` da página anterior.' },
        },
      }),
      output: toolSchema(AuditoriaOut),
      run: async (args, call) => ok(await auditView(db, call.credential, {
        limit: typeof args.limite === 'number' ? args.limite : 50, ...(typeof args.antes === 'number' ? { before: args.antes } : {}),
      })),
    },
  ]
}

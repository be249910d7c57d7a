// The account module's MCP tools: the account, its tokens and its audit trail, as the /api/conta routes answer
// them, each needing its route's scope (ACCOUNT_ROUTES).
import type { Clock } from '../../platform/lib/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { AUDIT_CURSOR_MAX, AUDIT_PAGE_MAX } from '../../platform/tenancy/audit/store.ts'
import { actionContext, actorOf } from '../credentials/index.ts'
import { ok, pageOfArgs, routeTwin, toolSchema, type Tool } from '../mcp/index.ts'
import { ACCOUNT_ROUTES } from './api/definitions.ts'
import { AuditoriaOut, ContaOut, TokensOut } from './api/schemas.ts'
import { accountView, auditView, revokeOwnToken, tokensView } from './api/views.ts'

export function accountTools(db: Database, clock: Clock): Tool[] {
  return [
    {
      name: 'minha_conta', title: 'Minha conta', twin: routeTwin(ACCOUNT_ROUTES.conta),
      description: 'O cliente e a credencial desta conexão (nome, escopos, validade, se é DPoP), como GET /api/conta.',
      output: toolSchema(ContaOut),
      run: async (_args, call) => ok(await accountView(db, call.credential)),
    },
    {
      name: 'listar_tokens', title: 'Listar tokens', twin: routeTwin(ACCOUNT_ROUTES.tokens),
      description: 'Os tokens de acesso do cliente, mais novos primeiro, revogados e expirados inclusive; nunca um segredo.',
      output: toolSchema(TokensOut),
      run: async (_args, call) => ok(await tokensView(db, call.credential, clock.now())),
    },
    {
      name: 'revogar_token', title: 'Revogar token', twin: routeTwin(ACCOUNT_ROUTES.revogar),
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
      name: 'auditoria', title: 'Trilha de auditoria', twin: routeTwin(ACCOUNT_ROUTES.auditoria),
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
      run: async (args, call) => ok(await auditView(db, call.credential, pageOfArgs(args))),
    },
  ]
}

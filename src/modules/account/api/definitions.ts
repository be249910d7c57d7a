// The credential layer's endpoints as data: path, the scope each needs, and the schemas that both validate and
// serialize the route and make its OpenAPI document (GET /api/conta/openapi.json). Hidden from the public one.
import type { Scope } from '../../credentials/index.ts'
import { Problem } from '../../../platform/http/schemas.ts'
import { IdempotencyKeyHeader, idempotencyProblems } from '../../../platform/idempotency/schemas.ts'
import { AuditoriaOut, AuditoriaQuery, ContaOut, TokenParams, TokensOut } from './schemas.ts'

const refusals = {
  401: Problem('No credential, or one refused: nao_autenticado, token_invalido, dpop_obrigatorio, dpop_invalido, dpop_nonce_obrigatorio '
    + '(see WWW-Authenticate, and DPoP-Nonce).', 'token_invalido'),
  403: Problem('The customer\'s subscription is suspended (assinatura_inativa), the credential lacks the scope (escopo_insuficiente), '
    + 'the person behind it has a role that does not reach the route (papel_insuficiente), '
    + 'or a session\'s unsafe request lacks its X-CSRF-Token (csrf_invalido).', 'escopo_insuficiente'),
  429: Problem('Over the per-IP or the per-credential rate limit; see Retry-After (seconds).', 'limite_de_requisicoes'),
}

type Definition = { method: 'GET' | 'DELETE', url: string, escopo: Scope | undefined, schema: Record<string, unknown> }

export const ACCOUNT_ROUTES = {
  conta: {
    method: 'GET', url: '/api/conta', escopo: 'conta',
    schema: {
      hide: true, operationId: 'conta', tags: ['conta'], summary: 'The customer and the credential of this request',
      response: { 200: ContaOut, ...refusals },
    },
  },
  tokens: {
    method: 'GET', url: '/api/conta/tokens', escopo: 'tokens',
    schema: {
      hide: true, operationId: 'listarTokens', tags: ['tokens'], summary: 'The customer\'s personal access tokens',
      response: { 200: TokensOut, ...refusals },
    },
  },
  revogar: {
    method: 'DELETE', url: '/api/conta/tokens/:id', escopo: 'tokens',
    schema: {
      hide: true, operationId: 'revogarToken', tags: ['tokens'], summary: 'Revoke one of the customer\'s tokens (audited)',
      description: 'Revoking a token revoked already changes nothing and answers 204 too. A token of another customer is not found. '
        + 'Takes an `Idempotency-Key`: the same request with the same key answers the first answer (`Idempotent-Replayed: true`).',
      params: TokenParams,
      headers: IdempotencyKeyHeader,
      response: {
        204: { type: 'null', description: 'Revoked.' }, ...refusals, ...idempotencyProblems,
        404: Problem('No token of this customer has this id.', 'nao_encontrado'),
        422: Problem('The Idempotency-Key was used for another request.', 'chave_idempotencia_reutilizada'),
      },
    },
  },
  auditoria: {
    method: 'GET', url: '/api/conta/auditoria', escopo: 'conta',
    schema: {
      hide: true, operationId: 'auditoria', tags: ['conta'], summary: 'The customer\'s audit trail, newest first, a page at a time',
      querystring: AuditoriaQuery,
      response: { 200: AuditoriaOut, ...refusals },
    },
  },
  documento: {
    method: 'GET', url: '/api/conta/openapi.json', escopo: undefined,
    schema: {
      hide: true, operationId: 'documento', tags: ['conta'], summary: 'This document: what a credential unlocks',
      response: { 200: { type: 'object', additionalProperties: true, description: 'OpenAPI 3.1.0.' }, ...refusals },
    },
  },
} as const satisfies Record<string, Definition>

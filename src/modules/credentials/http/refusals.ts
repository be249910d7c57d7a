// The answers that refuse a credential, each with its catalogue code and the WWW-Authenticate challenge RFC 6750
// and RFC 9449 give it. Descriptions are for the client's developer: they name the rule, never a secret.
import { problem, type HttpProblem } from '../../../platform/http/problem.ts'
import type { AuthScheme } from './authorization.ts'
import { wwwAuthenticate } from './www-authenticate.ts'

export type Refusals = {
  /** No credential of ours (none, or another scheme): the challenges alone, no error code. */
  unauthenticated: HttpProblem<'nao_autenticado'>
  invalidToken(scheme: AuthScheme, description: string): HttpProblem<'token_invalido'>
  /** A bound token presented as Bearer, or the DPoP scheme without a proof. */
  dpopRequired(scheme: AuthScheme): HttpProblem<'dpop_obrigatorio'>
  invalidProof(nonce: string): HttpProblem<'dpop_invalido'>
  useNonce(nonce: string): HttpProblem<'dpop_nonce_obrigatorio'>
  insufficientScope(scheme: AuthScheme | undefined, scope: string): HttpProblem<'escopo_insuficiente'>
}

/** `resourceMetadata`: the URL of the RFC 9728 document of the resource refused, named on every challenge. */
export function makeRefusals(algList: readonly string[], resourceMetadata?: string): Refusals {
  const base = { algs: algList, resourceMetadata }
  const unauthenticated = problem('nao_autenticado', { 'www-authenticate': wwwAuthenticate(base) })
  return {
    unauthenticated,
    invalidToken: (scheme, description) =>
      problem('token_invalido', { 'www-authenticate': wwwAuthenticate({ ...base, error: 'invalid_token', scheme, description }) }),
    dpopRequired: (scheme) => problem('dpop_obrigatorio', {
      'www-authenticate': scheme === 'Bearer'
        ? wwwAuthenticate({ ...base, error: 'invalid_token', scheme, description: 'the token is bound to a key: send it as DPoP with a proof' })
        : wwwAuthenticate({ ...base, error: 'invalid_dpop_proof', description: 'a DPoP proof header is required' }),
    }),
    invalidProof: (nonce) => problem('dpop_invalido', {
      'www-authenticate': wwwAuthenticate({ ...base, error: 'invalid_dpop_proof', description: 'the DPoP proof was refused' }), 'dpop-nonce': nonce,
    }),
    useNonce: (nonce) => problem('dpop_nonce_obrigatorio', {
      'www-authenticate': wwwAuthenticate({ ...base, error: 'use_dpop_nonce', description: 'the proof must carry the nonce of DPoP-Nonce' }),
      'dpop-nonce': nonce,
    }),
    insufficientScope: (scheme, scope) => problem('escopo_insuficiente', {
      'www-authenticate': wwwAuthenticate({ ...base, error: 'insufficient_scope', scheme, scope: [scope] }),
    }),
  }
}

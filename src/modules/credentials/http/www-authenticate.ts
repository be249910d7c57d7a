// `WWW-Authenticate` of a 401 or 403 from the API: the Bearer and DPoP challenges offered together (RFC 9449
// section 7.2), DPoP's with the algorithms it accepts (`algs`, section 7.1), and the error, when there is one,
// on the challenge it concerns: a proof's (`invalid_dpop_proof`, `use_dpop_nonce`) on DPoP's, a token's
// (`invalid_token`, `insufficient_scope`, RFC 6750 section 3.1) on the scheme the client used. A request that
// carried no credential gets no error code (RFC 6750 section 3.1). A resource with a metadata document (the MCP
// server) names it in `resource_metadata` (RFC 9728 section 5.1).
import type { AuthScheme } from './authorization.ts'

export type ChallengeError = 'invalid_token' | 'invalid_dpop_proof' | 'use_dpop_nonce' | 'insufficient_scope'

export type ChallengeOptions = {
  /** The JWS algorithms DPoP proofs may use. */
  algs: readonly string[]
  realm?: string
  error?: ChallengeError
  /** The scheme the client used: where `invalid_token` and `insufficient_scope` go (Bearer unless said). */
  scheme?: AuthScheme
  /** The scopes the request needs (with `insufficient_scope`). */
  scope?: readonly string[]
  /** Human-readable, for the client's developer; never a secret. Characters RFC 6750 does not allow are dropped. */
  description?: string
  /**
   * The URL of the resource's RFC 9728 metadata document, on both challenges (RFC 9728 section 5.1): how a client
   * that only knows the resource's URL learns its scopes, bearer methods and DPoP algorithms.
   */
  resourceMetadata?: string
}

export const REALM = 'api'

// RFC 6750 section 3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ); error_description's characters.
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/
const NOT_DESCRIPTION = /[^\x20\x21\x23-\x5B\x5D-\x7E]/g

export function wwwAuthenticate(opts: ChallengeOptions): string {
  for (const s of [...opts.algs, ...opts.scope ?? []]) {
    if (!SCOPE_TOKEN.test(s)) throw new TypeError(`not a token for WWW-Authenticate: ${JSON.stringify(s)}`)
  }
  const errorOn: AuthScheme | undefined = !opts.error ? undefined
    : opts.error === 'invalid_dpop_proof' || opts.error === 'use_dpop_nonce' ? 'DPoP' : opts.scheme ?? 'Bearer'
  const challenge = (scheme: AuthScheme, extra: [string, string][]) => {
    const params: [string, string][] = [['realm', opts.realm ?? REALM]]
    if (errorOn === scheme) {
      params.push(['error', opts.error!])
      const description = opts.description?.replace(NOT_DESCRIPTION, '')
      if (description) params.push(['error_description', description])
      if (opts.scope?.length) params.push(['scope', opts.scope.join(' ')])
    }
    params.push(...extra)
    if (opts.resourceMetadata) params.push(['resource_metadata', opts.resourceMetadata])
    return `${scheme} ${params.map(([k, v]) => `${k}="${v.replace(/["\\]/g, '\\$&')}"`).join(', ')}`
  }
  return `${challenge('Bearer', [])}, ${challenge('DPoP', [['algs', opts.algs.join(' ')]])}`
}

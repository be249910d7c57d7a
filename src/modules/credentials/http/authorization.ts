// The `Authorization` header of an API request: `Bearer <token>` (RFC 6750) or `DPoP <token>` (RFC 9449 section
// 7.1), the scheme in any case (RFC 9110 section 11.1), then one token68. Anything else is a typed refusal;
// nothing here throws, whatever the bytes.

export type AuthScheme = 'Bearer' | 'DPoP'

/**
 * - `missing`: no Authorization header (the caller answers `nao_autenticado`);
 * - `multiple`: more than one (counted in `rawHeaders`: Node keeps only the first);
 * - `unsupported_scheme`: Basic, Digest… (no credential of ours);
 * - `malformed`: Bearer or DPoP without exactly one token68 after it.
 */
export type AuthorizationFailure = 'missing' | 'multiple' | 'unsupported_scheme' | 'malformed'

export type ParsedAuthorization =
  | { ok: true, scheme: AuthScheme, token: string }
  | { ok: false, failure: AuthorizationFailure }

const SCHEMES: Record<string, AuthScheme> = { bearer: 'Bearer', dpop: 'DPoP' }
// auth-scheme is an RFC 9110 token; the credentials follow after one or more spaces (1*SP).
const CREDENTIALS = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)(?: +([^ ].*))?$/s
// token68 = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/

/** `values`: every Authorization header the request carried (one string, or each occurrence in `rawHeaders`). */
export function parseAuthorization(values: string | readonly string[] | undefined): ParsedAuthorization {
  const all = values === undefined ? [] : typeof values === 'string' ? [values] : values
  if (all.length === 0) return { ok: false, failure: 'missing' }
  if (all.length > 1) return { ok: false, failure: 'multiple' }
  const match = CREDENTIALS.exec(all[0]!)
  if (!match) return { ok: false, failure: 'malformed' }
  const scheme = SCHEMES[match[1]!.toLowerCase()]
  if (!scheme) return { ok: false, failure: 'unsupported_scheme' }
  const token = match[2]
  if (token === undefined || !TOKEN68.test(token)) return { ok: false, failure: 'malformed' }
  return { ok: true, scheme, token }
}

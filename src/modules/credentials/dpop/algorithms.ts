// The JWS algorithms a DPoP proof may be signed with: asymmetric signatures only (RFC 9449 section 4.3: never
// `none`, never an HMAC, whose key the server would have to share), each with the key its embedded jwk must be.

type KeyShape = { kty: 'EC' | 'OKP' | 'RSA', crv?: string }

const KEY_SHAPES = {
  ES256: { kty: 'EC', crv: 'P-256' },
  ES384: { kty: 'EC', crv: 'P-384' },
  ES512: { kty: 'EC', crv: 'P-521' },
  // RFC 8037's EdDSA, and RFC 9864's fully specified name for the same signatures.
  EdDSA: { kty: 'OKP', crv: 'Ed25519' },
  Ed25519: { kty: 'OKP', crv: 'Ed25519' },
  PS256: { kty: 'RSA' },
  PS384: { kty: 'RSA' },
  PS512: { kty: 'RSA' },
  RS256: { kty: 'RSA' },
  RS384: { kty: 'RSA' },
  RS512: { kty: 'RSA' },
} as const satisfies Record<string, KeyShape>

export type DpopAlgorithm = keyof typeof KEY_SHAPES

/** What the service accepts unless told otherwise, and advertises in `WWW-Authenticate: DPoP algs="…"`. */
export const DEFAULT_DPOP_ALGORITHMS: readonly DpopAlgorithm[] = ['ES256', 'ES384', 'EdDSA', 'Ed25519', 'PS256', 'RS256']

/** Members only a private or symmetric key has (RFC 7518 section 6): a proof's jwk carrying any of them is refused. */
export const PRIVATE_KEY_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const

function isDpopAlgorithm(alg: unknown): alg is DpopAlgorithm {
  return typeof alg === 'string' && Object.hasOwn(KEY_SHAPES, alg)
}

/** Throws for a list naming anything but the asymmetric algorithms above (a configuration error, found at start). */
export function checkedAlgorithms(algs: readonly string[]): readonly DpopAlgorithm[] {
  const wrong = algs.filter((a) => !isDpopAlgorithm(a))
  if (wrong.length || algs.length === 0) {
    throw new TypeError(`DPoP algorithms must be asymmetric signatures (${Object.keys(KEY_SHAPES).join(', ')}); refused: ${wrong.join(', ') || '(none given)'}`)
  }
  return algs as readonly DpopAlgorithm[]
}

/**
 * The jwk is of the type (and curve) the algorithm signs with, and what it says of its own use allows verifying
 * this algorithm's signatures (RFC 7517 section 4: `use` "sig", `key_ops` holding "verify", `alg` this one), as
 * WebCrypto's import checked when jose verified.
 */
export function keyFitsAlgorithm(jwk: Record<string, unknown>, alg: DpopAlgorithm): boolean {
  const shape: KeyShape = KEY_SHAPES[alg]
  if (jwk.kty !== shape.kty || (shape.crv !== undefined && jwk.crv !== shape.crv)) return false
  if (Object.hasOwn(jwk, 'use') && jwk.use !== 'sig') return false
  if (Object.hasOwn(jwk, 'alg') && jwk.alg !== alg) return false
  if (Object.hasOwn(jwk, 'key_ops') && !(Array.isArray(jwk.key_ops) && jwk.key_ops.includes('verify'))) return false
  return true
}

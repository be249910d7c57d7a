// A proof's JWS signature (RFC 7515 section 5.2, steps 7 and 8), checked with node:crypto on the calling thread.
// jose's compactVerify goes through WebCrypto, whose asynchronous job and its hand-off to the thread pool cost as
// much again as the ECDSA verification itself (122 µs of CPU a proof, against 53 here): every DPoP request pays
// it. What jose checked on the way is checked here, each with its test (dpop-proof.test.ts): the algorithm on the
// allowed list and the key of its type and curve (proof.ts), no `crit` extension (none is understood), an RSA
// key of at least 2048 bits, the signature of the exact length its algorithm gives.
import { constants, createPublicKey, verify, type KeyObject, type VerifyKeyObjectInput } from 'node:crypto'
import type { DpopAlgorithm } from './algorithms.ts'

type Verifier = {
  /** The digest, or null where the algorithm has its own (Ed25519). */
  hash: 'sha256' | 'sha384' | 'sha512' | null
  /** What node:crypto's key type and details must be for the algorithm. */
  type: 'ec' | 'ed25519' | 'rsa'
  namedCurve?: string
  /** ECDSA's r‖s (RFC 7518 section 3.4): exactly twice the curve's size, never DER. */
  signatureBytes?: number
  options?: Omit<VerifyKeyObjectInput, 'key'>
}

const PKCS1: Omit<VerifyKeyObjectInput, 'key'> = { padding: constants.RSA_PKCS1_PADDING }
// RFC 7518 section 3.5: MGF1 with the same hash, a salt as long as the hash.
const PSS: Omit<VerifyKeyObjectInput, 'key'> = { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }

const VERIFIERS = {
  ES256: { hash: 'sha256', type: 'ec', namedCurve: 'prime256v1', signatureBytes: 64 },
  ES384: { hash: 'sha384', type: 'ec', namedCurve: 'secp384r1', signatureBytes: 96 },
  ES512: { hash: 'sha512', type: 'ec', namedCurve: 'secp521r1', signatureBytes: 132 },
  EdDSA: { hash: null, type: 'ed25519' },
  Ed25519: { hash: null, type: 'ed25519' },
  PS256: { hash: 'sha256', type: 'rsa', options: PSS },
  PS384: { hash: 'sha384', type: 'rsa', options: PSS },
  PS512: { hash: 'sha512', type: 'rsa', options: PSS },
  RS256: { hash: 'sha256', type: 'rsa', options: PKCS1 },
  RS384: { hash: 'sha384', type: 'rsa', options: PKCS1 },
  RS512: { hash: 'sha512', type: 'rsa', options: PKCS1 },
} as const satisfies Record<DpopAlgorithm, Verifier>

/** RFC 7518 section 3.3 (and 3.5): an RSA key for a signature is 2048 bits or larger. */
export const MIN_RSA_BITS = 2048

/**
 * The public key a jwk describes, fit to verify `alg`; undefined when node:crypto cannot make a key of it (a point
 * off the curve, a member missing), or it is not of the algorithm's type and curve, or an RSA key is too short.
 */
export function verificationKey(jwk: Record<string, unknown>, alg: DpopAlgorithm): KeyObject | undefined {
  let key: KeyObject
  try {
    key = createPublicKey({ key: jwk as never, format: 'jwk' })
  } catch {
    return undefined
  }
  const v: Verifier = VERIFIERS[alg]
  if (key.type !== 'public' || key.asymmetricKeyType !== v.type) return undefined
  if (v.namedCurve !== undefined && key.asymmetricKeyDetails?.namedCurve !== v.namedCurve) return undefined
  if (v.type === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS) return undefined
  return key
}

/**
 * Whether `proof` (a compact JWS whose parts are already known to be base64url) is signed by `key` with `alg`:
 * the signature over the ASCII of `header.payload`, as RFC 7515 section 5.2 step 8 has it.
 */
export function signedWith(proof: string, key: KeyObject, alg: DpopAlgorithm): boolean {
  const v: Verifier = VERIFIERS[alg]
  const dot = proof.lastIndexOf('.')
  const encoded = proof.slice(dot + 1)
  const signature = Buffer.from(encoded, 'base64url')
  // Buffer reads base64url leniently (a dangling character, unused bits set): only its one canonical text is taken.
  if (signature.toString('base64url') !== encoded) return false
  if (v.signatureBytes !== undefined && signature.length !== v.signatureBytes) return false
  // RSA's signature is exactly as long as the modulus (RFC 8017 section 8.1.2 and 8.2.2, step 1).
  if (v.type === 'rsa' && signature.length !== Math.ceil((key.asymmetricKeyDetails?.modulusLength ?? 0) / 8)) return false
  const input: VerifyKeyObjectInput | KeyObject = v.type === 'ec' ? { key, dsaEncoding: 'ieee-p1363' } : v.options ? { key, ...v.options } : key
  try {
    return verify(v.hash, Buffer.from(proof.slice(0, dot), 'ascii'), input, signature)
  } catch {
    return false
  }
}

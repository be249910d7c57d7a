// Verification of a DPoP proof presented with a bound personal access token, check by check as RFC 9449 section
// 4.3 lists them (and 7.1 for `ath`, 9 for nonces). Each failure names the check that failed, for logs and
// tests; the HTTP answer only says `invalid_dpop_proof`, or `use_dpop_nonce` with a fresh nonce.
//
// The cheap checks on the decoded header and claims come first; the signature is verified after them and
// before the jti is recorded, so a proof nobody signed cannot use up a jti (or a row) of anyone's key. A proof
// failing a cheap check is refused whatever its signature: checks only ever refuse, never accept.
import type { KeyObject } from 'node:crypto'
import type { JWK } from 'jose'
import type { Clock } from '../../../platform/lib/clock.ts'
import { checkedAlgorithms, DEFAULT_DPOP_ALGORITHMS, keyFitsAlgorithm, PRIVATE_KEY_MEMBERS, type DpopAlgorithm } from './algorithms.ts'
import { sameHtu } from './htu.ts'
import { jtiKey, type JtiStore } from './jti-store.ts'
import { signedWith, verificationKey } from './signature.ts'
import type { DpopNonces } from './nonces.ts'
import { onFirstUse } from '../../../platform/lib/on-first-use.ts'
import { BoundedMemo } from '../../../platform/lib/bounded-memo.ts'

const loadJose = onFirstUse(() => import('jose'))

export type DpopProofInput = {
  /** Every `DPoP` header value the request carried, counted in `rawHeaders` (Node joins repeated headers). */
  proofs: readonly string[]
  /** The request's method, as the server received it. */
  method: string
  /** The URL the client called: the public URL (`PUBLIC_URL`) and the path; a query or fragment is ignored. */
  htu: string
  /**
   * The SHA-256 of the token of `Authorization: DPoP …`, in hex (tokenHash, which its lookup already computed): the
   * proof's `ath` must be the same digest in base64url (RFC 9449 section 4.2).
   */
  accessTokenDigest: string
  /** The RFC 7638 thumbprint the token is bound to (`tokens.dpop_jkt`). */
  dpopJkt: string
}

export type DpopVerifierDeps = {
  clock: Clock
  nonces: DpopNonces
  jtis: JtiStore
  /** Asymmetric JWS algorithms accepted; DEFAULT_DPOP_ALGORITHMS unless given. */
  algorithms?: readonly DpopAlgorithm[]
  /** How old a proof's iat may be. */
  maxAgeSeconds?: number
  /** How far ahead of the server's clock a proof's iat may be (the client's clock runs fast). */
  maxFutureSeconds?: number
}

/** Which check of RFC 9449 section 4.3 failed. */
export type DpopCheck =
  | 'missing' | 'multiple' | 'malformed' | 'typ' | 'alg' | 'crit' | 'jwk' | 'jwk_private'
  | 'htm' | 'htu' | 'iat' | 'iat_too_old' | 'iat_in_future' | 'jti' | 'ath' | 'jkt'
  | 'nonce_missing' | 'nonce_invalid' | 'signature' | 'jti_replayed'

export type DpopError = 'invalid_dpop_proof' | 'use_dpop_nonce'

export type DpopResult =
  /** `nextNonce`: a fresh nonce to send in `DPoP-Nonce`, when the proof's is no longer the current one. */
  | { ok: true, jkt: string, jti: string, nextNonce: string | undefined }
  /** `nonce`: the nonce to send in `DPoP-Nonce` with the refusal (required with `use_dpop_nonce`). */
  | { ok: false, check: DpopCheck, error: DpopError, nonce: string }

export const DPOP_MAX_AGE_SECONDS = 60
export const DPOP_MAX_FUTURE_SECONDS = 5
// Far above any real proof (an RSA-4096 jwk is under 1 KiB); bounds the JSON parsing an attacker can ask for.
const MAX_PROOF_LENGTH = 8192
const MAX_JTI_LENGTH = 256

export async function verifyDpopProof(input: DpopProofInput, deps: DpopVerifierDeps): Promise<DpopResult> {
  const algorithms = checkedAlgorithms(deps.algorithms ?? DEFAULT_DPOP_ALGORITHMS)
  const maxAge = deps.maxAgeSeconds ?? DPOP_MAX_AGE_SECONDS
  const maxFuture = deps.maxFutureSeconds ?? DPOP_MAX_FUTURE_SECONDS
  const fail = (check: DpopCheck, error: DpopError = 'invalid_dpop_proof'): DpopResult =>
    ({ ok: false, check, error, nonce: deps.nonces.currentNonce() })

  if (input.proofs.length === 0) return fail('missing')
  if (input.proofs.length > 1) return fail('multiple')
  const proof = input.proofs[0]!
  const decoded = decode(proof)
  if (!decoded) return fail('malformed')
  const { read, claims } = decoded
  const header = read.header

  if (header.typ !== 'dpop+jwt') return fail('typ')
  const alg = algorithms.find((a) => a === header.alg)
  if (!alg) return fail('alg')
  // RFC 7515 section 4.1.11: an extension the recipient must understand; this one understands none.
  if (Object.hasOwn(header, 'crit')) return fail('crit')
  const jwk = header.jwk
  if (!isObject(jwk)) return fail('jwk')
  if (PRIVATE_KEY_MEMBERS.some((member) => Object.hasOwn(jwk, member))) return fail('jwk_private')
  if (!keyFitsAlgorithm(jwk, alg)) return fail('jwk')
  const jkt = await (read.jkt ??= thumbprint(jwk))
  if (!jkt) return fail('jwk')

  if (claims.htm !== input.method) return fail('htm')
  if (typeof claims.htu !== 'string' || !sameHtu(claims.htu, input.htu)) return fail('htu')
  if (typeof claims.iat !== 'number' || !Number.isFinite(claims.iat)) return fail('iat')
  const now = deps.clock.now().getTime() / 1000
  if (now - claims.iat > maxAge) return fail('iat_too_old')
  if (claims.iat - now > maxFuture) return fail('iat_in_future')
  const jti = claims.jti
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_JTI_LENGTH) return fail('jti')
  if (claims.ath !== Buffer.from(input.accessTokenDigest, 'hex').toString('base64url')) return fail('ath')
  if (jkt !== input.dpopJkt) return fail('jkt')
  if (claims.nonce === undefined) return fail('nonce_missing', 'use_dpop_nonce')
  if (typeof claims.nonce !== 'string' || !deps.nonces.isValid(claims.nonce)) return fail('nonce_invalid', 'use_dpop_nonce')

  // The key as imported for this algorithm: importing it again for each proof was a sixth of a DPoP request's CPU.
  // Only a key a token is bound to gets here (its thumbprint matched).
  if (read.key === undefined) read.key = verificationKey(jwk, alg) ?? null
  const key = read.key
  if (!key) return fail('jwk')
  if (!signedWith(proof, key, alg)) return fail('signature')

  // Kept while this proof's iat could still pass here, or on an instance whose clock is a little behind.
  const expiresAt = new Date((Math.max(claims.iat, now) + maxAge + maxFuture) * 1000)
  if (!await deps.jtis.remember(jtiKey(jkt, jti), expiresAt)) return fail('jti_replayed')
  const current = deps.nonces.currentNonce()
  return { ok: true, jkt, jti, nextNonce: claims.nonce === current ? undefined : current }
}

/**
 * What a proof's header text gives, worked out once: a client signs every proof with one key under one header. All
 * of it is a pure function of the text (the header names the alg and holds the jwk), so nothing kept can be wrong
 * for another request. It is kept before any signature is checked, so its keys are anyone's: bounded in number and
 * in length (a header with an RSA-4096 jwk is about 1,100 characters, one with P-256 about 250). The header is
 * frozen, since every request shares it; the thumbprint is kept as its promise, which never rejects; the key is
 * imported once a token's binding matched the thumbprint (null: not a key of the header's alg).
 */
type ReadHeader = { readonly header: Readonly<Record<string, unknown>>, jkt?: Promise<string | undefined>, key?: KeyObject | null }
const readHeaders = new BoundedMemo<ReadHeader | undefined>(1000, 2048)

type Decoded = { read: ReadHeader, claims: Record<string, unknown> }

/**
 * The header and claims of a compact JWS whose first two parts are base64url JSON objects; undefined for anything
 * else. An empty signature (an unsecured JWT) is well-formed: it is refused by its `alg`.
 */
function decode(proof: string): Decoded | undefined {
  if (proof.length > MAX_PROOF_LENGTH || !COMPACT_JWS.test(proof)) return undefined
  const parts = proof.split('.')
  // One character over a multiple of four carries no whole byte: not base64url (Buffer would ignore it).
  if (parts.some((part) => part.length % 4 === 1)) return undefined
  const read = readHeaders.get(parts[0]!, () => readHeader(parts[0]!))
  const claims = jsonObject(parts[1])
  return read && claims ? { read, claims } : undefined
}

function readHeader(part: string): ReadHeader | undefined {
  const header = jsonObject(part)
  if (!header) return undefined
  if (isObject(header.jwk)) Object.freeze(header.jwk)
  return { header: Object.freeze(header) }
}

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/

// Invalid UTF-8 is refused, not replaced (two different jtis must not read as one).
const utf8 = new TextDecoder('utf-8', { fatal: true })

/** A base64url part (RFC 7515 section 2, no padding) holding a UTF-8 JSON object, or undefined. */
function jsonObject(part: string | undefined): Record<string, unknown> | undefined {
  if (part === undefined) return undefined
  try {
    const value: unknown = JSON.parse(utf8.decode(Buffer.from(part, 'base64url')))
    return isObject(value) ? value : undefined
  } catch {
    return undefined
  }
}

async function thumbprint(jwk: Record<string, unknown>): Promise<string | undefined> {
  try {
    return await (await loadJose()).calculateJwkThumbprint(jwk as JWK, 'sha256')
  } catch {
    return undefined
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

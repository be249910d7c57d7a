// Real key pairs and DPoP proofs made with jose, as a client makes them, and the ways a proof can be made wrong.
import { createHash, KeyObject, randomUUID, sign, type KeyLike, type SignKeyObjectInput } from 'node:crypto'
import { base64url, calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose'
import type { Clock } from '../../../src/platform/lib/clock.ts'

export type TestKey = { alg: string, privateKey: CryptoKey, jwk: JWK, privateJwk: JWK, jkt: string }

export async function makeKey(alg: string): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  const jwk = await exportJWK(publicKey)
  return { alg, privateKey, jwk, privateJwk: await exportJWK(privateKey), jkt: await calculateJwkThumbprint(jwk) }
}

export type ProofClaims = { htm?: unknown, htu?: unknown, iat?: unknown, jti?: unknown, ath?: unknown, nonce?: unknown, [claim: string]: unknown }

/**
 * A proof signed by `key` for `claims` (undefined values are left out), with `header` merged over the usual
 * `{ typ: 'dpop+jwt', alg, jwk }` (undefined removes a member); `signWith` signs with another key.
 */
export async function makeProof(
  key: TestKey, claims: ProofClaims, opts: { header?: Record<string, unknown>, signWith?: CryptoKey | Uint8Array } = {},
): Promise<string> {
  const header = Object.fromEntries(Object.entries({ typ: 'dpop+jwt', alg: key.alg, jwk: key.jwk, ...opts.header })
    .filter(([, v]) => v !== undefined))
  const payload = Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined))
  return new SignJWT(payload).setProtectedHeader(header as { alg: string }).sign(opts.signWith ?? key.privateKey)
}

/**
 * A compact JWS signed by node:crypto with whatever header and signing options a test needs (what jose will not
 * sign: a `crit` it does not know, a DER-encoded ECDSA signature, a short RSA key).
 */
export function rawProof(
  header: Record<string, unknown>, claims: ProofClaims, hash: string | null, key: KeyLike | CryptoKey, options: Omit<SignKeyObjectInput, 'key'> = {},
): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const input = `${part(header)}.${part(claims)}`
  const keyObject = key instanceof KeyObject || typeof key === 'string' || Buffer.isBuffer(key) ? key : KeyObject.from(key as CryptoKey)
  return `${input}.${sign(hash, Buffer.from(input), { key: keyObject as KeyObject, ...options }).toString('base64url')}`
}

/** An unsecured JWT (`alg: none`, empty signature), which jose will not sign. */
export function unsignedProof(key: TestKey, claims: ProofClaims): string {
  const part = (value: object) => base64url.encode(JSON.stringify(value))
  return `${part({ typ: 'dpop+jwt', alg: 'none', jwk: key.jwk })}.${part(claims)}.`
}

/** A proof's `ath` for `token`, as RFC 9449 section 4.2 defines it: base64url of the SHA-256 of its ASCII. */
export function athOf(token: string): string {
  return createHash('sha256').update(token, 'ascii').digest('base64url')
}

/** The claims of a good proof for `token` on `method url` at the clock's time. */
export function goodClaims(clock: Clock, method: string, url: string, token: string, nonce?: string): ProofClaims {
  return { htm: method, htu: url, iat: Math.floor(clock.now().getTime() / 1000), jti: randomUUID(), ath: athOf(token), nonce }
}

/** A clock tests move by hand. */
export function testClock(start: string): Clock & { advance(seconds: number): void, set(iso: string): void } {
  let ms = Date.parse(start)
  return {
    now: () => new Date(ms),
    advance(seconds) { ms += seconds * 1000 },
    set(iso) { ms = Date.parse(iso) },
  }
}

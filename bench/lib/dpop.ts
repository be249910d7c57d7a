// DPoP proofs for the bench (RFC 9449), made as a client makes them with jose: one key, and before each run of
// the DPoP scenario a file of fresh proofs (new jti, iat now, the server's current nonce), one per line, for
// bench/load/dpop.lua to send one per request. Made between runs, so their signing is not measured.
import { createHash, randomUUID } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose'

export type DpopKey = { privateKey: CryptoKey, jwk: JWK, thumbprint: string }

export async function dpopKey(): Promise<DpopKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256')
  const jwk = await exportJWK(publicKey)
  return { privateKey: privateKey as CryptoKey, jwk, thumbprint: await calculateJwkThumbprint(jwk, 'sha256') }
}

/** The server's current DPoP-Nonce: asked with a proof that has none (answered 401 use_dpop_nonce with it). */
export async function currentNonce(key: DpopKey, url: string, token: string): Promise<string> {
  const res = await fetch(url, { headers: { authorization: `DPoP ${token}`, dpop: await proof(key, 'GET', url, token, undefined) } })
  const nonce = res.headers.get('dpop-nonce')
  if (!nonce) throw new Error(`no DPoP-Nonce from ${url} (status ${res.status})`)
  return nonce
}

/** Writes `count` proofs for GET `url` with `token` under `nonce` into `file`. */
export async function writeProofs(file: string, key: DpopKey, url: string, token: string, nonce: string, count: number): Promise<void> {
  const lines: string[] = []
  for (let i = 0; i < count; i++) lines.push(await proof(key, 'GET', url, token, nonce))
  writeFileSync(file, lines.join('\n') + '\n')
}

function proof(key: DpopKey, htm: string, htu: string, token: string, nonce: string | undefined): Promise<string> {
  const ath = createHash('sha256').update(token).digest('base64url')
  return new SignJWT({ htm, htu, ath, ...(nonce ? { nonce } : {}) })
    .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: key.jwk })
    .setJti(randomUUID()).setIssuedAt().sign(key.privateKey)
}

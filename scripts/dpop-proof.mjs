#!/usr/bin/env node
// DPoP proofs (RFC 9449) for calling the API with a token bound to a key, from a shell. Made with jose, as any
// client would make them; the key never leaves the file it is saved in.
//
//   node scripts/dpop-proof.mjs key FILE [--alg ES256|EdDSA|PS256|RS256]
//       makes a key pair, saves it in FILE (created with mode 0600; an existing file is never overwritten) and
//       prints its RFC 7638 thumbprint: give it to `tokens criar --dpop-jkt`, or to the "create a token" form.
//   node scripts/dpop-proof.mjs thumbprint FILE
//       prints the thumbprint of the key in FILE again.
//   node scripts/dpop-proof.mjs proof FILE METHOD URL [--token TOKEN] [--nonce NONCE]
//       prints a proof for one request (METHOD exactly as sent, URL as called; its query is left out of the proof),
//       bound to TOKEN (its `ath`) and carrying the server's NONCE. A proof is good once, for about a minute.
//
// With curl (the first call is answered 401 `use_dpop_nonce` with a `DPoP-Nonce` header; the second uses it):
//
//   TOKEN=fct_pat_…   URL=http://127.0.0.1:3000/api/conta
//   NONCE=$(curl -s -o /dev/null -D - "$URL" -H "Authorization: DPoP $TOKEN" \
//     -H "DPoP: $(node scripts/dpop-proof.mjs proof minha-chave.json GET "$URL" --token "$TOKEN")" \
//     | tr -d '\r' | sed -n 's/^[Dd][Pp][Oo][Pp]-[Nn]once: //p')
//   curl -s "$URL" -H "Authorization: DPoP $TOKEN" \
//     -H "DPoP: $(node scripts/dpop-proof.mjs proof minha-chave.json GET "$URL" --token "$TOKEN" --nonce "$NONCE")"
//
// Exit codes: 0 done, 2 a wrong command line or key file, 1 anything else (said on stderr).
import { createHash, createPrivateKey, createPublicKey, randomUUID } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from 'jose'

const ALGORITHMS = ['ES256', 'EdDSA', 'PS256', 'RS256']
const USAGE = `usage:
  node scripts/dpop-proof.mjs key FILE [--alg ${ALGORITHMS.join('|')}]
  node scripts/dpop-proof.mjs thumbprint FILE
  node scripts/dpop-proof.mjs proof FILE METHOD URL [--token TOKEN] [--nonce NONCE]`

class UsageError extends Error {}

async function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { alg: { type: 'string', default: 'ES256' }, token: { type: 'string' }, nonce: { type: 'string' }, help: { type: 'boolean' } },
  })
  const [command, file, method, url] = positionals
  if (values.help) return console.log(USAGE)
  if (command === 'key' && file && positionals.length === 2) return makeKey(file, values.alg)
  if (command === 'thumbprint' && file && positionals.length === 2) return console.log(await calculateJwkThumbprint(readKey(file).publicJwk))
  if (command === 'proof' && file && method && url && positionals.length === 4) return console.log(await proof(readKey(file), method, url, values))
  throw new UsageError(USAGE)
}

async function makeKey(file, alg) {
  if (!ALGORITHMS.includes(alg)) throw new UsageError(`--alg must be one of ${ALGORITHMS.join(', ')}`)
  const { privateKey } = await generateKeyPair(alg, { extractable: true })
  const jwk = { ...await exportJWK(privateKey), alg }
  try {
    // 'wx': never replaces a key a token may already be bound to.
    writeFileSync(file, `${JSON.stringify(jwk, null, 2)}\n`, { mode: 0o600, flag: 'wx' })
  } catch (err) {
    if (err.code === 'EEXIST') throw new UsageError(`${file} already exists: choose another file (a token may be bound to that key)`)
    throw err
  }
  console.log(await calculateJwkThumbprint(jwk))
}

function readKey(file) {
  let jwk
  try {
    jwk = JSON.parse(readFileSync(file, 'utf8'))
  } catch (err) {
    throw new UsageError(`${file}: ${err.code === 'ENOENT' ? 'no such file' : 'not a key made by this script'}`)
  }
  if (!ALGORITHMS.includes(jwk?.alg) || typeof jwk.d !== 'string') throw new UsageError(`${file}: not a key made by this script`)
  // Node derives the public half, so no private member can slip into the proof's header.
  const privateKey = createPrivateKey({ key: jwk, format: 'jwk' })
  return { alg: jwk.alg, privateKey, publicJwk: createPublicKey(privateKey).export({ format: 'jwk' }) }
}

async function proof(key, method, url, { token, nonce }) {
  let htu
  try {
    htu = new URL(url)
  } catch {
    throw new UsageError(`not an absolute URL: ${url}`)
  }
  if (htu.protocol !== 'https:' && htu.protocol !== 'http:') throw new UsageError(`not an http(s) URL: ${url}`)
  htu.search = ''
  htu.hash = ''
  const claims = { htm: method, htu: htu.href, jti: randomUUID() }
  if (token !== undefined) claims.ath = createHash('sha256').update(token).digest('base64url')
  if (nonce !== undefined) claims.nonce = nonce
  return new SignJWT(claims).setProtectedHeader({ typ: 'dpop+jwt', alg: key.alg, jwk: key.publicJwk }).setIssuedAt().sign(key.privateKey)
}

main(process.argv.slice(2)).catch((err) => {
  const usage = err instanceof UsageError || err?.code?.startsWith?.('ERR_PARSE_ARGS')
  console.error(usage ? err.message : `dpop-proof: ${err?.message ?? err}`)
  process.exitCode = usage ? 2 : 1
})

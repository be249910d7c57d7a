// RFC 9449 section 4.3, the JOSE half: real keys (P-256, P-384, Ed25519, RSA) and proofs made with jose; a good proof
// passes, and each check violated alone fails naming that check. The claims half is in dpop-proof-claims.test.ts.
import assert from 'node:assert/strict'
import { constants, generateKeyPairSync, randomBytes } from 'node:crypto'
import { before, describe, it } from 'node:test'
import { databaseJtiStore } from '../../../src/modules/credentials/dpop/jti-store.ts'
import { makeDpopNonces } from '../../../src/modules/credentials/dpop/nonces.ts'
import { verifyDpopProof, type DpopProofInput, type DpopResult, type DpopVerifierDeps } from '../../../src/modules/credentials/dpop/proof.ts'
import { newToken, tokenHash } from '../../../src/modules/credentials/token-format.ts'
import { calculateJwkThumbprint } from 'jose'
import { useTestDatabase } from '../../helpers/fixture.ts'
import { goodClaims, makeKey, makeProof, rawProof, testClock, unsignedProof, type TestKey } from './dpop-keys.ts'

const URL_CONTA = 'https://api.factoring.example/api/conta'

describe('a DPoP proof: header, key and signature', () => {
  const tdb = useTestDatabase()
  const clock = testClock('2026-11-23T12:00:30Z')
  const nonces = makeDpopNonces({ key: randomBytes(32), clock })
  const token = newToken('pat')
  let deps: DpopVerifierDeps
  const keys: Record<string, TestKey> = {}

  before(async () => {
    deps = { clock, nonces, jtis: databaseJtiStore(tdb.db) }
    for (const alg of ['ES256', 'ES384', 'EdDSA', 'Ed25519', 'PS256', 'RS256']) keys[alg] = await makeKey(alg)
  })

  const input = (proofs: string[], key: TestKey, over: Partial<DpopProofInput> = {}): DpopProofInput =>
    ({ proofs, method: 'GET', htu: URL_CONTA, accessTokenDigest: tokenHash(token), dpopJkt: key.jkt, ...over })
  const claims = () => goodClaims(clock, 'GET', URL_CONTA, token, nonces.currentNonce())
  const refused = (result: DpopResult, check: string, error = 'invalid_dpop_proof') => {
    assert.equal(result.ok, false, `expected a refusal for ${check}`)
    if (result.ok) return
    assert.equal(result.check, check)
    assert.equal(result.error, error)
    assert.equal(result.nonce, nonces.currentNonce(), 'a refusal carries the nonce to use next')
  }

  it('a good proof passes with each kind of key, and names its key and jti', async () => {
    for (const key of Object.values(keys)) {
      const c = claims()
      const result = await verifyDpopProof(input([await makeProof(key, c)], key), deps)
      assert.deepEqual(result, { ok: true, jkt: key.jkt, jti: c.jti, nextNonce: undefined }, key.alg)
    }
  })

  it('no DPoP header, or two of them (even two good proofs), is refused', async () => {
    const key = keys.ES256!
    refused(await verifyDpopProof(input([], key), deps), 'missing')
    const two = [await makeProof(key, claims()), await makeProof(key, claims())]
    refused(await verifyDpopProof(input(two, key), deps), 'multiple')
  })

  it('a value that is not a compact JWT is refused as malformed', async () => {
    const key = keys.ES256!
    const good = await makeProof(key, claims())
    const [h, p, s] = good.split('.')
    const notJson = Buffer.from('not json').toString('base64url')
    const array = Buffer.from('[1,2]').toString('base64url')
    // A part one character over a multiple of four is no base64url, though a lenient decoder reads it.
    const dangling = (part: string) => part + 'A'.repeat((5 - (part.length % 4)) % 4)
    for (const bad of ['', 'abc', `${h}.${p}`, `${h}.${p}.${s}.x.y`, `${h}..${s}`, `${notJson}.${p}.${s}`, `${h}.${array}.${s}`,
      `${h}.${p}.${s} `, `${h}.${p}.${s}=`, `${good}${'A'.repeat(9000)}`, `${dangling(h!)}.${p}.${s}`, `${h}.${dangling(p!)}.${s}`]) {
      refused(await verifyDpopProof(input([bad], key), deps), 'malformed')
    }
  })

  it('typ must be exactly dpop+jwt', async () => {
    const key = keys.ES256!
    for (const typ of [undefined, 'JWT', 'DPoP+JWT', 'application/dpop+jwt', 'dpop+jwt ']) {
      refused(await verifyDpopProof(input([await makeProof(key, claims(), { header: { typ } })], key), deps), 'typ')
    }
  })

  it('alg none, an HMAC, and an asymmetric alg not on the allowed list are refused', async () => {
    const key = keys.ES256!
    refused(await verifyDpopProof(input([unsignedProof(key, claims())], key), deps), 'alg')
    const hs256 = await makeProof(key, claims(), { header: { alg: 'HS256' }, signWith: randomBytes(32) })
    refused(await verifyDpopProof(input([hs256], key), deps), 'alg')
    const rsa = keys.RS256!
    const onlyEc = { ...deps, algorithms: ['ES256'] as const }
    refused(await verifyDpopProof(input([await makeProof(rsa, claims())], rsa), onlyEc), 'alg')
  })

  it('an allowed-algorithm list naming none or an HMAC is a configuration error', async () => {
    const key = keys.ES256!
    const proof = await makeProof(key, claims())
    for (const algorithms of [['HS256'], ['none'], ['ES256', 'HS512'], []]) {
      await assert.rejects(verifyDpopProof(input([proof], key), { ...deps, algorithms: algorithms as never }), TypeError)
    }
  })

  it('a jwk holding a private or a symmetric key is refused', async () => {
    for (const key of [keys.ES256!, keys.EdDSA!, keys.PS256!]) {
      const proof = await makeProof(key, claims(), { header: { jwk: key.privateJwk } })
      refused(await verifyDpopProof(input([proof], key), deps), 'jwk_private')
    }
    const symmetric = await makeProof(keys.ES256!, claims(), { header: { jwk: { ...keys.ES256!.jwk, k: 'c2VjcmV0' } } })
    refused(await verifyDpopProof(input([symmetric], keys.ES256!), deps), 'jwk_private')
  })

  it('a missing jwk, one of another type than the alg, or an unusable one is refused', async () => {
    const ec = keys.ES256!
    const ed = keys.EdDSA!
    refused(await verifyDpopProof(input([await makeProof(ec, claims(), { header: { jwk: undefined } })], ec), deps), 'jwk')
    refused(await verifyDpopProof(input([await makeProof(ec, claims(), { header: { jwk: 'key' } })], ec), deps), 'jwk')
    // An Ed25519 key under alg ES256, and a P-256 key missing its y.
    refused(await verifyDpopProof(input([await makeProof(ec, claims(), { header: { jwk: ed.jwk } })], ed), deps), 'jwk')
    const noY = { kty: 'EC', crv: 'P-256', x: ec.jwk.x }
    refused(await verifyDpopProof(input([await makeProof(ec, claims(), { header: { jwk: noY } })], ec), deps), 'jwk')
    // A point that is not on the curve: it has a thumbprint, but no key can be made of it.
    const offCurve = { ...ec.jwk, y: Buffer.alloc(32, 1).toString('base64url') }
    const result = await verifyDpopProof(input([await makeProof(ec, claims(), { header: { jwk: offCurve } })], ec,
      { dpopJkt: await calculateJwkThumbprint(offCurve) }), deps)
    refused(result, 'jwk')
  })

  it('a signature by another key than the embedded one, or an altered proof, is refused', async () => {
    const key = keys.ES256!
    const other = await makeKey('ES256')
    const forged = await makeProof(key, claims(), { signWith: other.privateKey })
    refused(await verifyDpopProof(input([forged], key), deps), 'signature')
    const good = await makeProof(key, claims())
    const [h, p, s] = good.split('.')
    const flipped = `${h}.${p}.${s!.slice(0, 10)}${s![10] === 'A' ? 'B' : 'A'}${s!.slice(11)}`
    refused(await verifyDpopProof(input([flipped], key), deps), 'signature')
  })

  it('a proof naming any crit extension is refused: none is understood (RFC 7515 section 4.1.11)', async () => {
    const key = keys.ES256!
    const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: key.jwk, crit: ['exp'] }
    const c = { ...claims(), exp: Math.floor(clock.now().getTime() / 1000) + 60 }
    refused(await verifyDpopProof(input([rawProof(header, c, 'sha256', key.privateKey, { dsaEncoding: 'ieee-p1363' })], key), deps), 'crit')
    // The same proof without crit, signed the same way, passes: the signing helper is not what is refused.
    const { crit: _, ...plain } = header
    const passed = await verifyDpopProof(input([rawProof(plain, c, 'sha256', key.privateKey, { dsaEncoding: 'ieee-p1363' })], key), deps)
    assert.equal(passed.ok, true)
  })

  it('an ECDSA signature DER-encoded, or one byte longer or shorter than r‖s, is refused (RFC 7518 section 3.4)', async () => {
    const key = keys.ES256!
    const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: key.jwk }
    refused(await verifyDpopProof(input([rawProof(header, claims(), 'sha256', key.privateKey, { dsaEncoding: 'der' })], key), deps), 'signature')
    const good = rawProof(header, claims(), 'sha256', key.privateKey, { dsaEncoding: 'ieee-p1363' })
    const [h, p, s] = good.split('.')
    const signature = Buffer.from(s!, 'base64url')
    for (const bytes of [Buffer.concat([signature, Buffer.alloc(1)]), signature.subarray(0, 63), Buffer.concat([Buffer.alloc(1), signature])]) {
      refused(await verifyDpopProof(input([`${h}.${p}.${bytes.toString('base64url')}`], key), deps), 'signature')
    }
  })

  it('an RSA key under 2048 bits is refused, though its signature is good (RFC 7518 section 3.3)', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 })
    const jwk = publicKey.export({ format: 'jwk' })
    const short = { alg: 'RS256', jwk, jkt: await calculateJwkThumbprint(jwk as never) } as unknown as TestKey
    const proof = rawProof({ typ: 'dpop+jwt', alg: 'RS256', jwk }, claims(), 'sha256', privateKey)
    refused(await verifyDpopProof(input([proof], short), deps), 'jwk')
    // 2048 bits, made and signed the same way, passes.
    const long = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const longJwk = long.publicKey.export({ format: 'jwk' })
    const longKey = { alg: 'RS256', jwk: longJwk, jkt: await calculateJwkThumbprint(longJwk as never) } as unknown as TestKey
    const longProof = rawProof({ typ: 'dpop+jwt', alg: 'RS256', jwk: longJwk }, claims(), 'sha256', long.privateKey)
    assert.equal((await verifyDpopProof(input([longProof], longKey), deps)).ok, true)
  })

  it('a signature of another algorithm over the same key is refused: PSS under RS256, PKCS#1 under PS256, SHA-384 under ES256', async () => {
    const rsa = keys.RS256!
    const pss = { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }
    refused(await verifyDpopProof(input([rawProof({ typ: 'dpop+jwt', alg: 'RS256', jwk: rsa.jwk }, claims(), 'sha256', rsa.privateKey, pss)], rsa), deps),
      'signature')
    const ps = keys.PS256!
    refused(await verifyDpopProof(input([rawProof({ typ: 'dpop+jwt', alg: 'PS256', jwk: ps.jwk }, claims(), 'sha256', ps.privateKey)], ps), deps), 'signature')
    const ec = keys.ES256!
    const sha384 = rawProof({ typ: 'dpop+jwt', alg: 'ES256', jwk: ec.jwk }, claims(), 'sha384', ec.privateKey, { dsaEncoding: 'ieee-p1363' })
    refused(await verifyDpopProof(input([sha384], ec), deps), 'signature')
  })

  it('a jwk saying it is for encryption, for another alg, or not for verifying is refused (RFC 7517 section 4)', async () => {
    const key = keys.ES256!
    for (const extra of [{ use: 'enc' }, { alg: 'ES384' }, { key_ops: ['sign'] }, { key_ops: 'verify' }]) {
      const proof = await makeProof(key, claims(), { header: { jwk: { ...key.jwk, ...extra } } })
      refused(await verifyDpopProof(input([proof], key), deps), 'jwk')
    }
    // Said rightly, each passes.
    for (const extra of [{ use: 'sig' }, { alg: 'ES256' }, { key_ops: ['verify'] }]) {
      const proof = await makeProof(key, claims(), { header: { jwk: { ...key.jwk, ...extra } } })
      assert.equal((await verifyDpopProof(input([proof], key), deps)).ok, true, JSON.stringify(extra))
    }
  })

  it('a signature not in canonical base64url is refused: a dangling character, or unused bits set', async () => {
    const key = keys.ES384!
    const good = await makeProof(key, claims())
    const [h, p, s] = good.split('.')
    // 96 bytes are 128 characters: one more carries no byte, and a lenient decoder ignores it.
    refused(await verifyDpopProof(input([`${h}.${p}.${s}A`], key), deps), 'malformed')
    const es256 = keys.ES256!
    const [h2, p2, s2] = (await makeProof(es256, claims())).split('.')
    // 64 bytes end in a character of which only 4 bits count (86 characters): the others set give the same bytes.
    const last = s2!.at(-1)!
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const sameBytes = alphabet[alphabet.indexOf(last) ^ 1]!
    assert.deepEqual(Buffer.from(s2!.slice(0, -1) + sameBytes, 'base64url'), Buffer.from(s2!, 'base64url'))
    refused(await verifyDpopProof(input([`${h2}.${p2}.${s2!.slice(0, -1)}${sameBytes}`], es256), deps), 'signature')
  })

  it('PS256 with a salt other than the hash\'s length, or an RSA signature shorter than the modulus, is refused', async () => {
    const ps = keys.PS256!
    const header = { typ: 'dpop+jwt', alg: 'PS256', jwk: ps.jwk }
    for (const saltLength of [0, 20, 33, constants.RSA_PSS_SALTLEN_MAX_SIGN]) {
      const proof = rawProof(header, claims(), 'sha256', ps.privateKey, { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength })
      refused(await verifyDpopProof(input([proof], ps), deps), 'signature')
    }
    const right = rawProof(header, claims(), 'sha256', ps.privateKey, { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 })
    assert.equal((await verifyDpopProof(input([right], ps), deps)).ok, true)
    // A signature whose first byte is zero, sent without it: the same number, one byte short.
    let proof: string
    do proof = rawProof(header, claims(), 'sha256', ps.privateKey, { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 })
    while (Buffer.from(proof.split('.')[2]!, 'base64url')[0] !== 0)
    const [h, p, s] = proof.split('.')
    refused(await verifyDpopProof(input([`${h}.${p}.${Buffer.from(s!, 'base64url').subarray(1).toString('base64url')}`], ps), deps), 'signature')
  })

  it('a header or claims that are not UTF-8 are malformed, not read with a replacement character', async () => {
    const key = keys.ES256!
    const [h, , s] = (await makeProof(key, claims())).split('.')
    const json = Buffer.from(JSON.stringify(claims()))
    const broken = Buffer.concat([json.subarray(0, -1), Buffer.from([0x2c, 0x22, 0x78, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])])
    refused(await verifyDpopProof(input([`${h}.${broken.toString('base64url')}.${s}`], key), deps), 'malformed')
  })
})

// RFC 9449 section 4.3, the claims half: htm, htu, iat, jti and its replay (on the same store and on another
// instance's), ath, the key's thumbprint against the token's dpop_jkt, and the server's nonces.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { before, describe, it } from 'node:test'
import { databaseJtiStore, purgeExpiredJtis } from '../../../src/modules/credentials/dpop/jti-store.ts'
import { makeDpopNonces } from '../../../src/modules/credentials/dpop/nonces.ts'
import { verifyDpopProof, type DpopProofInput, type DpopResult, type DpopVerifierDeps } from '../../../src/modules/credentials/dpop/proof.ts'
import { newToken, tokenHash } from '../../../src/modules/credentials/token-format.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'
import { athOf, goodClaims, makeKey, makeProof, testClock, type ProofClaims, type TestKey } from './dpop-keys.ts'

const URL_CONTA = 'https://api.factoring.example/api/conta'

describe('a DPoP proof: claims, replay and nonces', () => {
  const tdb = useTestDatabase()
  const clock = testClock('2026-11-23T12:00:30Z')
  const nonces = makeDpopNonces({ key: randomBytes(32), clock, stepSeconds: 60 })
  const token = newToken('pat')
  let deps: DpopVerifierDeps
  let key: TestKey

  before(async () => {
    deps = { clock, nonces, jtis: databaseJtiStore(tdb.db) }
    key = await makeKey('ES256')
  })

  const input = (proof: string, over: Partial<DpopProofInput> = {}): DpopProofInput =>
    ({ proofs: [proof], method: 'GET', htu: URL_CONTA, accessTokenDigest: tokenHash(token), dpopJkt: key.jkt, ...over })
  const claims = (over: ProofClaims = {}) => ({ ...goodClaims(clock, 'GET', URL_CONTA, token, nonces.currentNonce()), ...over })
  const verify = async (c: ProofClaims, over: Partial<DpopProofInput> = {}) => verifyDpopProof(input(await makeProof(key, c), over), deps)
  const refused = (result: DpopResult, check: string, error = 'invalid_dpop_proof') => {
    assert.equal(result.ok, false, `expected a refusal for ${check}`)
    if (!result.ok) assert.deepEqual([result.check, result.error], [check, error])
  }

  it('htm must be the request method, exactly', async () => {
    refused(await verify(claims({ htm: 'POST' })), 'htm')
    refused(await verify(claims({ htm: 'get' })), 'htm')
    refused(await verify(claims({ htm: undefined })), 'htm')
    assert.equal((await verify(claims({ htm: 'DELETE' }), { method: 'DELETE' })).ok, true)
  })

  it('htu must name the URL called: another path, host, port or scheme is refused', async () => {
    for (const htu of ['https://api.factoring.example/api/conta/tokens', 'https://api.factoring.example/api', 'https://other.example/api/conta',
      'http://api.factoring.example/api/conta', 'https://api.factoring.example:8443/api/conta', '/api/conta', 'not a url',
      'ftp://api.factoring.example/api/conta', 'https://user:pw@api.factoring.example/api/conta', 42, undefined]) {
      refused(await verify(claims({ htu })), 'htu')
    }
  })

  it('htu is compared without its query or fragment, after RFC 3986 normalisation', async () => {
    const same = ['https://api.factoring.example/api/conta?pagina=2', 'https://api.factoring.example/api/conta#x',
      'HTTPS://API.Factoring.Example:443/api/conta', 'https://api.factoring.example/api/./x/../conta',
      'https://api.factoring.example/api/%63onta', 'https://api.factoring.example/api/conta?']
    for (const htu of same) assert.equal((await verify(claims({ htu }))).ok, true, htu)
    // The server's side is normalised the same way, and a reserved character stays escaped.
    assert.equal((await verify(claims({ htu: 'https://api.factoring.example/api/a%2fb' }),
      { htu: 'https://api.factoring.example/api/a%2Fb?q=1' })).ok, true)
    refused(await verify(claims({ htu: 'https://api.factoring.example/api/a/b' }), { htu: 'https://api.factoring.example/api/a%2Fb' }), 'htu')
  })

  it('iat must be within the window: 60 s back, 5 s ahead', async () => {
    const now = Math.floor(clock.now().getTime() / 1000)
    refused(await verify(claims({ iat: now - 61 })), 'iat_too_old')
    refused(await verify(claims({ iat: now + 6 })), 'iat_in_future')
    assert.equal((await verify(claims({ iat: now - 60 }))).ok, true)
    assert.equal((await verify(claims({ iat: now + 5 }))).ok, true)
    for (const iat of [undefined, String(now), null]) refused(await verify(claims({ iat })), 'iat')
  })

  it('jti must be present, a non-empty string of reasonable length', async () => {
    for (const jti of [undefined, '', 123, 'x'.repeat(257)]) refused(await verify(claims({ jti })), 'jti')
  })

  it('a jti is accepted once: a replay is refused on the same store and on another instance\'s store', async () => {
    const proof = await makeProof(key, claims())
    assert.equal((await verifyDpopProof(input(proof), deps)).ok, true)
    refused(await verifyDpopProof(input(proof), deps), 'jti_replayed')
    const secondInstance = { ...deps, jtis: databaseJtiStore(tdb.db) }
    refused(await verifyDpopProof(input(proof), secondInstance), 'jti_replayed')
    // A new proof with the same jti, signed again, is the same replay.
    const jti = JSON.parse(Buffer.from(proof.split('.')[1]!, 'base64url').toString()).jti
    refused(await verify(claims({ jti })), 'jti_replayed')
    // A jti is unique per key: another key may use the same one.
    const other = await makeKey('EdDSA')
    const result = await verifyDpopProof(input(await makeProof(other, claims({ jti })), { dpopJkt: other.jkt }), deps)
    assert.equal(result.ok, true)
  })

  it('only a proof that passed every check spends its jti: refused ones, forged signatures included, leave it usable', async () => {
    const jti = 'a-jti-tried-first-with-bad-proofs'
    refused(await verify(claims({ jti, htm: 'POST' })), 'htm')
    const other = await makeKey('ES256')
    refused(await verifyDpopProof(input(await makeProof(key, claims({ jti }), { signWith: other.privateKey })), deps), 'signature')
    assert.equal((await verify(claims({ jti }))).ok, true)
  })

  it('ath must be the SHA-256 of the token presented', async () => {
    refused(await verify(claims({ ath: undefined })), 'ath')
    refused(await verify(claims({ ath: athOf(newToken('pat')) })), 'ath')
    refused(await verify(claims({ ath: athOf(token).toUpperCase() })), 'ath')
  })

  it('the key must be the one the token is bound to', async () => {
    const other = await makeKey('ES256')
    refused(await verifyDpopProof(input(await makeProof(other, claims())), deps), 'jkt')
  })

  it('a proof without a nonce asks for one: use_dpop_nonce with the current nonce', async () => {
    const result = await verify(claims({ nonce: undefined }))
    refused(result, 'nonce_missing', 'use_dpop_nonce')
    assert.equal(!result.ok && result.nonce, nonces.currentNonce())
    const retried = await verify(claims({ nonce: !result.ok ? result.nonce : '' }))
    assert.equal(retried.ok, true)
  })

  it('a forged or stale nonce is refused with use_dpop_nonce; one of the previous step still passes, with the next one', async () => {
    refused(await verify(claims({ nonce: 'made-up' })), 'nonce_invalid', 'use_dpop_nonce')
    refused(await verify(claims({ nonce: 42 })), 'nonce_invalid', 'use_dpop_nonce')
    const issued = nonces.currentNonce()
    clock.advance(60)
    const previous = await verify(claims({ nonce: issued }))
    assert.equal(previous.ok, true)
    assert.equal(previous.ok && previous.nextNonce, nonces.currentNonce())
    assert.notEqual(nonces.currentNonce(), issued)
    clock.advance(60)
    const stale = await verify(claims({ nonce: issued }))
    refused(stale, 'nonce_invalid', 'use_dpop_nonce')
    assert.equal(!stale.ok && stale.nonce, nonces.currentNonce())
  })

  it('a jti is remembered as long as its proof could still pass: after the purge, the last moment\'s replay is refused', async () => {
    // iat at the edge of the future allowance, replayed at the edge of the age allowance: only the replay cache refuses it.
    const c = claims({ iat: Math.floor(clock.now().getTime() / 1000) + 5, jti: randomBytes(12).toString('base64url') })
    const proof = await makeProof(key, c)
    assert.equal((await verifyDpopProof(input(proof), deps)).ok, true)
    clock.advance(64)
    await purgeExpiredJtis(tdb.db.orm, clock.now())
    refused(await verifyDpopProof(input(proof), deps), 'jti_replayed')
  })
})

// scripts/dpop-proof.mjs as a reader runs it: a key saved 0600 and never overwritten, its thumbprint, and proofs
// that the service's own verifier accepts for that key, token, URL and nonce.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader } from 'jose'
import { databaseJtiStore } from '../../../src/modules/credentials/dpop/jti-store.ts'
import { makeDpopNonces } from '../../../src/modules/credentials/dpop/nonces.ts'
import { verifyDpopProof, type DpopVerifierDeps } from '../../../src/modules/credentials/dpop/proof.ts'
import { newToken, tokenHash } from '../../../src/modules/credentials/token-format.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'
import { tempDir } from '../../helpers/temp.ts'

const SCRIPT = join(import.meta.dirname, '../../../scripts/dpop-proof.mjs')
const URL_CONTA = 'http://127.0.0.1:3000/api/conta'

type Run = { code: number, stdout: string, stderr: string }
async function run(...args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [SCRIPT, ...args])
    return { code: 0, stdout, stderr }
  } catch (err) {
    const e = err as { code: number, stdout: string, stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

describe('scripts/dpop-proof.mjs', () => {
  const tdb = useTestDatabase()
  const nonces = makeDpopNonces({ key: randomBytes(32), clock: { now: () => new Date() } })
  let deps: DpopVerifierDeps
  let dir: string
  before(() => {
    deps = { clock: { now: () => new Date() }, nonces, jtis: databaseJtiStore(tdb.db) }
    dir = tempDir('dpop-script')
  })

  for (const alg of ['ES256', 'EdDSA', 'PS256']) {
    it(`${alg}: makes a private key file, prints its thumbprint, and proofs the verifier accepts`, async () => {
      const file = join(dir, `key-${alg}.json`)
      const made = await run('key', file, '--alg', alg)
      assert.equal(made.code, 0, made.stderr)
      const jkt = made.stdout.trim()
      assert.match(jkt, /^[A-Za-z0-9_-]{43}$/)
      assert.equal(statSync(file).mode & 0o777, 0o600)
      const saved = JSON.parse(readFileSync(file, 'utf8'))
      assert.equal(typeof saved.d, 'string', 'the file holds the private key')
      assert.equal(await calculateJwkThumbprint(saved), jkt)
      assert.equal((await run('thumbprint', file)).stdout.trim(), jkt)

      const token = newToken('pat')
      const nonce = nonces.currentNonce()
      const printed = await run('proof', file, 'GET', `${URL_CONTA}?pagina=2#topo`, '--token', token, '--nonce', nonce)
      assert.equal(printed.code, 0, printed.stderr)
      const proof = printed.stdout.trim()
      const header = decodeProtectedHeader(proof)
      assert.deepEqual([header.typ, header.alg], ['dpop+jwt', alg])
      assert.equal(header.jwk && 'd' in header.jwk, false, 'no private member in the proof')
      assert.equal(decodeJwt(proof).htu, URL_CONTA, 'the query and fragment are left out')
      const input = { proofs: [proof], method: 'GET', htu: URL_CONTA, accessTokenDigest: tokenHash(token), dpopJkt: jkt }
      const result = await verifyDpopProof(input, deps)
      assert.equal(result.ok, true, JSON.stringify(result))
      assert.equal(result.ok && result.jkt, jkt)
    })
  }

  it('without --nonce the proof is answered use_dpop_nonce; without --token it fails ath', async () => {
    const file = join(dir, 'key-plain.json')
    const jkt = (await run('key', file)).stdout.trim()
    const token = newToken('pat')
    const noNonce = (await run('proof', file, 'POST', URL_CONTA, '--token', token)).stdout.trim()
    const asked = await verifyDpopProof({ proofs: [noNonce], method: 'POST', htu: URL_CONTA, accessTokenDigest: tokenHash(token), dpopJkt: jkt }, deps)
    assert.deepEqual(asked.ok ? undefined : [asked.check, asked.error], ['nonce_missing', 'use_dpop_nonce'])
    const noToken = (await run('proof', file, 'POST', URL_CONTA, '--nonce', nonces.currentNonce())).stdout.trim()
    const refused = await verifyDpopProof({ proofs: [noToken], method: 'POST', htu: URL_CONTA, accessTokenDigest: tokenHash(token), dpopJkt: jkt }, deps)
    assert.equal(refused.ok ? undefined : refused.check, 'ath')
  })

  it('never overwrites a key file, and says what is wrong with exit code 2', async () => {
    const file = join(dir, 'key-kept.json')
    assert.equal((await run('key', file)).code, 0)
    const before = readFileSync(file, 'utf8')
    const again = await run('key', file)
    assert.equal(again.code, 2)
    assert.match(again.stderr, /already exists/)
    assert.equal(readFileSync(file, 'utf8'), before)
    for (const args of [[], ['key'], ['key', join(dir, 'x.json'), '--alg', 'HS256'], ['proof', file, 'GET'], ['proof', file, 'GET', '/api/conta'],
      ['proof', join(dir, 'missing.json'), 'GET', URL_CONTA], ['thumbprint', SCRIPT], ['--bogus']]) {
      const result = await run(...args)
      assert.equal(result.code, 2, args.join(' '))
      assert.ok(result.stderr.trim().length > 0, args.join(' '))
      assert.equal(result.stdout, '', args.join(' '))
    }
  })
})

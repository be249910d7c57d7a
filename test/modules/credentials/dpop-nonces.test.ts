// Stateless DPoP nonces: an HMAC of the time step under a key derived from the installation's secret, which every
// instance reads from the database, so a nonce one instance issued is valid on all.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import { DPOP_NONCE_LABEL, makeDpopNonces } from '../../../src/modules/credentials/dpop/nonces.ts'
import { readInstallationSecret } from '../../../src/modules/credentials/installation-secret.ts'
import { derivedKey } from '../../../src/platform/lib/derived-key.ts'
import { createTestDatabase } from '../../helpers/database.ts'
import { defer } from '../../helpers/fixture.ts'
import { testClock } from './dpop-keys.ts'

// RFC 9449 section 8.1: nonce = 1*NQCHAR (printable ASCII without '"' and '\').
const NQCHARS = /^[\x21\x23-\x5B\x5D-\x7E]+$/

describe('DPoP nonces', () => {
  it('one nonce per 60 s step, in the syntax RFC 9449 allows', () => {
    const clock = testClock('2026-11-23T12:00:00Z')
    const nonces = makeDpopNonces({ key: randomBytes(32), clock })
    const first = nonces.currentNonce()
    assert.match(first, NQCHARS)
    assert.match(first, /^n[A-Za-z0-9_-]{43}$/)
    clock.set('2026-11-23T12:00:59.999Z')
    assert.equal(nonces.currentNonce(), first)
    clock.set('2026-11-23T12:01:00Z')
    assert.notEqual(nonces.currentNonce(), first)
  })

  it('never starts with a dash, which a command line would take for an option (`--nonce -Xy…`), over a thousand steps', () => {
    const clock = testClock('2026-11-23T12:00:00Z')
    const nonces = makeDpopNonces({ key: randomBytes(32), clock })
    const leading = new Set<string>()
    for (let step = 0; step < 1000; step++) {
      clock.set(new Date(Date.parse('2026-11-23T12:00:00Z') + step * 60_000).toISOString())
      leading.add(nonces.currentNonce()[0]!)
    }
    assert.deepEqual([...leading], ['n'])
  })

  it('accepts the current and the previous step, not older, and the next only in its last 5 s', () => {
    const clock = testClock('2026-11-23T12:00:00Z')
    const nonces = makeDpopNonces({ key: randomBytes(32), clock })
    const at = (iso: string) => { clock.set(iso); return nonces.currentNonce() }
    const n0 = at('2026-11-23T12:00:00Z')
    const n1 = at('2026-11-23T12:01:00Z')
    const n2 = at('2026-11-23T12:02:00Z')
    clock.set('2026-11-23T12:01:30Z')
    assert.equal(nonces.isValid(n1), true, 'current')
    assert.equal(nonces.isValid(n0), true, 'previous')
    assert.equal(nonces.isValid(n2), false, 'next, 30 s before it begins')
    clock.set('2026-11-23T12:01:55Z')
    assert.equal(nonces.isValid(n2), true, 'next, 5 s before it begins (another instance\'s clock is ahead)')
    clock.set('2026-11-23T12:02:00Z')
    assert.equal(nonces.isValid(n0), false, 'two steps old')
    for (const bad of ['', 'x', n1.slice(1), `${n1}=`, n1.toLowerCase() === n1 ? n1.toUpperCase() : n1.toLowerCase()]) {
      assert.equal(nonces.isValid(bad), false, bad)
    }
  })

  it('instances sharing the key accept each other\'s nonces; another key\'s are refused', () => {
    const clock = testClock('2026-11-23T12:00:00Z')
    const key = randomBytes(32)
    const a = makeDpopNonces({ key, clock })
    const b = makeDpopNonces({ key: Buffer.from(key), clock })
    const stranger = makeDpopNonces({ key: randomBytes(32), clock })
    assert.equal(b.isValid(a.currentNonce()), true)
    assert.equal(a.isValid(b.currentNonce()), true)
    assert.equal(a.isValid(stranger.currentNonce()), false)
  })

  it('refuses a key shorter than 32 bytes', () => {
    assert.throws(() => makeDpopNonces({ key: randomBytes(16), clock: testClock('2026-11-23T12:00:00Z') }), TypeError)
  })

  it('the key comes from the installation\'s secret: the same on every instance of a database, another on another database', async (t) => {
    const one = await createTestDatabase()
    defer(t, () => one.dispose())
    const two = await createTestDatabase()
    defer(t, () => two.dispose())
    const secret = await readInstallationSecret(one.db.orm)
    assert.match(secret, /^[0-9a-f]{64}$/)
    assert.equal(await readInstallationSecret(one.db.orm), secret)
    assert.notEqual(await readInstallationSecret(two.db.orm), secret)
    const clock = testClock('2026-11-23T12:00:00Z')
    const instanceA = makeDpopNonces({ key: derivedKey(secret, DPOP_NONCE_LABEL), clock })
    const instanceB = makeDpopNonces({ key: derivedKey(await readInstallationSecret(one.db.orm), DPOP_NONCE_LABEL), clock })
    assert.equal(instanceB.isValid(instanceA.currentNonce()), true)
    // A key derived for another purpose (the contact form's tokens) makes nonces this one refuses.
    const otherPurpose = makeDpopNonces({ key: derivedKey(secret, 'formulario-contato/token/v1'), clock })
    assert.equal(instanceA.isValid(otherPurpose.currentNonce()), false)
  })
})

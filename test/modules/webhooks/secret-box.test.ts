// The endpoints' secrets at rest (issue 34): AES-256-GCM under the service's key, bound to the endpoint they belong
// to. A value opens only with its own key and on its own endpoint's row; a value changed by one bit does not open.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import { newSigningSecret, secretBox } from '../../../src/modules/webhooks/secret-box.ts'

const OWNER = { clienteId: '6f0c1b2e-1d3a-4c5b-8e7f-9a0b1c2d3e4f', webhookId: '0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e' }

describe('webhook secrets at rest', () => {
  it('opens with its key on its own endpoint, and nowhere else', () => {
    const key = randomBytes(32)
    const box = secretBox(key)
    const secret = newSigningSecret()
    const sealed = box.seal(secret, OWNER)
    assert.match(sealed, /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/)
    assert.ok(!sealed.includes(secret.slice(6)), 'the secret is not in the sealed value')
    assert.notEqual(box.seal(secret, OWNER), sealed, 'a fresh nonce each time')
    assert.equal(box.open(sealed, OWNER), secret)
    // Copied onto another endpoint's row, or another customer's: the associated data differs, the tag fails.
    assert.throws(() => box.open(sealed, { ...OWNER, webhookId: '1b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e' }))
    assert.throws(() => box.open(sealed, { ...OWNER, clienteId: '7f0c1b2e-1d3a-4c5b-8e7f-9a0b1c2d3e4f' }))
    // Another key (WEBHOOK_SECRET_KEY changed): it does not open.
    assert.throws(() => secretBox(randomBytes(32)).open(sealed, OWNER))
    // One bit of the ciphertext changed.
    const [v, iv, tag, body] = sealed.split('.') as [string, string, string, string]
    const flipped = Buffer.from(body, 'base64url')
    flipped[0]! ^= 1
    assert.throws(() => box.open([v, iv, tag, flipped.toString('base64url')].join('.'), OWNER))
    assert.throws(() => box.open('v2.a.b.c', OWNER))
    assert.throws(() => secretBox(randomBytes(16)), 'a key of 32 bytes only')
  })
})

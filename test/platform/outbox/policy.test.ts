import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { messageIdFor } from '../../../src/platform/outbox/message-id.ts'
import { headerSafe } from '../../../src/platform/outbox/mime-safe.ts'
import { classifyFailure, retryDelayMs } from '../../../src/platform/outbox/policy.ts'

describe('retry policy', () => {
  const cfg = { retryBaseMs: 60_000, retryMaxMs: 6 * 3_600_000 }
  it('doubles from the base, with jitter between half and all of it, capped', () => {
    assert.equal(retryDelayMs(1, cfg, () => 1), 60_000)
    assert.equal(retryDelayMs(1, cfg, () => 0), 30_000)
    assert.equal(retryDelayMs(3, cfg, () => 1), 240_000)
    assert.equal(retryDelayMs(20, cfg, () => 1), 6 * 3_600_000)
  })
  it('twelve tries with the defaults spread over most of a day', () => {
    let total = 0
    for (let n = 1; n < 12; n++) total += retryDelayMs(n, cfg, () => 1)
    assert.ok(total > 12 * 3_600_000 && total < 30 * 3_600_000, `${total / 3_600_000} h`)
  })
  it('5xx for the recipient or message is permanent; 4xx, connection errors and 5xx at login are not', () => {
    assert.equal(classifyFailure(Object.assign(new Error('x'), { responseCode: 550, command: 'RCPT TO', response: '550 5.1.1 no such user' })).permanent, true)
    assert.equal(classifyFailure(Object.assign(new Error('x'), { responseCode: 554, command: 'DATA' })).permanent, true)
    assert.equal(classifyFailure(Object.assign(new Error('x'), { responseCode: 451, command: 'DATA' })).permanent, false)
    assert.equal(classifyFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })).permanent, false)
    assert.equal(classifyFailure(Object.assign(new Error('Invalid login'), { responseCode: 535, command: 'AUTH PLAIN', code: 'EAUTH' })).permanent, false)
  })
})

describe('message headers', () => {
  it('headerSafe removes CR, LF and control characters and folds white space', () => {
    assert.equal(headerSafe('Ana\r\nBcc: x@y.z\u0000\u0007  fim'), 'Ana Bcc: x@y.z fim')
    assert.equal(headerSafe('a\u2028b'), 'a b')
    assert.equal([...headerSafe('é'.repeat(500), 10)].length, 10)
  })
  it('Message-ID comes from the protocolo and the sender domain, so a retry is the same message', () => {
    assert.equal(messageIdFor('CT-20261121-ABCDEFGH', 'Contato <contato@fomento.example>'), '<ct-20261121-abcdefgh@fomento.example>')
    assert.equal(messageIdFor('CT-1', 'x@y.com.br'), '<ct-1@y.com.br>')
  })
})

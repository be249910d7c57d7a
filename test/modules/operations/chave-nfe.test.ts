// The NF-e key's check digit against published keys: the integration manual's example (v4.0.1, remainder 6) and
// an NFC-e key from a SEFAZ technical note whose remainder is 10 (check digit 1).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isChaveNfe } from '../../../src/modules/operations/chave-nfe.ts'

const MANUAL = '52060433009911002506550120000007800267301615'
const REMAINDER_10 = '43150108287693000157651010000000971000001251'

describe('chave de acesso da NF-e', () => {
  it('accepts the published keys', () => {
    assert.equal(isChaveNfe(MANUAL), true)
    assert.equal(isChaveNfe(REMAINDER_10), true)
  })

  it('refuses each published key with any other check digit', () => {
    for (const key of [MANUAL, REMAINDER_10]) {
      for (let d = 0; d <= 9; d++) {
        const changed = key.slice(0, 43) + String(d)
        if (changed !== key) assert.equal(isChaveNfe(changed), false, changed)
      }
    }
  })

  it('refuses a transposition of two body digits, a letter, 43 or 45 digits', () => {
    assert.equal(isChaveNfe(MANUAL[1]! + MANUAL[0]! + MANUAL.slice(2)), false)
    for (const bad of [MANUAL.slice(0, 43), MANUAL + '0', 'A' + MANUAL.slice(1), '']) assert.equal(isChaveNfe(bad), false, bad)
  })
})

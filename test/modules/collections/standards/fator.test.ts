// The fator de vencimento against FEBRABAN's published days (produto.md §3): 9999 on 2025-02-21, 1000 on
// 2025-02-22 and 1508 on 2026-07-15, 9999 again on 2049-10-13; and a factor read back near the day it is read.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { fatorVencimento, vencimentoDoFator } from '../../../../src/modules/collections/boleto/fator.ts'

describe('the fator de vencimento', () => {
  it('counts days from 1997-10-07 and starts again at 1000 on 2025-02-22', () => {
    assert.equal(fatorVencimento('2000-07-03'), 1000)
    assert.equal(fatorVencimento('2025-02-21'), 9999)
    assert.equal(fatorVencimento('2025-02-22'), 1000)
    assert.equal(fatorVencimento('2026-07-15'), 1508)
    assert.equal(fatorVencimento('2049-10-13'), 9999)
    assert.equal(fatorVencimento('2049-10-14'), 1000)
  })

  it('names no factor before 2000-07-03 and refuses what is not a day', () => {
    assert.throws(() => fatorVencimento('2000-07-02'), /before the first day/)
    assert.throws(() => fatorVencimento('2026-02-30'), /not a day/)
  })

  it('reads a factor back as the day nearest the day it is read', () => {
    assert.equal(vencimentoDoFator(1508, '2026-11-29'), '2026-07-15')
    assert.equal(vencimentoDoFator(9999, '2024-12-01'), '2025-02-21')
    assert.equal(vencimentoDoFator(1000, '2025-03-01'), '2025-02-22')
    assert.equal(vencimentoDoFator(1000, '2049-10-01'), '2049-10-14')
    assert.equal(vencimentoDoFator(9999, '2049-10-01'), '2049-10-13')
    assert.throws(() => vencimentoDoFator(999, '2026-11-29'), /not a fator/)
  })

  it('reads back every day it writes, over both cycles', () => {
    for (let d = Date.UTC(2001, 0, 1); d < Date.UTC(2060, 0, 1); d += 86_400_000 * 37) {
      const day = new Date(d).toISOString().slice(0, 10)
      assert.equal(vencimentoDoFator(fatorVencimento(day), day), day, day)
    }
  })
})

// Late charges recomputed by the service: worked by hand for the cases the rules name (a Saturday due date paid on
// Monday is on time; a consumer's fine capped at 2 %; a rate a month counts a thirtieth a day; half a centavo rounds
// up), and, for random charges, against decimal.js (an independent decimal library, used only in tests) computing
// the same rules another way.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Decimal } from 'decimal.js'
import { divergencia, encargosDevidos } from '../../../../src/modules/collections/encargos.ts'

describe('late charges', () => {
  it('are nothing for a payment on the due date, or on the next business day when the due date is not one', () => {
    const base = { valorCentavos: 100_000n, multa: '0.02', juros: { tipo: 'valor_dia' as const, centavos: 33n }, consumidor: false }
    assert.equal(encargosDevidos({ ...base, vencimento: '2026-12-15', pagoEm: '2026-12-15' }).totalCentavos, 0n)
    // 2026-12-19 is a Saturday: paid on Monday the 21st, on time.
    const saturday = encargosDevidos({ ...base, vencimento: '2026-12-19', pagoEm: '2026-12-21' })
    assert.deepEqual([saturday.vencimentoUtil, saturday.totalCentavos], ['2026-12-21', 0n])
    // 2026-12-25 (Christmas, a Friday): on time until Monday the 28th.
    assert.equal(encargosDevidos({ ...base, vencimento: '2026-12-25', pagoEm: '2026-12-28' }).totalCentavos, 0n)
    // Paid on Tuesday the 22nd: one day of interest, counted from the day after Monday, and the fine.
    const late = encargosDevidos({ ...base, vencimento: '2026-12-19', pagoEm: '2026-12-22' })
    assert.deepEqual([late.diasDeJuros, late.multaCentavos, late.jurosCentavos], [1, 2000n, 33n])
  })

  it('charge the fine once however late, and interest per calendar day', () => {
    const r = encargosDevidos({ vencimento: '2026-12-15', pagoEm: '2027-01-14', valorCentavos: 1_234_567n, multa: '0.02',
      juros: { tipo: 'taxa_mensal', taxa: '0.01' }, consumidor: false })
    // 30 days at 1 % a month on R$ 12.345,67: 12.345,67 × 0,01 = 123,4567 → 123,46; the fine 246,9134 → 246,91.
    assert.deepEqual([r.diasDeJuros, r.jurosCentavos, r.multaCentavos, r.totalCentavos], [30, 12_346n, 24_691n, 37_037n])
  })

  it('cap a consumer\'s fine at 2 % (CDC art. 52 §1º), not a company\'s', () => {
    const a = { vencimento: '2026-12-15', pagoEm: '2026-12-16', valorCentavos: 100_000n, multa: '0.10', juros: { tipo: 'isento' as const } }
    assert.equal(encargosDevidos({ ...a, consumidor: true }).multaCentavos, 2000n)
    assert.equal(encargosDevidos({ ...a, consumidor: false }).multaCentavos, 10_000n)
    assert.equal(encargosDevidos({ ...a, multa: '0.015', consumidor: true }).multaCentavos, 1500n, 'below the cap, as charged')
  })

  it('round half a centavo up', () => {
    // 2 % of R$ 0,25 is 0,5 centavo: 1 centavo. 2 % of R$ 0,24 is 0,48: 0.
    const a = { vencimento: '2026-12-15', pagoEm: '2026-12-16', multa: '0.02', juros: { tipo: 'isento' as const }, consumidor: false }
    assert.equal(encargosDevidos({ ...a, valorCentavos: 25n }).multaCentavos, 1n)
    assert.equal(encargosDevidos({ ...a, valorCentavos: 24n }).multaCentavos, 0n)
  })

  it('agree with decimal.js on random charges', () => {
    Decimal.set({ precision: 60, rounding: Decimal.ROUND_HALF_UP })
    let seed = 3
    const rnd = (n: number) => { seed = (seed * 16_807) % 2_147_483_647; return seed % n }
    for (let i = 0; i < 2000; i++) {
      const valor = BigInt(1 + rnd(500_000_000))
      const taxa = `0.${String(rnd(100_000)).padStart(5, '0')}`
      const multa = `0.${String(rnd(3000)).padStart(4, '0')}`
      const dias = 1 + rnd(400)
      const pagoEm = new Date(Date.UTC(2026, 11, 15) + dias * 86_400_000).toISOString().slice(0, 10)
      const consumidor = rnd(2) === 0
      const r = encargosDevidos({ vencimento: '2026-12-15', pagoEm, valorCentavos: valor, multa, juros: { tipo: 'taxa_mensal', taxa }, consumidor })
      const v = new Decimal(valor.toString())
      const m = Decimal.min(new Decimal(multa), consumidor ? new Decimal('0.02') : new Decimal(multa))
      assert.equal(r.multaCentavos.toString(), v.times(m).toDecimalPlaces(0).toFixed(0), `multa ${valor} ${multa}`)
      assert.equal(r.jurosCentavos.toString(), v.times(taxa).div(30).times(dias).toDecimalPlaces(0).toFixed(0), `juros ${valor} ${taxa} ${dias}`)
    }
  })

  it('list what the bank collected beyond or short of what was owed, and nothing when they agree', () => {
    const devido = encargosDevidos({ vencimento: '2026-12-15', pagoEm: '2026-12-18', valorCentavos: 100_000n, multa: '0.02',
      juros: { tipo: 'valor_dia', centavos: 33n }, consumidor: false })
    assert.equal(devido.totalCentavos, 2099n)
    assert.equal(divergencia(devido, 2099n), undefined)
    assert.deepEqual(divergencia(devido, 2000n), { devidoCentavos: 2099n, cobradoCentavos: 2000n, diferencaCentavos: -99n })
  })
})

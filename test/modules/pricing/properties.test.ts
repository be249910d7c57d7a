// Properties of the pricing over random títulos, dates and terms (fast-check), and a recomputation of every
// simples_30 line by another method: decimal.js at fifty digits, where the engine uses exact BigInt fractions.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { Decimal } from 'decimal.js'
import { addDays, daysBetween } from '../../../src/modules/calendar/civil-date.ts'
import { nextBusinessDay } from '../../../src/modules/calendar/business-days.ts'
import { price, pricingProblem, TIPOS_TITULO, type PricingInput, type Terms } from '../../../src/modules/pricing/engine.ts'
import { effectiveMonthlyRate, smallest } from '../../../src/modules/pricing/effective-rate.ts'
import { compoundDesagio } from '../../../src/modules/pricing/exact.ts'
import { SPEC_IOF } from './example.ts'
import { acquisitionLines } from '../../../src/modules/operations/flow/accept.ts'
import { reversed } from '../../../src/modules/ledger/post.ts'
import type { Quote } from '../../../src/modules/operations/store.ts'

const CEDENTE = '0b5e8c1e-4f7a-4d2b-9c3e-2a1f6d8e7b90'

const rate = (maxMillionths: number) => fc.integer({ min: 1, max: maxMillionths }).map((m) => (m / 1e6).toFixed(6).replace(/0+$/, '').replace(/\.$/, '.0'))

const termsArb: fc.Arbitrary<Terms> = fc.record({
  base: fc.constantFrom('simples_30' as const, 'composta_30' as const),
  taxaMensal: rate(200_000),
  taxaAdValorem: fc.oneof(fc.constant('0'), rate(20_000)),
  tarifaPorTituloCentavos: fc.bigInt({ min: 0n, max: 5_000n }),
  tacCentavos: fc.bigInt({ min: 0n, max: 50_000n }),
  diasFloat: fc.dictionary(fc.constantFrom(...TIPOS_TITULO), fc.integer({ min: 0, max: 10 })),
  iof: fc.constantFrom('calcular' as const, 'isento' as const),
})

const inputArb: fc.Arbitrary<PricingInput> = fc.record({
  dataOperacao: fc.integer({ min: 0, max: 900 }).map((k) => addDays('2025-07-16', k)),
  perfilIof: fc.constantFrom('pj' as const, 'pf' as const, 'pj_simples' as const, 'isento' as const),
  terms: termsArb,
  titulos: fc.array(fc.record({
    tipo: fc.constantFrom(...TIPOS_TITULO),
    prazo: fc.integer({ min: 1, max: 800 }),
    valorFaceCentavos: fc.bigInt({ min: 1n, max: 10_000_000_000n }),
    local: fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 3 }),
  }), { minLength: 1, maxLength: 15 }),
}).map(({ dataOperacao, titulos, ...rest }) => ({
  ...rest, dataOperacao, iofTable: SPEC_IOF,
  titulos: titulos.map(({ prazo, local, ...t }) => {
    const vencimento = addDays(dataOperacao, prazo)
    return { ...t, vencimento, feriadosLocais: new Set(local.map((k) => addDays(vencimento, k))) }
  }),
}))

describe('pricing: properties over random borderôs', () => {
  it('totals are the sums of the lines; face value = deságio + ad valorem + fees + tarifa de cadastro + IOF + net + compensations (balanced)', () => {
    let posted = 0
    // Some borderôs compensate a buy-back of the cedente's (issue 33): deducted from the net, credited back in the entry.
    const compensation = fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 2_000_000n }))
    fc.assert(fc.property(inputArb, compensation, (given, compensacoesCentavos) => {
      const input = { ...given, compensacoesCentavos }
      const q = price(input)
      const sum = (f: (l: typeof q.linhas[number]) => bigint) => q.linhas.reduce((s, l) => s + f(l), 0n)
      assert.equal(q.totais.valorFace, input.titulos.reduce((s, t) => s + t.valorFaceCentavos, 0n))
      assert.equal(q.totais.desagio, sum((l) => l.desagio))
      assert.equal(q.totais.adValorem, sum((l) => l.adValorem))
      assert.equal(q.totais.tarifas, sum((l) => l.tarifa))
      assert.equal(q.totais.iof, sum((l) => l.iof))
      assert.equal(q.totais.compensacoes, compensacoesCentavos)
      assert.equal(q.totais.valorLiquido, sum((l) => l.precoCompra) - q.totais.tac - compensacoesCentavos)
      const { valorFace, desagio, adValorem, tarifas, tac, iof, valorLiquido, compensacoes } = q.totais
      assert.equal(valorFace, desagio + adValorem + tarifas + tac + iof + valorLiquido + compensacoes)
      for (const l of q.linhas) assert.equal(l.iof, l.iofDiario + l.iofAdicional)
      // The entry an acceptance posts from these totals (only a viable quote is accepted): each line one side, never
      // negative, the sides equal; and its reversal (a cancellation) the same.
      if (pricingProblem(q)) return
      posted++
      const entry = acquisitionLines({ valorFaceCentavos: valorFace, desagioCentavos: desagio, adValoremCentavos: adValorem, tarifasCentavos: tarifas,
        tacCentavos: tac, iofCentavos: iof, valorLiquidoCentavos: valorLiquido, compensacoesCentavos: compensacoes } as Quote, CEDENTE)
      for (const l of entry) assert.ok((l.debito ?? 0n) >= 0n && (l.credito ?? 0n) >= 0n && (l.debito === undefined) !== (l.credito === undefined))
      assert.equal(entry.reduce((s, l) => s + (l.debito ?? 0n), 0n), entry.reduce((s, l) => s + (l.credito ?? 0n), 0n))
      assert.equal(entry.find((l) => l.conta === 'conta_grafica_cedentes')!.cedenteId, CEDENTE)
      const back = reversed(entry)
      assert.equal(back.reduce((s, l) => s + (l.debito ?? 0n), 0n), back.reduce((s, l) => s + (l.credito ?? 0n), 0n))
    }), { numRuns: 300 })
    assert.ok(posted >= 100, `${posted} of 300 borderôs viable: too few entries tried`)
  })

  it('simples_30 deságio ≥ composta_30 deságio on every line with n > 0', () => {
    fc.assert(fc.property(inputArb, (input) => {
      const simple = price({ ...input, terms: { ...input.terms, base: 'simples_30' } })
      const compound = price({ ...input, terms: { ...input.terms, base: 'composta_30' } })
      simple.linhas.forEach((l, k) => assert.ok(l.desagio >= compound.linhas[k]!.desagio, `line ${k}`))
    }), { numRuns: 200 })
  })

  it("IOF's day count never passes 365 and is counted to the contractual due date", () => {
    fc.assert(fc.property(inputArb, (input) => {
      price(input).linhas.forEach((l, k) => {
        assert.ok(l.diasIof <= 365)
        assert.equal(l.diasIof, Math.min(daysBetween(input.dataOperacao, input.titulos[k]!.vencimento), 365))
      })
    }), { numRuns: 200 })
  })

  it('a borderô is refused exactly when a line is not worth a positive price or the net amount is not positive', () => {
    fc.assert(fc.property(inputArb, (input) => {
      const q = price(input)
      const problem = pricingProblem(q)
      const firstBad = q.linhas.findIndex((l) => l.precoCompra <= 0n)
      if (firstBad >= 0) assert.deepEqual(problem, { motivo: 'preco_nao_positivo', indice: firstBad })
      else if (q.totais.valorLiquido <= 0n) assert.deepEqual(problem, { motivo: 'liquido_nao_positivo' })
      else assert.equal(problem, undefined)
    }), { numRuns: 200 })
  })

  it('a quote never changes when recomputed', () => {
    fc.assert(fc.property(inputArb, (input) => assert.deepEqual(price(input), price(input))), { numRuns: 100 })
  })

  // The engine computes these on BigInt; decimal.js at fifty digits (the kept library, another method) must agree.
  it('every simples_30 line, and the average term, equal a recomputation in decimal.js, rounded half up', () => {
    const D = Decimal.clone({ precision: 50 })
    const d = (x: bigint | number | string) => new D(x.toString())
    const round = (x: InstanceType<typeof D>) => BigInt(x.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(0))
    fc.assert(fc.property(inputArb, (input) => {
      const terms = { ...input.terms, base: 'simples_30' as const }
      const q = price({ ...input, terms })
      const totalFace = input.titulos.reduce((s, t) => s + t.valorFaceCentavos, 0n)
      const exempt = terms.iof === 'isento' || input.perfilIof === 'isento'
      const perfil = input.perfilIof === 'pj_simples' && totalFace > 3_000_000n ? 'pj' : input.perfilIof
      const row = SPEC_IOF.find((r) => r.perfil === perfil && r.vigenciaFim === null)
      let weighted = d(0)
      input.titulos.forEach((t, k) => {
        const line = q.linhas[k]!
        const util = nextBusinessDay(t.vencimento, t.feriadosLocais)
        const n = daysBetween(input.dataOperacao, util) + (terms.diasFloat[t.tipo] ?? 0)
        const vf = d(t.valorFaceCentavos)
        weighted = weighted.plus(vf.times(n))
        const desagio = round(vf.times(terms.taxaMensal).times(n).dividedBy(30))
        assert.equal(line.desagio, desagio)
        assert.equal(line.adValorem, round(vf.times(terms.taxaAdValorem)))
        if (exempt) return assert.equal(line.iof, 0n)
        const base = d(t.valorFaceCentavos - desagio)
        const days = Math.min(daysBetween(input.dataOperacao, t.vencimento), 365)
        assert.equal(line.iofDiario, round(base.times(row!.taxaDiaria).times(days)))
        assert.equal(line.iofAdicional, round(base.times(row!.taxaAdicional)))
      })
      assert.equal(q.prazoMedioDias, weighted.dividedBy(totalFace.toString()).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2))
    }), { numRuns: 300 })
  })

  // decimal.js at a hundred digits, the power taken directly (another method than the engine's integer root and
  // powers): the two agree on every line whose value is not within 10⁻⁴⁰ of half a centavo, where a hundred
  // digits could not tell which way it rounds.
  it('every composta_30 deságio equals decimal.js at a hundred digits rounded half up (fast-check)', () => {
    const D = Decimal.clone({ precision: 100 })
    // Rates of up to twelve places, as a product may have them.
    const twelvePlaces = fc.bigInt({ min: 1n, max: 999_999_999_999n }).map((m) => `0.${m.toString().padStart(12, '0')}`.replace(/0+$/, ''))
    fc.assert(fc.property(fc.oneof(rate(999_999), twelvePlaces), fc.bigInt({ min: 1n, max: 9_000_000_000_000_000n }), fc.integer({ min: 0, max: 3_700 }),
      (taxa, vf, n) => {
        const exact = new D(vf.toString()).times(new D(1).minus(new D(taxa).plus(1).pow(new D(-n).dividedBy(30))))
        const fraction = exact.minus(exact.floor())
        fc.pre(fraction.minus(0.5).abs().gt('1e-40'))
        assert.equal(compoundDesagio(taxa)(vf, n), BigInt(exact.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(0)))
      }), { numRuns: 400 })
  })

  // Where the power is rational the value can be exactly half a centavo: half up, as every rounding of the product.
  it('composta_30 at an exact half centavo rounds up; a rational power is computed as a fraction', () => {
    // A month at 20 %: 3 × (1 − 1/1.2) = 0.5.
    assert.equal(compoundDesagio('0.2')(3n, 30), 1n)
    // Half a month at 44 % (1.44 = 1.2²): 3 × (1 − 1/1.2) = 0.5; a month and a half: 108 × (1 − 1/1.728) = 45.5.
    assert.equal(compoundDesagio('0.44')(3n, 15), 1n)
    assert.equal(compoundDesagio('0.44')(108n, 45), 46n)
    assert.equal(compoundDesagio('0.44')(107n, 45), 45n) // 45.078…
    // Ten days at 33.1 % (1.331 = 1.1³): 1,100 × (1 − 1/1.1) = 100 exactly.
    assert.equal(compoundDesagio('0.331')(1_100n, 10), 100n)
    assert.equal(compoundDesagio('0.035')(1_000_000n, 0), 0n)
  })

  it('a half centavo rounds up, exactly: on BigInt no digit is lost before the rounding', () => {
    // A day at 10 % a month on 150 centavos: 150 × 0.1 × 1 / 30 = 0.5 centavo exactly, which rounds to 1.
    const terms: Terms = {
      base: 'simples_30', taxaMensal: '0.1', taxaAdValorem: '0.005', tarifaPorTituloCentavos: 0n, tacCentavos: 0n, diasFloat: {}, iof: 'isento',
    }
    const q = price({ dataOperacao: '2026-11-25', perfilIof: 'pj', terms, iofTable: SPEC_IOF,
      titulos: [{ tipo: 'cheque', vencimento: '2026-11-26', valorFaceCentavos: 150n, feriadosLocais: new Set() }] })
    assert.equal(q.linhas[0]!.desagio, 1n)
    // 150 × 0.005 = 0.75 → 1; 100 × 0.005 = 0.5 → 1.
    assert.equal(q.linhas[0]!.adValorem, 1n)
    const half = price({ dataOperacao: '2026-11-25', perfilIof: 'pj', terms, iofTable: SPEC_IOF,
      titulos: [{ tipo: 'cheque', vencimento: '2026-11-26', valorFaceCentavos: 100n, feriadosLocais: new Set() }] })
    assert.equal(half.linhas[0]!.adValorem, 1n)
    assert.equal(half.linhas[0]!.desagio, 0n) // 100 × 0.1 / 30 = 0.333…
  })

  it('the effective monthly rate solves Σ VF / (1 + r)^(n/30) = net to its six decimals', () => {
    fc.assert(fc.property(inputArb, (input) => {
      const q = price(input)
      const pv = (x: number) => q.linhas.reduce((s, l, k) => s + Number(input.titulos[k]!.valorFaceCentavos) / (1 + x) ** (l.diasDesconto / 30), 0)
      const net = Number(q.totais.valorLiquido)
      // No rate is given only when even a million a month leaves the face values worth more than the net amount.
      if (q.taxaEfetivaMensal === null) return assert.ok(pv(1e6) > net, 'a rate was within reach')
      const r = Number(q.taxaEfetivaMensal)
      // Present value falls as the rate rises: the root lies within half a unit of the sixth decimal.
      assert.ok(pv(r - 5.0001e-7) >= net * (1 - 1e-12), `below ${r}`)
      assert.ok(r === 0 || pv(r + 5.0001e-7) <= net * (1 + 1e-12), `above ${r}`)
    }), { numRuns: 200 })
  })
})

describe('the effective monthly rate', () => {
  // Recomputed by another method: Σ VF·(1+r)^(−d/30) in binary floating point with Math.pow, a term at a time, no
  // decimal library and no BigInt. The six places are right when the root lies within half a millionth of them.
  it('brackets the root of Σ VF / (1 + r)^(d/30) = net within half a unit of its sixth place, for random flows (fast-check)', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ valor: fc.bigInt({ min: 1n, max: 10_000_000_000n }), dias: fc.integer({ min: 1, max: 800 }) }), { minLength: 1, maxLength: 60 }),
      // A net of 10 % to 99.9 % of the face: a borderô of 0.05 % puts the root past 10⁵ a month.
      fc.integer({ min: 100_000, max: 999_000 }),
      (flows, netPerMille) => {
        const face = flows.reduce((s, f) => s + f.valor, 0n)
        const net = face * BigInt(netPerMille) / 1_000_000n
        fc.pre(net > 0n)
        const r = effectiveMonthlyRate(flows, net)
        const pv = (x: number) => flows.reduce((s, f) => s + Number(f.valor) * Math.pow(1 + x, -f.dias / 30), 0)
        // null only for no rate any operation has: a million a month still leaves value over.
        if (r === null) return assert.ok(pv(1e6) > Number(net), 'null with a root below 10⁶')
        assert.match(r, /^\d+\.\d{6}$/)
        const rate = Number(r)
        assert.ok(pv(rate - 5.0001e-7) >= Number(net) * (1 - 1e-12), `below ${r}`)
        assert.ok(rate === 0 || pv(rate + 5.0001e-7) <= Number(net) * (1 + 1e-12), `above ${r}`)
      },
    ), { numRuns: 300 })
  })

  // Where the power is rational the root can fall exactly on a midpoint: half up, as every rounding of the product.
  it('a root exactly half a millionth past its sixth place rounds up', () => {
    // 2,000,001 / (1 + r) = 2,000,000 at thirty days: r = 0.0000005.
    assert.equal(effectiveMonthlyRate([{ valor: 2_000_001n, dias: 30 }], 2_000_000n), '0.000001')
    // 1.0100005² = 1.02010101000025 at sixty days.
    assert.equal(effectiveMonthlyRate([{ valor: 102_010_101_000_025n, dias: 60 }], 100_000_000_000_000n), '0.010001')
    // A centavo either side of the tie moves the root off it, and the rounding with it.
    assert.equal(effectiveMonthlyRate([{ valor: 102_010_101_000_024n, dias: 60 }], 100_000_000_000_000n), '0.010000')
    assert.equal(effectiveMonthlyRate([{ valor: 102_010_101_000_026n, dias: 60 }], 100_000_000_000_000n), '0.010001')
  })

  it('no rate past a million a month, none for a net that is not positive, and 0 when nothing is discounted', () => {
    assert.equal(effectiveMonthlyRate([{ valor: 1_000_000n, dias: 15 }], 1n), null)
    // 1,000,000 / (1 + r) = 1 at thirty days: r = 999,999, just inside.
    assert.equal(effectiveMonthlyRate([{ valor: 1_000_000n, dias: 30 }], 1n), '999999.000000')
    assert.equal(effectiveMonthlyRate([{ valor: 1_000_000n, dias: 30 }], 0n), null)
    assert.equal(effectiveMonthlyRate([{ valor: 1_000_000n, dias: 30 }], 1_000_000n), '0.000000')
    assert.equal(effectiveMonthlyRate([{ valor: 1_000_000n, dias: 0 }], 999_999n), null)
    // 1,000,000 / 1.5 at thirty days: 50 %.
    assert.equal(effectiveMonthlyRate([{ valor: 1_500_000n, dias: 30 }], 1_000_000n), '0.500000')
  })

  it('the search for the least millionth finds it from any start (fast-check)', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 0n, max: 10n ** 12n }), (answer, start) => {
      let asked = 0
      const found = smallest((a) => { asked++; return a >= answer }, start, 10n ** 12n)
      assert.equal(found, answer)
      assert.ok(asked <= 2 * 42 + 2, `${asked} questions`)
    }), { numRuns: 500 })
    assert.equal(smallest((a) => a >= 7n, 7n, 100n), 7n)
  })
})

describe('the effective monthly rate against bisection', () => {
  // Another method at fifty digits with decimal.js: bisection, an exp per term, no Newton, no float guess, no BigInt.
  // Slower, so fewer and smaller borderôs; the six places must be the reference's, rounded half up.
  const Fifty = Decimal.clone({ precision: 50 })
  const bisect = (flows: { valor: bigint, dias: number }[], net: bigint): InstanceType<typeof Fifty> => {
    const value = (r: InstanceType<typeof Fifty>) => flows.reduce((s, f) =>
      s.plus(new Fifty(f.valor.toString()).times(r.plus(1).ln().times(f.dias).dividedBy(30).negated().exp())), new Fifty(net.toString()).negated())
    let lo = new Fifty(0)
    let hi = new Fifty(1)
    while (value(hi).gt(0)) hi = hi.times(2)
    while (hi.minus(lo).gt('1e-14')) {
      const mid = lo.plus(hi).dividedBy(2)
      if (value(mid).gt(0)) lo = mid
      else hi = mid
    }
    return lo.plus(hi).dividedBy(2)
  }

  it('gives the reference root rounded to six places, half up, for random flows (fast-check)', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ valor: fc.bigInt({ min: 1n, max: 10_000_000_000n }), dias: fc.integer({ min: 1, max: 400 }) }), { minLength: 1, maxLength: 8 }),
      fc.integer({ min: 700_000, max: 999_000 }),
      (flows, netPerMille) => {
        const net = flows.reduce((s, f) => s + f.valor, 0n) * BigInt(netPerMille) / 1_000_000n
        fc.pre(net > 0n)
        const reference = bisect(flows, net)
        // Past a million a month (a few centavos sold at half in a day) the function answers that no rate gives the net.
        if (reference.gt(1_000_000)) return assert.equal(effectiveMonthlyRate(flows, net), null)
        const shifted = reference.times(1e6)
        // A reference within its own error of a midpoint could round either way: not a question it can settle.
        fc.pre(shifted.minus(shifted.floor()).minus(0.5).abs().gt('1e-6'))
        assert.equal(effectiveMonthlyRate(flows, net), reference.toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed(6))
      },
    ), { numRuns: 60 })
  })
})

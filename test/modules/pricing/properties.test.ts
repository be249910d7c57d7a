// Properties of the pricing over random títulos, dates and terms (fast-check), and a recomputation of every
// simples_30 line by another method: exact rational arithmetic on BigInt, with no decimal library at all.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { Decimal } from 'decimal.js'
import { addDays, daysBetween } from '../../../src/modules/calendar/civil-date.ts'
import { nextBusinessDay } from '../../../src/modules/calendar/business-days.ts'
import { price, pricingProblem, TIPOS_TITULO, type PricingInput, type Terms } from '../../../src/modules/pricing/engine.ts'
import { effectiveMonthlyRate } from '../../../src/modules/pricing/effective-rate.ts'
import { SPEC_IOF } from './example.ts'

/** A decimal string as an exact fraction. */
function fraction(s: string): [bigint, bigint] {
  const [int, frac = ''] = s.split('.')
  return [BigInt(int! + frac), 10n ** BigInt(frac.length)]
}
/** num/den (den > 0) rounded half away from zero, as decimal.js's ROUND_HALF_UP; only refused lines go below zero. */
const halfUp = (num: bigint, den: bigint): bigint => (num < 0n ? -1n : 1n) * ((2n * (num < 0n ? -num : num) + den) / (2n * den))

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
  it('totals are the sums of the lines, and face value = deságio + ad valorem + fees + TAC + IOF + net (the acquisition balances)', () => {
    fc.assert(fc.property(inputArb, (input) => {
      const q = price(input)
      const sum = (f: (l: typeof q.linhas[number]) => bigint) => q.linhas.reduce((s, l) => s + f(l), 0n)
      assert.equal(q.totais.valorFace, input.titulos.reduce((s, t) => s + t.valorFaceCentavos, 0n))
      assert.equal(q.totais.desagio, sum((l) => l.desagio))
      assert.equal(q.totais.adValorem, sum((l) => l.adValorem))
      assert.equal(q.totais.tarifas, sum((l) => l.tarifa))
      assert.equal(q.totais.iof, sum((l) => l.iof))
      assert.equal(q.totais.valorLiquido, sum((l) => l.precoCompra) - q.totais.tac)
      const { valorFace, desagio, adValorem, tarifas, tac, iof, valorLiquido } = q.totais
      assert.equal(valorFace, desagio + adValorem + tarifas + tac + iof + valorLiquido)
      for (const l of q.linhas) assert.equal(l.iof, l.iofDiario + l.iofAdicional)
    }), { numRuns: 300 })
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

  it('every simples_30 line equals an exact rational recomputation on BigInt (deságio, ad valorem, IOF), rounded half up', () => {
    fc.assert(fc.property(inputArb, (input) => {
      const terms = { ...input.terms, base: 'simples_30' as const }
      const q = price({ ...input, terms })
      const totalFace = input.titulos.reduce((s, t) => s + t.valorFaceCentavos, 0n)
      const exempt = terms.iof === 'isento' || input.perfilIof === 'isento'
      const perfil = input.perfilIof === 'pj_simples' && totalFace > 3_000_000n ? 'pj' : input.perfilIof
      const row = SPEC_IOF.find((r) => r.perfil === perfil && r.vigenciaFim === null)
      const [iN, iD] = fraction(terms.taxaMensal)
      const [avN, avD] = fraction(terms.taxaAdValorem)
      input.titulos.forEach((t, k) => {
        const line = q.linhas[k]!
        const util = nextBusinessDay(t.vencimento, t.feriadosLocais)
        const n = BigInt(daysBetween(input.dataOperacao, util) + (terms.diasFloat[t.tipo] ?? 0))
        const vf = t.valorFaceCentavos
        const d = halfUp(vf * iN * n, iD * 30n)
        assert.equal(line.desagio, d)
        assert.equal(line.adValorem, halfUp(vf * avN, avD))
        if (exempt) return assert.equal(line.iof, 0n)
        const [dN, dD] = fraction(row!.taxaDiaria)
        const [aN, aD] = fraction(row!.taxaAdicional)
        const days = BigInt(Math.min(daysBetween(input.dataOperacao, t.vencimento), 365))
        assert.equal(line.iofDiario, halfUp((vf - d) * dN * days, dD))
        assert.equal(line.iofAdicional, halfUp((vf - d) * aN, aD))
      })
    }), { numRuns: 300 })
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
  // Recomputed by another method: the residual of Σ VF·(1+r)^(−d/30) − net in binary floating point with
  // Math.pow, a term at a time, no decimal library. The rate solves the equation when that residual is a
  // rounding error's worth of the net amount.
  it('solves Σ VF / (1 + r)^(d/30) = net for random flows (fast-check)', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ valor: fc.bigInt({ min: 1n, max: 10_000_000_000n }), dias: fc.integer({ min: 1, max: 800 }) }), { minLength: 1, maxLength: 60 }),
      // A net of 10 % to 99.9 % of the face: a borderô of 0.05 % puts the root past 10⁵ a month, where the search
      // itself stops (a rate no operation has) and each decimal step is slow.
      fc.integer({ min: 100_000, max: 999_000 }),
      (flows, netPerMille) => {
        const face = flows.reduce((s, f) => s + f.valor, 0n)
        const net = face * BigInt(netPerMille) / 1_000_000n
        fc.pre(net > 0n)
        const r = effectiveMonthlyRate(flows, net)
        // null only for no rate any operation has: a million a month still leaves value over.
        if (r === null) {
          const atMillion = flows.reduce((s, f) => s + Number(f.valor) * Math.pow(1 + 1e6, -f.dias / 30), 0)
          assert.ok(atMillion > Number(net), 'null with a root below 10⁶')
          return
        }
        const rate = Number(r.toString())
        const residual = flows.reduce((s, f) => s + Number(f.valor) * Math.pow(1 + rate, -f.dias / 30), 0) - Number(net)
        assert.ok(Math.abs(residual) <= Number(net) * 1e-9, `rate ${r} leaves ${residual} of ${net}`)
      },
    ), { numRuns: 300 })
  })
})

describe('the effective monthly rate against bisection', () => {
  // Another method at the product's own precision: bisection, an exp per term at fifty digits, no Newton, no float
  // guess. Slower, so fewer and smaller borderôs; the two must agree to 10⁻¹² a month.
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

  it('agrees with bisection to 1e-12 for random flows (fast-check)', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ valor: fc.bigInt({ min: 1n, max: 10_000_000_000n }), dias: fc.integer({ min: 1, max: 400 }) }), { minLength: 1, maxLength: 8 }),
      fc.integer({ min: 700_000, max: 999_000 }),
      (flows, netPerMille) => {
        const net = flows.reduce((s, f) => s + f.valor, 0n) * BigInt(netPerMille) / 1_000_000n
        fc.pre(net > 0n)
        const r = effectiveMonthlyRate(flows, net)
        assert.ok(r !== null)
        const reference = bisect(flows, net)
        assert.ok(r.minus(reference.toString()).abs().lt('1e-12'), `${r} against ${reference}`)
      },
    ), { numRuns: 40 })
  })
})

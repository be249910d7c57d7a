// The acceptance example of produto.md §2.6, every line and total to the centavo: published facts, not this
// code's own output.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { MissingIofRate, price } from '../../../src/modules/pricing/engine.ts'
import { exampleInput } from './example.ts'

describe('pricing: the acceptance example (simples_30)', () => {
  const q = price(exampleInput())

  it('each line as the table of §2.6', () => {
    const expected = [
      { vencimentoUtil: '2026-11-04', diasDesconto: 32, desagio: 37_333n, adValorem: 3_000n, tarifa: 800n,
        iofBase: 962_667n, diasIof: 30, iofDiario: 2_368n, iofAdicional: 3_658n, precoCompra: 952_841n },
      { vencimentoUtil: '2026-11-23', diasDesconto: 51, desagio: 148_750n, adValorem: 7_500n, tarifa: 800n,
        iofBase: 2_351_250n, diasIof: 46, iofDiario: 8_869n, iofAdicional: 8_935n, precoCompra: 2_325_146n },
      { vencimentoUtil: '2026-12-04', diasDesconto: 62, desagio: 108_500n, adValorem: 4_500n, tarifa: 800n,
        iofBase: 1_391_500n, diasIof: 60, iofDiario: 6_846n, iofAdicional: 5_288n, precoCompra: 1_374_066n },
    ]
    expected.forEach((line, k) => {
      const got = q.linhas[k]!
      for (const [field, value] of Object.entries(line)) assert.equal(got[field as keyof typeof got], value, `T${k + 1} ${field}`)
      assert.equal(got.iof, line.iofDiario + line.iofAdicional)
    })
  })

  it('the totals, valor líquido 4,637,053, prazo médio 50.50, taxa efetiva about 0.04586', () => {
    assert.deepEqual(q.totais, {
      valorFace: 5_000_000n, desagio: 294_583n, adValorem: 15_000n, tarifas: 2_400n, tac: 15_000n, iof: 35_964n,
      compensacoes: 0n, valorLiquido: 4_637_053n,
    })
    assert.equal(q.prazoMedioDias, '50.50')
    assert.match(q.taxaEfetivaMensal!, /^0\.04586\d$/)
  })

  it('names the IOF row it used and the holiday that moved T2 (20 Nov)', () => {
    assert.equal(q.iof.perfil, 'pj')
    assert.equal(q.iof.aliquota?.vigenciaInicio, '2025-07-16')
    assert.deepEqual(q.feriados.map((h) => h.data), ['2026-11-20'])
  })

  it("composta_30: T1's deságio is 36,030", () => {
    assert.equal(price(exampleInput({ base: 'composta_30' })).linhas[0]!.desagio, 36_030n)
  })

  it('IOF isento on the product: no IOF on any line, and the net amount grows by exactly the example IOF', () => {
    const free = price(exampleInput({ iof: 'isento' }))
    assert.ok(free.linhas.every((l) => l.iof === 0n && l.iofBase === 0n))
    assert.equal(free.iof.aliquota, null)
    assert.equal(free.totais.valorLiquido, 4_637_053n + 35_964n)
  })

  it('a date the IOF table does not cover is refused, never priced with a guess', () => {
    assert.throws(() => price({ ...exampleInput(), dataOperacao: '2025-06-01', perfilIof: 'pj' }), MissingIofRate)
  })
})

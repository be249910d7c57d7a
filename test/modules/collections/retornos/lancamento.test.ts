// What a retorno's liquidation posts (issue 33: "property tests over random retorno files keep every entry balanced
// and each título's balance equal to face minus what was applied"): over any amounts a bank may send, the entry
// balances, no line is negative, the título never falls below zero, money left over is money paid (never a discount
// or an abatimento), and a reduction never settles more than the balance: each checked against its own identity.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { custos, liquidacao } from '../../../../src/modules/collections/retornos/lancamento.ts'

const centavos = (max: number) => fc.bigInt({ min: 0n, max: BigInt(max) })
const valores = fc.record({
  pagoCentavos: centavos(9_999_999_999), jurosMultaCentavos: centavos(500_000), descontoCentavos: centavos(500_000), abatimentoCentavos: centavos(500_000),
  tarifaCentavos: centavos(5_000), outrasDespesasCentavos: centavos(5_000), outrosCreditosCentavos: centavos(5_000),
})
const titulo = fc.record({ cedenteId: fc.constant('ced'), saldoCentavos: centavos(9_999_999_999), desagioPendenteCentavos: centavos(1_000_000) })

const side = (lines: { debito?: bigint, credito?: bigint }[], k: 'debito' | 'credito') => lines.reduce((s, l) => s + (l[k] ?? 0n), 0n)
const on = (lines: { conta: string, debito?: bigint, credito?: bigint }[], conta: string) =>
  lines.filter((l) => l.conta === conta).reduce((s, l) => s + (l.debito ?? 0n) - (l.credito ?? 0n), 0n)

describe('a retorno\'s liquidation in the ledger', () => {
  it('balances, never goes below zero, and settles what the amounts say', () => {
    fc.assert(fc.property(valores, titulo, (v, t) => {
      const made = liquidacao(v, t)
      const cash = v.pagoCentavos - v.jurosMultaCentavos - v.outrosCreditosCentavos
      if (cash < 0n || v.pagoCentavos === 0n) {
        assert.equal(made, undefined)
        return
      }
      assert.ok(made)
      assert.equal(side(made.linhas, 'debito'), side(made.linhas, 'credito'), 'balanced')
      for (const l of made.linhas) assert.ok((l.debito ?? 0n) >= 0n && (l.credito ?? 0n) >= 0n)
      assert.ok(made.principalCentavos <= t.saldoCentavos && made.principalCentavos >= 0n)
      // The money paid toward the título and above it is the money paid, less the late charges.
      assert.equal(made.principalCentavos - made.descontoCentavos - made.abatimentoCentavos + made.sobraCentavos, cash)
      // A reduction is used only where money did not settle the balance, and never past the line's own amount.
      assert.ok(made.descontoCentavos <= v.descontoCentavos && made.abatimentoCentavos <= v.abatimentoCentavos)
      if (made.sobraCentavos > 0n) assert.equal(made.descontoCentavos + made.abatimentoCentavos, 0n)
      assert.equal(on(made.linhas, 'descontos_concedidos'), made.descontoCentavos)
      assert.equal(made.quitado, t.saldoCentavos > 0n && made.principalCentavos === t.saldoCentavos)
      assert.equal(on(made.linhas, 'direitos_creditorios'), -made.principalCentavos)
      assert.equal(on(made.linhas, 'banco'), v.pagoCentavos - v.tarifaCentavos - v.outrasDespesasCentavos)
      assert.equal(on(made.linhas, 'receita_desagio'), made.quitado ? -t.desagioPendenteCentavos : 0n)
      assert.equal(on(made.linhas, 'valores_a_identificar'), -made.sobraCentavos)
    }), { numRuns: 2000 })
  })

  it('the example: a late payment with a fee; a payment above the balance; a fee alone', () => {
    const t = { cedenteId: 'ced', saldoCentavos: 2_500_000n, desagioPendenteCentavos: 41_000n }
    const zero = { descontoCentavos: 0n, abatimentoCentavos: 0n, outrasDespesasCentavos: 0n, outrosCreditosCentavos: 0n }
    const late = liquidacao({ ...zero, pagoCentavos: 2_518_000n, jurosMultaCentavos: 18_000n, tarifaCentavos: 350n }, t)!
    assert.deepEqual(late.linhas.filter((l) => (l.debito ?? 0n) + (l.credito ?? 0n) > 0n), [
      { conta: 'banco', debito: 2_517_650n }, { conta: 'despesas_bancarias', debito: 350n },
      { conta: 'direitos_creditorios', credito: 2_500_000n }, { conta: 'receita_juros_multa', credito: 18_000n },
      { conta: 'desagio_a_apropriar', debito: 41_000n }, { conta: 'receita_desagio', credito: 41_000n },
    ])
    const above = liquidacao({ ...zero, pagoCentavos: 2_600_000n, jurosMultaCentavos: 0n, tarifaCentavos: 0n }, t)!
    assert.deepEqual([above.principalCentavos, above.sobraCentavos, above.quitado], [2_500_000n, 100_000n, true])
    // A centavo paid with a discount of trillions settles a centavo and what the discount can cover of the rest: no more.
    const forged = liquidacao({ ...zero, pagoCentavos: 1n, descontoCentavos: 9_999_999_999_999n, jurosMultaCentavos: 0n, tarifaCentavos: 0n }, t)!
    assert.deepEqual([forged.principalCentavos, forged.descontoCentavos, forged.sobraCentavos], [2_500_000n, 2_499_999n, 0n])
    assert.deepEqual(custos({ tarifaCentavos: 250n, outrasDespesasCentavos: 1_000n }),
      [{ conta: 'despesas_bancarias', debito: 1_250n }, { conta: 'banco', credito: 1_250n }])
    assert.equal(custos({ tarifaCentavos: 0n, outrasDespesasCentavos: 0n }), undefined)
  })
})

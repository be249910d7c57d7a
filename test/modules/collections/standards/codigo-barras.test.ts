// The barcode and the linha digitável against the pair published in produto.md §3 (an Itaú boleto), and every
// check digit of a linha verified when it is read back, each one broken alone.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { codigoDeBarras, dvGeral, lerLinhaDigitavel, linhaDigitavel } from '../../../../src/modules/collections/boleto/codigo-barras.ts'
import { mod10 } from '../../../../src/modules/collections/boleto/modulos.ts'
import { vencimentoDoFator } from '../../../../src/modules/collections/boleto/fator.ts'

const LINHA = '34195.00008 01233.203189 64221.470004 5 84410000002000'
const BARRA = '34195844100000020005000001233203186422147000'

describe('the boleto\'s barcode and linha digitável', () => {
  it('writes the published pair from its parts', () => {
    const barcode = codigoDeBarras({
      banco: '341', vencimento: vencimentoDoFator(8441, '2021-01-01'), valorCentavos: 2000, campoLivre: BARRA.slice(19),
    })
    assert.equal(barcode, BARRA)
    assert.equal(linhaDigitavel(barcode), LINHA)
  })

  it('reads the published linha back into its barcode, typed with or without dots and spaces', () => {
    assert.deepEqual(lerLinhaDigitavel(LINHA), { ok: true, codigoDeBarras: BARRA })
    assert.deepEqual(lerLinhaDigitavel(LINHA.replace(/[ .]/g, '')), { ok: true, codigoDeBarras: BARRA })
    assert.deepEqual(lerLinhaDigitavel(` ${LINHA}\n`), { ok: true, codigoDeBarras: BARRA })
  })

  it('names the check digit that fails, each broken alone', () => {
    const broken = (at: number) => {
      const d = LINHA.replace(/[ .]/g, '')
      return d.slice(0, at) + String((Number(d[at]) + 1) % 10) + d.slice(at + 1)
    }
    assert.deepEqual(lerLinhaDigitavel(broken(9)), { ok: false, motivo: 'dv_campo_1' })
    assert.deepEqual(lerLinhaDigitavel(broken(3)), { ok: false, motivo: 'dv_campo_1' })
    assert.deepEqual(lerLinhaDigitavel(broken(20)), { ok: false, motivo: 'dv_campo_2' })
    assert.deepEqual(lerLinhaDigitavel(broken(31)), { ok: false, motivo: 'dv_campo_3' })
    assert.deepEqual(lerLinhaDigitavel(broken(32)), { ok: false, motivo: 'dv_geral' })
    assert.deepEqual(lerLinhaDigitavel(broken(40)), { ok: false, motivo: 'dv_geral' })
    assert.deepEqual(lerLinhaDigitavel(LINHA.slice(0, -1)), { ok: false, motivo: 'formato' })
    assert.deepEqual(lerLinhaDigitavel(LINHA.replace('3', 'x')), { ok: false, motivo: 'formato' })
  })

  it('writes the general digit 1 where módulo 11 gives 0, 10 or 11', () => {
    // A body of zeros and one last digit d: its weighted sum is 2d (weight 2 at the right), reckoned by hand.
    const body = (last: string) => `${'0'.repeat(42)}${last}`
    assert.equal(dvGeral(body('0')), 1, 'a sum of 0: 11 − 0 = 11, written 1')
    assert.equal(dvGeral(body('6')), 1, 'a sum of 12, remainder 1: 11 − 1 = 10, written 1')
    assert.equal(dvGeral(body('4')), 3, 'a sum of 8: 11 − 8 = 3')
    assert.equal(dvGeral(body('5')), 1, 'a sum of 10: 11 − 10 = 1')
  })

  it('módulo 10 sums the digits of each product (the field 0123320318 gives 9, as printed)', () => {
    assert.equal(mod10('0123320318'), 9)
    assert.equal(mod10('341950000'), 8)
    assert.equal(mod10('0'), 0)
    assert.throws(() => mod10('12a'), /not a decimal digit/)
  })

  it('refuses a value that ten digits of centavos cannot carry', () => {
    const base = { banco: '341', vencimento: '2026-12-01', campoLivre: '0'.repeat(25) }
    assert.throws(() => codigoDeBarras({ ...base, valorCentavos: 10_000_000_000 }), /centavos/)
    assert.throws(() => codigoDeBarras({ ...base, valorCentavos: -1 }), /centavos/)
    assert.throws(() => codigoDeBarras({ ...base, valorCentavos: 1.5 }), /centavos/)
    assert.equal(codigoDeBarras({ ...base, valorCentavos: 9_999_999_999 }).slice(9, 19), '9999999999')
  })
})

// Amounts typed in reais, read to centavos: against Intl's own pt-BR formatting of random amounts (an independent
// writer of the same notation), the other notations a back office types, and what is not an amount.
import assert from 'node:assert/strict'
import { it } from 'node:test'
import fc from 'fast-check'
import { centavosOf } from '../../../src/platform/lib/typed-reais.ts'

const ptBR = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
/** Intl writes reais from a string of digits (no float): "1234567.89" as "1.234.567,89". */
const written = (c: bigint) => ptBR.format(`${c / 100n}.${String(c % 100n).padStart(2, '0')}` as unknown as number)

it('reads back every amount Intl writes in pt-BR, with and without "R$" and thousands separators', () => {
  fc.assert(fc.property(fc.bigInt({ min: 0n, max: BigInt(Number.MAX_SAFE_INTEGER) }), (c) => {
    const text = written(c)
    assert.equal(centavosOf(text), Number(c), text)
    assert.equal(centavosOf(`R$ ${text}`), Number(c))
    assert.equal(centavosOf(text.replaceAll('.', '')), Number(c))
  }), { seed: 19, numRuns: 2000 })
})

it('the other notations: a point as the decimal mark, one decimal, none; and what is not an amount', () => {
  const read: [string, number | undefined][] = [
    ['1234.56', 123_456], ['1234,5', 123_450], ['1234', 123_400], ['0,01', 1], ['1.234', 123_400], ['1.23', 123],
    ['12,345', undefined], ['1.2345', undefined], ['-5,00', undefined], ['1,2,3', undefined], ['1.23.456', undefined], ['', undefined],
    ['dez', undefined], ['１０', undefined], ['1e3', undefined], ['90071992547409,92', undefined], ['90071992547409,91', Number.MAX_SAFE_INTEGER],
  ]
  for (const [typed, centavos] of read) assert.equal(centavosOf(typed), centavos, typed)
})

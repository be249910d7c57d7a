// A quote's answer written from its calculation's stored text (quoteViewJson) is, byte for byte, what serializing
// the view object (quoteView) writes: the calculation's fields in their order, then the instant.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { SavedQuote } from '../../../src/modules/operations/store.ts'
import { quoteView, quoteViewJson } from '../../../src/modules/operations/views.ts'

describe('a quote as the API answers it', () => {
  it('from the stored text, the same bytes as JSON.stringify of the view: nested values, escapes, unicode', () => {
    const calculo = {
      versao: 3, valida_ate: '2026-10-06T03:00:00.000Z', produto: { id: 'p', versao: 1 }, linhas: [{ titulo_id: 't', desagio_centavos: 123 }],
      feriados: [{ data: '2026-11-20', descricao: 'Consciência Negra "quoted" \\ \u2028 🙂' }], taxa_efetiva_mensal: null,
    }
    const quote = { calculo, calculoJson: JSON.stringify(calculo), criadoEm: new Date('2026-10-05T13:14:15.678Z') } as unknown as SavedQuote
    assert.equal(quoteViewJson(quote), JSON.stringify(quoteView(quote)))
    assert.equal(JSON.parse(quoteViewJson(quote)).criado_em, '2026-10-05T13:14:15.678Z')
  })
})

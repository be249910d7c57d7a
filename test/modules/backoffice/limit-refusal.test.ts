// A refused acceptance says which limit and by how much (a new user's trial, issue 32): the API's `limites` in
// the back office's words, each cedente or sacado by name with its limit, what is used and what the operation adds.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { refusalOf } from '../../../src/modules/backoffice/problems.ts'

describe('the limit refusal in words', () => {
  it('names each limit, its use and what the operation adds', () => {
    const body = {
      detail: 'limite_excedido',
      limites: [
        { tipo: 'sacado', id: 'x', razao_social: 'José da Conceição', limite_centavos: 5_000_000, exposicao_centavos: 1_500_050,
          operacao_centavos: 4_000_000 },
        { tipo: 'cedente', id: 'y', razao_social: 'Têxtil Ltda', limite_centavos: 10_000_000, exposicao_centavos: 9_000_000,
          operacao_centavos: 4_000_000 },
      ],
    }
    assert.equal(refusalOf(409, body).message, 'O aceite passaria o limite do sacado José da Conceição (R$ 50.000,00): '
      + 'já usados R$ 15.000,50, esta operação R$ 40.000,00; '
      + 'e o limite do cedente Têxtil Ltda (R$ 100.000,00): já usados R$ 90.000,00, esta operação R$ 40.000,00.')
    assert.equal(refusalOf(409, { detail: 'limite_excedido' }).message, 'O aceite passaria o limite do cedente ou de um sacado.')
  })

  it('an empty remessa says what was left out of it and why (the new-user trial of issue 33)', () => {
    const fora = [{ cobranca_id: 'a', instrucao_id: null, motivo: 'sacado_sem_endereco', faltam: ['cep'] },
      { cobranca_id: 'b', instrucao_id: null, motivo: 'sacado_sem_endereco', faltam: ['uf'] },
      { cobranca_id: 'c', instrucao_id: null, motivo: 'documento_alfanumerico' }]
    assert.equal(refusalOf(422, { detail: 'remessa_vazia', fora }).message, 'Nada foi enviado ao banco: 3 itens ficaram de fora, por '
      + 'sacado sem endereço completo (logradouro, CEP, cidade e UF) (2); CNPJ alfanumérico, que o layout não leva (1). '
      + 'Corrija o cadastro e gere a remessa de novo.')
    assert.equal(refusalOf(422, { detail: 'remessa_vazia', fora: [] }).message,
      'Nada a enviar ao banco nesta conta: nenhuma cobrança a registrar nem instrução pendente.')
  })
})

// Each form's fields as its API request, alone (no app): where a payment's form sends the person back (only one of
// the two pages that show a payment, never another address), percentages to the API's fractions exactly, a local
// time in Brasília to an instant, and numbers read strictly.
import assert from 'node:assert/strict'
import { it } from 'node:test'
import { ACTIONS, fieldsOf } from '../../../src/modules/backoffice/actions.ts'

const fields = (o: Record<string, string>) => fieldsOf(new URLSearchParams(o))
const ID = '0b7f7a8e-5c1d-4e8e-9a43-1f6d2f9b7c10'

it('a payment\'s form goes back only to the payments or to an operation\'s page', () => {
  for (const acao of ['desembolso/aprovacao', 'desembolso/pagamento', 'desembolso/falha']) {
    const done = (volta: string) => ACTIONS[acao]!.done(ID, {}, fields({ volta }))
    assert.equal(done('/conta/desembolsos'), '/conta/desembolsos')
    assert.equal(done(`/conta/operacoes/${ID}`), `/conta/operacoes/${ID}`)
    for (const hostile of ['//outro.example', 'https://outro.example/conta/desembolsos', '/conta/operacoes/../../sair', `/conta/operacoes/${ID}\n/x`,
      '/conta/sair', '/conta/desembolsos?x=1', 'javascript:alert(1)', `/conta/operacoes/${ID}/aceite`, '']) {
      assert.equal(done(hostile), '/conta/desembolsos', JSON.stringify(hostile))
    }
  }
})

it('a product\'s rates in percent become the API\'s fractions exactly; float days and a quote\'s version are read strictly', () => {
  const product = (o: Record<string, string>) => ACTIONS.produtos!.build(fields({ nome: 'P', base: 'simples_30', iof: 'calcular', ...o }))
  const built = product({ taxa_mensal: '3,5', taxa_ad_valorem: '0,0000000001', tarifa: '8,00', tac: '1.500,00', dias_float: '2' })
  assert.deepEqual(built.errors, {})
  assert.deepEqual(built.body, {
    nome: 'P', base: 'simples_30', taxa_mensal: '0.035', taxa_ad_valorem: '0.000000000001', tarifa_por_titulo_centavos: 800, tac_centavos: 150_000,
    dias_float: { duplicata_mercantil: 2, duplicata_servico: 2, cheque: 2, nota_promissoria: 2, ccb: 2, cte: 2 }, iof: 'calcular',
  })
  for (const dias of ['0x2', '1e1', '2.0', '11', '-1', ' 2a']) {
    assert.deepEqual(Object.keys(product({ taxa_mensal: '3', dias_float: dias }).errors), ['dias_float'], dias)
  }
  for (const taxa of ['3,5%', '1e-3', '1.000,5', '0,12345678901']) assert.deepEqual(Object.keys(product({ taxa_mensal: taxa }).errors), ['taxa_mensal'], taxa)
  for (const versao of ['', '1.0', '0x1', '1e3', '-1']) {
    assert.deepEqual(Object.keys(ACTIONS['operacao/aceite']!.build(fields({ cotacao_versao: versao })).errors), ['cotacao_versao'], versao)
  }
  assert.deepEqual(ACTIONS['operacao/aceite']!.build(fields({ cotacao_versao: '3' })).body, { cotacao_versao: 3 })
})

it('a datetime-local is Brasília\'s time (UTC−3)', () => {
  const built = ACTIONS['desembolso/pagamento']!.build(fields({ id_transacao: 'E1', pago_em: '2026-10-05T12:10' }))
  assert.deepEqual(built.body, { id_transacao: 'E1', pago_em: '2026-10-05T12:10:00-03:00' })
  assert.equal(new Date((built.body as { pago_em: string }).pago_em).toISOString(), '2026-10-05T15:10:00.000Z')
  assert.deepEqual(Object.keys(ACTIONS['desembolso/pagamento']!.build(fields({ pago_em: '05/10/2026 12:10' })).errors), ['pago_em'])
})

// Money priced for one day is paid that day (issue 31, item 1). An operation dated 44 days ahead was priced as of
// that day (less deságio, less IOF) and could be accepted and paid at once: the cedente got the difference and the
// IOF for those days was never charged. Now an acceptance waits for the operation's date (409
// operacao_antes_da_data); the payment is asked, approved and made on that Brasília day only (409
// pagamento_fora_da_data naming both days), a transfer made that day may still be recorded the next morning, and
// an operation whose day passed is cancelled (its acquisition reversed, the ledger exact) and made again.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'
import { backOffice, created, exampleRegisters, exampleTitles, key, settableClock } from './helpers.ts'

const TERM = { termo_sha256: 'b'.repeat(64), signatarios: [{ nome: 'Sócia Administradora', documento: '111.444.777-35' }] }

describe('money priced for a day is paid that day', () => {
  // Noon in Brasília on 2026-10-05; the operation is dated the 6th.
  const clock = settableClock('2026-10-05T15:00:00Z')
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  async function quotedFor(day: string) {
    const office = await backOffice(ctx.db, ctx.app, clock)
    const { produto, cedente, sacados } = await exampleRegisters(office.operador.call)
    const op = created(await office.operador.call('POST', '/api/operacoes', {
      cedente_id: cedente.id, produto_id: produto.id, data_operacao: day, titulos: exampleTitles(sacados.map((s: { id: string }) => s.id)),
    }))
    created(await office.operador.call('POST', `/api/operacoes/${op.id}/cotacao`))
    return { ...office, op, cedente }
  }
  const entriesOf = async (call: Awaited<ReturnType<typeof quotedFor>>['operador']['call']) => created(await call('GET', '/api/lancamentos'), 200).itens

  it('an acceptance before the operation\'s date is 409 operacao_antes_da_data, naming both days, and nothing moves', async () => {
    clock.set('2026-10-05T15:00:00Z')
    const { operador, op } = await quotedFor('2026-10-06')
    const early = await operador.call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key())
    assert.equal(early.statusCode, 409)
    assert.deepEqual(early.json(), { detail: 'operacao_antes_da_data', data_operacao: '2026-10-06', hoje: '2026-10-05' })
    const after = created(await operador.call('GET', `/api/operacoes/${op.id}`), 200)
    assert.equal(after.estado, 'cotada')
    assert.deepEqual(after.titulos.map((t: { estado: string }) => t.estado), ['ofertado', 'ofertado', 'ofertado'])
    assert.deepEqual(await entriesOf(operador.call), [])

    // At 00:30 in Brasília on the 6th (03:30 UTC) it is the operation's day: accepted, the acquisition dated that day.
    clock.set('2026-10-06T03:30:00Z')
    assert.equal(created(await operador.call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key()), 200).estado, 'aceita')
    const [acquisition] = await entriesOf(operador.call)
    assert.equal(acquisition.data, '2026-10-06')
    assert.ok(acquisition.linhas.some((l: { conta: string, credito_centavos: number }) => l.conta === 'iof_a_recolher' && l.credito_centavos > 0))
  })

  it('a payment asked, approved or recorded on another day is 409 pagamento_fora_da_data; one made that day may be recorded the next', async () => {
    clock.set('2026-10-06T13:00:00Z')
    const { operador, aprovador, op } = await quotedFor('2026-10-06')
    created(await operador.call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key()), 200)
    created(await operador.call('POST', `/api/operacoes/${op.id}/formalizacao`, { ...TERM, assinado_em: '2026-10-06T12:00:00Z' }), 200)

    // Asked the next day (00:10 in Brasília on the 7th): refused.
    clock.set('2026-10-07T03:10:00Z')
    const late = await operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key())
    assert.equal(late.statusCode, 409)
    assert.deepEqual(late.json(), { detail: 'pagamento_fora_da_data', data_operacao: '2026-10-06', data_pagamento: '2026-10-07' })
    assert.equal(created(await operador.call('GET', `/api/operacoes/${op.id}`), 200).estado, 'formalizada')

    // Asked on the day, approved the next: refused, the payment still waiting.
    clock.set('2026-10-06T20:00:00Z')
    const payment = created(await operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
    clock.set('2026-10-07T12:00:00Z')
    const lateApproval = await aprovador.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key())
    assert.equal(lateApproval.statusCode, 409)
    assert.equal(lateApproval.json().detail, 'pagamento_fora_da_data')
    assert.equal(created(await operador.call('GET', `/api/desembolsos/${payment.id}`), 200).estado, 'aguardando_aprovacao')

    // Approved on the day; a transfer made the next day is refused, one made on the day and recorded the next morning is taken.
    clock.set('2026-10-06T20:30:00Z')
    created(await aprovador.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key()), 200)
    clock.set('2026-10-07T12:00:00Z')
    const nextDay = await operador.call('POST', `/api/desembolsos/${payment.id}/pagamento`,
      { id_transacao: 'E341234562026100712000000000001', pago_em: '2026-10-07T11:00:00Z' }, key())
    assert.equal(nextDay.statusCode, 409)
    assert.deepEqual(nextDay.json(), { detail: 'pagamento_fora_da_data', data_operacao: '2026-10-06', data_pagamento: '2026-10-07' })
    assert.equal(created(await operador.call('GET', `/api/desembolsos/${payment.id}`), 200).estado, 'aprovado')
    assert.equal((await entriesOf(operador.call)).length, 1, 'only the acquisition: no payment posted')

    // 23:50 in Brasília on the 6th is 02:50 UTC on the 7th: the operation's day, whatever UTC says.
    const paid = created(await operador.call('POST', `/api/desembolsos/${payment.id}/pagamento`,
      { id_transacao: 'E341234562026100702500000000001', pago_em: '2026-10-07T02:50:00Z' }, key()), 200)
    assert.equal(paid.estado, 'pago')
    const [payEntry] = await entriesOf(operador.call)
    assert.equal(payEntry.data, '2026-10-06')
  })

  it('an operation whose day passed unpaid is cancelled, its acquisition reversed exactly, and made again for the new day', async () => {
    clock.set('2026-10-06T13:00:00Z')
    const { operador, aprovador, op, cedente } = await quotedFor('2026-10-06')
    created(await operador.call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key()), 200)
    created(await operador.call('POST', `/api/operacoes/${op.id}/formalizacao`, { ...TERM, assinado_em: '2026-10-06T12:00:00Z' }), 200)
    const payment = created(await operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
    created(await aprovador.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key()), 200)

    clock.set('2026-10-08T13:00:00Z')
    created(await operador.call('POST', `/api/desembolsos/${payment.id}/falha`, { motivo: 'TED não enviada no dia' }, key()), 200)
    assert.equal(created(await operador.call('POST', `/api/operacoes/${op.id}/cancelamento`, { motivo: 'dia passou' }, key()), 200).estado,
      'cancelada')
    const [reversal, acquisition] = await entriesOf(operador.call)
    const net = (e: { linhas: { debito_centavos: number, credito_centavos: number }[] }) =>
      e.linhas.reduce((s, l) => s + l.debito_centavos - l.credito_centavos, 0)
    assert.equal(net(reversal), 0)
    assert.deepEqual(reversal.linhas.map((l: Record<string, number>) => [l.debito_centavos, l.credito_centavos]),
      acquisition.linhas.map((l: Record<string, number>) => [l.credito_centavos, l.debito_centavos]))
    const extrato = created(await operador.call('GET', `/api/cedentes/${cedente.id}/extrato?de=2026-10-01&ate=2026-10-31`), 200)
    assert.equal(extrato.saldo_final_centavos, 0)

    // The same títulos, made again and priced for the new day: less deságio and IOF than on the 6th, since fewer days remain.
    const again = created(await operador.call('POST', '/api/operacoes', {
      cedente_id: op.cedente_id, produto_id: op.produto_id, data_operacao: '2026-10-08',
      titulos: op.titulos.map((t: Record<string, unknown>) => ({ tipo: t.tipo, numero: t.numero, sacado_id: t.sacado_id, emissao: t.emissao,
        vencimento: t.vencimento, valor_face_centavos: t.valor_face_centavos })),
    }))
    const quote = created(await operador.call('POST', `/api/operacoes/${again.id}/cotacao`))
    assert.ok(quote.totais.valor_liquido_centavos > acquisition.linhas.find((l: { conta: string }) => l.conta === 'conta_grafica_cedentes').credito_centavos)
    assert.equal(created(await operador.call('POST', `/api/operacoes/${again.id}/aceite`, { cotacao_versao: 1 }, key()), 200).estado, 'aceita')
  })
})

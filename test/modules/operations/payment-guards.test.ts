// What a payment to a cedente is refused for besides its day (issue 31, items 7 and 8): a blocked cedente is paid
// nothing (its block stopped new operations but not the payment of an accepted one), and one bank transfer is
// recorded for one payment only (the same id_transacao was once recorded for two payments).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'
import { backOffice, created, formalizedExample, key, settableClock, type Caller } from './helpers.ts'


describe('a payment to a cedente: blocked cedentes and transfers recorded once', () => {
  const clock = settableClock('2026-10-05T15:00:00Z')
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  const formalized = (operador: { call: Caller }, given?: Parameters<typeof formalizedExample>[1]) => formalizedExample(operador.call, given)

  it('a blocked cedente: its payment is not asked, approved or recorded (409 cadastro_bloqueado), and is once unblocked', async () => {
    clock.set('2026-10-05T15:00:00Z')
    const { operador, aprovador } = await backOffice(ctx.db, ctx.app, clock)
    const { op, cedente } = await formalized(operador)
    const block = async (estado: string) => created(await operador.call('PATCH' as 'POST', `/api/cedentes/${cedente.id}`, { estado }), 200)
    const refusedAs = (res: { statusCode: number, json(): unknown }) => {
      assert.equal(res.statusCode, 409)
      assert.deepEqual(res.json(), { detail: 'cadastro_bloqueado', cadastros: [{ tipo: 'cedente', id: cedente.id }] })
    }

    await block('bloqueado')
    refusedAs(await operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
    assert.equal(created(await operador.call('GET', `/api/operacoes/${op.id}`), 200).estado, 'formalizada')

    await block('ativo')
    const payment = created(await operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
    await block('bloqueado')
    refusedAs(await aprovador.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key()))
    assert.equal(created(await operador.call('GET', `/api/desembolsos/${payment.id}`), 200).estado, 'aguardando_aprovacao')

    await block('ativo')
    created(await aprovador.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key()), 200)
    await block('bloqueado')
    const transfer = { id_transacao: 'E341234562026100515000000000077', pago_em: '2026-10-05T15:00:00Z' }
    refusedAs(await operador.call('POST', `/api/desembolsos/${payment.id}/pagamento`, transfer, key()))
    assert.equal(created(await operador.call('GET', `/api/desembolsos/${payment.id}`), 200).estado, 'aprovado')
    assert.equal(created(await operador.call('GET', '/api/lancamentos'), 200).itens.length, 1, 'only the acquisition')

    await block('ativo')
    assert.equal(created(await operador.call('POST', `/api/desembolsos/${payment.id}/pagamento`, transfer, key()), 200).estado, 'pago')
  })

  it('one id_transacao pays one payment: recorded for another is 409 id_transacao_em_uso naming the first; another customer may use it', async () => {
    clock.set('2026-10-05T15:00:00Z')
    const office = await backOffice(ctx.db, ctx.app, clock)
    const first = await formalized(office.operador)
    const second = await formalized(office.operador, first.regs)
    const paid = async (op: { id: string }, operador: typeof office.operador, aprovador: typeof office.aprovador) => {
      const p = created(await operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
      created(await aprovador.call('POST', `/api/desembolsos/${p.id}/aprovacao`, undefined, key()), 200)
      return p
    }
    const transfer = { id_transacao: 'E341234562026100515000000000088', pago_em: '2026-10-05T15:00:00Z' }
    const p1 = await paid(first.op, office.operador, office.aprovador)
    created(await office.operador.call('POST', `/api/desembolsos/${p1.id}/pagamento`, transfer, key()), 200)

    const p2 = await paid(second.op, office.operador, office.aprovador)
    const again = await office.operador.call('POST', `/api/desembolsos/${p2.id}/pagamento`, transfer, key())
    assert.equal(again.statusCode, 409)
    assert.deepEqual(again.json(), { detail: 'id_transacao_em_uso', desembolso_id: p1.id })
    assert.equal(created(await office.operador.call('GET', `/api/desembolsos/${p2.id}`), 200).estado, 'aprovado')
    assert.equal(created(await office.operador.call('GET', `/api/operacoes/${second.op.id}`), 200).estado, 'em_desembolso')
    const payments = created(await office.operador.call('GET', '/api/lancamentos'), 200).itens.filter((e: { origem: { tipo: string } }) =>
      e.origem.tipo === 'desembolso')
    assert.equal(payments.length, 1, 'one transfer, one payment entry')

    // Ids are a customer's own: another customer's bank may well use the same one.
    const other = await backOffice(ctx.db, ctx.app, clock)
    const theirs = await formalized(other.operador)
    const p3 = await paid(theirs.op, other.operador, other.aprovador)
    assert.equal(created(await other.operador.call('POST', `/api/desembolsos/${p3.id}/pagamento`, transfer, key()), 200).estado, 'pago')
  })
})

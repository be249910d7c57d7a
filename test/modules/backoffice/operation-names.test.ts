// One name per operation (issue 32 item 5): a payment names its operation by the customer's number, in the API's
// answers (`operacao_numero`) and on the payments' page ("Operação nº 2"), never by a piece of its id.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { colleagueWithPassword, personWithPassword } from '../../helpers/account-web.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { callerFor, created, EXAMPLE_NOW, exampleRegisters, exampleTitles, settableClock } from '../operations/helpers.ts'
import { paymentAsked, signIn } from './steps.ts'

describe('a payment names its operation by its number', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('in the API\'s answers and on the payments\' page', async () => {
    const admin = await personWithPassword(ctx.db)
    const operador = await colleagueWithPassword(ctx.db, admin.clienteId, 'operador')
    const call = await callerFor(ctx.db, ctx.app, admin.clienteId, operador.usuarioId, clock)
    const regs = await exampleRegisters(call)
    const draft = () => call('POST', '/api/operacoes', {
      cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-05',
      titulos: exampleTitles(regs.sacados.map((s: { id: string }) => s.id)),
    })
    // The second operation: its number (2) is not the first's, and the page must say which.
    created(await call('POST', '/api/operacoes', { cedente_id: regs.cedente.id, produto_id: regs.produto.id }))
    const op = created(await draft())
    assert.equal(op.numero, 2)
    const payment = await paymentAsked(call, op.id) as { id: string, operacao_numero: number }
    assert.equal(payment.operacao_numero, 2)
    assert.equal(created(await call('GET', `/api/desembolsos/${payment.id}`), 200).operacao_numero, 2)
    assert.deepEqual(created(await call('GET', '/api/desembolsos'), 200).itens.map((p: { operacao_numero: number }) => p.operacao_numero), [2])
    assert.equal(created(await call('GET', `/api/operacoes/${op.id}`), 200).desembolso.operacao_numero, 2)

    const page = (await (await signIn(ctx.app, operador.email)).get('/conta/desembolsos')).body
    assert.match(page, new RegExp(`<a href="/conta/operacoes/${op.id}">Operação nº 2</a>`))
    assert.ok(!page.includes(`Operação ${op.id.slice(0, 8)}`))
  })
})

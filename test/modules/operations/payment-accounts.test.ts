// A cedente's bank account changed before its payment (issue 31 item 6): an operador once swapped the account, and
// the payment was asked, approved and paid to it. An account added after the registration is paid to only once a
// second person (an aprovador) confirms it; the registration's accounts are usable at once; a payment whose account
// was replaced since it was asked is not approved or recorded; and the database refuses such a payment by itself.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { rowsAs } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { backOffice, CEDENTE_DOC, CONTA, created, formalizedExample, key, settableClock, type Caller } from './helpers.ts'

const OTHER = { banco: '001', agencia: '4321', conta: '98765', digito: '0', titular_documento: CEDENTE_DOC }

type Conta = {
  id: string, banco: string, confirmada: boolean, incluida_em: string, incluida_por_usuario_id: string | null, confirmada_por_usuario_id: string | null
}

describe('a cedente\'s bank account added after its registration', () => {
  const clock = settableClock('2026-10-05T15:00:00Z')
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  const formalized = (operador: { call: Caller }) => formalizedExample(operador.call)
  const setAccounts = async (call: Caller, cedenteId: string, contas: object[]) =>
    created(await call('PATCH' as 'POST', `/api/cedentes/${cedenteId}`, { contas_bancarias: contas }), 200).contas_bancarias as Conta[]
  const confirm = (call: Caller, cedenteId: string, contaId: string) =>
    call('POST', `/api/cedentes/${cedenteId}/contas-bancarias/${contaId}/confirmacao`, undefined, key())

  it('is not paid to until a second person confirms it; the registration\'s account is usable at once', async () => {
    clock.set('2026-10-05T15:00:00Z')
    const { clienteId, operador, aprovador, admin } = await backOffice(ctx.db, ctx.app, clock)
    const { op, cedente } = await formalized(operador)
    const [registered] = cedente.contas_bancarias as Conta[]
    assert.deepEqual([registered!.confirmada, registered!.confirmada_por_usuario_id], [true, null], 'given at registration: usable')

    // The operador replaces the account: the new one waits, and the payment cannot be asked for to it.
    const [swapped] = await setAccounts(operador.call, cedente.id, [OTHER])
    assert.deepEqual([swapped!.confirmada, swapped!.incluida_por_usuario_id], [false, operador.usuarioId])
    // The change's audit row says what changed, before and after, and the customer's audit API shows it.
    const trail = created(await admin.call('GET', '/api/conta/auditoria?limite=5'), 200).itens as { acao: string, alteracoes: unknown }[]
    const change = trail.find((e) => e.acao === 'cedente.alterado')
    assert.deepEqual(change?.alteracoes, { contas_bancarias: {
      antes: [{ ...CONTA, titular_documento: CEDENTE_DOC }], depois: [OTHER],
    } })
    const refused = await operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key())
    assert.equal(refused.statusCode, 409, refused.body)
    assert.deepEqual(refused.json(), { detail: 'conta_bancaria_nao_confirmada', conta_id: swapped!.id })

    // Not by the person who added it (an administrador may confirm, but not what they added), nor by an operador's role.
    assert.equal((await confirm(operador.call, cedente.id, swapped!.id)).json().detail, 'papel_insuficiente')
    const [byAdmin] = await setAccounts(admin.call, cedente.id, [OTHER, { ...CONTA, titular_documento: CEDENTE_DOC }])
    assert.equal(byAdmin!.id, swapped!.id, 'an account kept in the list keeps its id and its state')
    const added = (await setAccounts(admin.call, cedente.id, [OTHER, { ...CONTA, titular_documento: CEDENTE_DOC }]))[1]!
    const own = await confirm(admin.call, cedente.id, added.id)
    assert.equal(own.statusCode, 403, own.body)
    assert.equal(own.json().detail, 'aprovacao_pelo_mesmo_usuario')

    const done = created(await confirm(aprovador.call, cedente.id, swapped!.id), 200)
    assert.deepEqual([done.confirmada, done.confirmada_por_usuario_id], [true, aprovador.usuarioId])
    const { titular_documento: _holder, ...other } = OTHER
    const payment = created(await operador.call('POST', `/api/operacoes/${op.id}/desembolso`, { conta_bancaria: other }, key()))
    assert.equal(payment.conta_bancaria.banco, '001')
    // What the approver reads: the account's history, who added it and who confirmed it.
    const read = created(await aprovador.call('GET', `/api/desembolsos/${payment.id}`), 200)
    assert.deepEqual(read.conta_bancaria.historico, {
      confirmada: true, incluida_em: swapped!.incluida_em, incluida_por_usuario_id: operador.usuarioId,
      confirmada_em: done.confirmada_em, confirmada_por_usuario_id: aprovador.usuarioId,
      incluida_por_nome: 'Pessoa de Teste', confirmada_por_nome: 'Pessoa de Teste',
    })
    const audit = await rowsAs<{ acao: string, ator_id: string }>(ctx.db, clienteId,
      `SELECT acao, ator_id FROM auditoria_cliente WHERE acao = 'cedente.conta_confirmada' AND alvo_id = '${cedente.id}'`)
    assert.equal(audit.length, 1)
  })

  it('an account replaced after the payment was asked for: the payment is not approved, nor recorded', async () => {
    clock.set('2026-10-05T15:00:00Z')
    const { operador, aprovador } = await backOffice(ctx.db, ctx.app, clock)
    const { op, cedente } = await formalized(operador)
    const payment = created(await operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
    await setAccounts(operador.call, cedente.id, [OTHER])
    const approval = await aprovador.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key())
    assert.equal(approval.statusCode, 409, approval.body)
    assert.deepEqual(approval.json(), { detail: 'conta_bancaria_nao_confirmada', conta_id: null })
    assert.equal(created(await operador.call('GET', `/api/desembolsos/${payment.id}`), 200).estado, 'aguardando_aprovacao')

    // Put back as it was (an account given again is a new one, waiting), then confirmed: approved and paid.
    const [back] = await setAccounts(operador.call, cedente.id, [{ ...CONTA, titular_documento: CEDENTE_DOC }])
    assert.equal(back!.confirmada, false)
    created(await confirm(aprovador.call, cedente.id, back!.id), 200)
    created(await aprovador.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key()), 200)
    await setAccounts(operador.call, cedente.id, [OTHER])
    const transfer = { id_transacao: 'E341234562026100515000000000088', pago_em: '2026-10-05T15:00:00Z' }
    const paid = await operador.call('POST', `/api/desembolsos/${payment.id}/pagamento`, transfer, key())
    assert.equal(paid.statusCode, 409, paid.body)
    assert.equal(paid.json().detail, 'conta_bancaria_nao_confirmada')
  })

  it('a token with no person adds no bank account (nobody could be told apart from its confirmer); its confirmation is audited', async () => {
    clock.set('2026-10-05T15:00:00Z')
    const { clienteId, operador, aprovador, integration } = await backOffice(ctx.db, ctx.app, clock)
    const { cedente } = await formalized(operador)
    const byToken = await integration('PATCH' as 'POST', `/api/cedentes/${cedente.id}`, { contas_bancarias: [OTHER] })
    assert.equal(byToken.statusCode, 403, byToken.body)
    assert.equal(byToken.json().detail, 'aprovacao_pelo_mesmo_usuario')
    const [added] = await setAccounts(operador.call, cedente.id, [OTHER])
    created(await confirm(aprovador.call, cedente.id, added!.id), 200)
    const [row] = await rowsAs<{ alteracoes: unknown }>(ctx.db, clienteId,
      `SELECT alteracoes FROM auditoria_cliente WHERE acao = 'cedente.conta_confirmada' AND alvo_id = '${cedente.id}'`)
    const { titular_documento: _holder, ...account } = OTHER
    assert.deepEqual(row!.alteracoes, { conta_bancaria_confirmada: { antes: null, depois: { id: added!.id, ...account } } })
  })

  it('the database refuses a payment to an account not confirmed, and a confirmation naming no person, whatever the code does', async () => {
    clock.set('2026-10-05T15:00:00Z')
    const { clienteId, operador } = await backOffice(ctx.db, ctx.app, clock)
    const { op, cedente } = await formalized(operador)
    const payment = created(await operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
    const noPerson = (err: Error) => /confirmed by a person other than/.test(String((err.cause as Error | undefined)?.message ?? err.message))
    await assert.rejects(rowsAs(ctx.db, clienteId, `UPDATE cedente_contas SET confirmada_em = now() WHERE cedente_id = '${cedente.id}'`), noPerson)
    await rowsAs(ctx.db, clienteId, `UPDATE cedente_contas SET confirmada_em = NULL WHERE cedente_id = '${cedente.id}'`)
    await assert.rejects(rowsAs(ctx.db, clienteId, `UPDATE desembolsos SET estado = 'aprovado' WHERE id = '${payment.id}'`),
      (err: Error) => /not a confirmed account of its cedente/.test(String((err.cause as Error | undefined)?.message ?? err.message)))
  })
})

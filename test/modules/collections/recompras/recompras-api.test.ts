// /api/recompras (issue 33): the cedente buys back títulos. In plain factoring a buy-back for the sacado's default is
// refused with the rule's code (STJ, REsp 1.711.412/MG); a defect of origin is always taken. With the product's
// coobrigação, a título past due is bought back for its balance and the juros and multa its charge's terms give,
// computed here by hand from the terms; the ledger moves account by account, the títulos end `recomprado`, and the
// cedente's payment closes its conta gráfica. Another customer's títulos are not found; nothing is bought back twice.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { dbError, rowsAs } from '../../../helpers/credentials.ts'
import { useTestApp } from '../../../helpers/fixture.ts'
import {
  backOffice, created, EXAMPLE_NOW, EXAMPLE_PRODUCT, exampleRegisters, formalizedExample, key, settableClock,
} from '../../operations/helpers.ts'

const BB = { nome: 'BB cobrança', banco: '001', agencia: '3064', conta: '123456', conta_digito: 'X', carteira: '17', convenio: '1234567' }

describe('/api/recompras', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  const world = async (coobrigacao: boolean) => {
    clock.set(EXAMPLE_NOW)
    const office = await backOffice(ctx.db, ctx.app, clock)
    const regs = await exampleRegisters(office.admin.call)
    if (coobrigacao) {
      const { nome: _nome, ...terms } = EXAMPLE_PRODUCT
      created(await office.admin.call('POST', `/api/produtos/${regs.produto.id}/versoes`, { ...terms, coobrigacao: true }, key()))
    }
    const { op } = await formalizedExample(office.admin.call, regs)
    const [t1, t2, t3] = (op.titulos as { id: string }[]).map((t) => t.id) as [string, string, string]
    const rows = <R>(q: string) => rowsAs<R>(ctx.db, office.clienteId, q)
    const balance = async (conta: string, cedente?: string) => BigInt((await rows<{ s: string }>(`SELECT coalesce(sum(debito_centavos - credito_centavos),
      0)::text AS s FROM lancamento_linhas WHERE conta = '${conta}'${cedente ? ` AND cedente_id = '${cedente}'` : ''}`))[0]!.s)
    return { ...office, regs, op, t1, t2, t3, rows, balance, cedente: regs.cedente.id as string }
  }

  it('refuses a buy-back for default without coobrigação (the rule\'s code); takes one for a defect of origin, and its payment', async () => {
    const w = await world(false)
    clock.set('2026-11-10T15:00:00Z')
    const refused = await w.operador.call('POST', '/api/recompras', { titulo_ids: [w.t1], motivo: 'inadimplencia', descricao: 'Sacado não pagou',
      forma: 'pagamento' }, key())
    assert.deepEqual([refused.statusCode, refused.json()], [409, { detail: 'recompra_sem_coobrigacao', titulo_ids: [w.t1] }])

    const [t2] = await w.rows<{ saldo: string, pendente: string }>(`SELECT saldo_centavos::text AS saldo,
      (desagio_centavos - desagio_apropriado_centavos)::text AS pendente FROM titulos WHERE id = '${w.t2}'`)
    const before = { grafica: await w.balance('conta_grafica_cedentes', w.cedente), direitos: await w.balance('direitos_creditorios'),
      receita: await w.balance('receita_desagio') }
    const made = created(await w.operador.call('POST', '/api/recompras', { titulo_ids: [w.t2], motivo: 'vicio_de_origem',
      descricao: 'Mercadoria devolvida pelo sacado', forma: 'pagamento' }, key()))
    assert.deepEqual({ ...made, id: undefined, lancamento_id: undefined, criado_em: undefined, atualizado_em: undefined }, {
      id: undefined, cedente_id: w.cedente, motivo: 'vicio_de_origem', descricao: 'Mercadoria devolvida pelo sacado', forma: 'pagamento',
      coobrigacao: false, data: '2026-11-10', principal_centavos: Number(t2!.saldo), encargos_centavos: 0, valor_centavos: Number(t2!.saldo),
      estado: 'aberta', lancamento_id: undefined, id_transacao: null, pago_em: null, operacao_id: null, cancelada_em: null, motivo_cancelamento: null,
      cancelamento_lancamento_id: null,
      titulos: [{ titulo_id: w.t2, saldo_centavos: Number(t2!.saldo), juros_centavos: 0, multa_centavos: 0,
        desagio_reconhecido_centavos: Number(t2!.pendente) }],
      criado_em: undefined, atualizado_em: undefined,
    })
    // The cedente owes the balance (a debit of its conta gráfica); the receivable is gone; the deságio left is earned.
    assert.equal(await w.balance('conta_grafica_cedentes', w.cedente) - before.grafica, BigInt(t2!.saldo))
    assert.equal(await w.balance('direitos_creditorios') - before.direitos, -BigInt(t2!.saldo))
    assert.equal(await w.balance('receita_desagio') - before.receita, -BigInt(t2!.pendente))
    const [after] = await w.rows<{ estado: string, saldo: string }>(`SELECT estado, saldo_centavos::text AS saldo FROM titulos WHERE id = '${w.t2}'`)
    assert.deepEqual(after, { estado: 'recomprado', saldo: '0' })

    // The operation is no longer undone by reversing its acquisition: the título bought back is named.
    const cancel = await w.admin.call('POST', `/api/operacoes/${w.op.id}/cancelamento`, { motivo: 'Desistência' }, key())
    assert.equal(cancel.statusCode, 409, cancel.body)
    assert.deepEqual(cancel.json().titulos, [{ id: w.t2, numero: 'T2', estado: 'recomprado', cobrado: false }])
    const again = await w.operador.call('POST', '/api/recompras', { titulo_ids: [w.t2], motivo: 'vicio_de_origem', descricao: 'De novo',
      forma: 'pagamento' }, key())
    assert.deepEqual([again.statusCode, again.json()], [409, { detail: 'titulo_nao_adquirido', estado: 'recomprado' }])

    const early = await w.operador.call('POST', `/api/recompras/${made.id}/pagamento`, { id_transacao: 'E1', pago_em: '2026-11-09T12:00:00Z' }, key())
    assert.equal(early.statusCode, 422, early.body)
    const paid = created(await w.operador.call('POST', `/api/recompras/${made.id}/pagamento`, { id_transacao: 'E2E-1',
      pago_em: '2026-11-10T14:00:00Z' }, key()), 200)
    assert.deepEqual([paid.estado, paid.id_transacao, paid.pago_em], ['paga', 'E2E-1', '2026-11-10T14:00:00.000Z'])
    assert.equal(await w.balance('conta_grafica_cedentes', w.cedente), before.grafica, 'the cedente\'s conta gráfica is back where it was')
    const twice = await w.operador.call('POST', `/api/recompras/${made.id}/pagamento`, { id_transacao: 'E2E-2', pago_em: '2026-11-10T14:00:00Z' }, key())
    assert.deepEqual([twice.statusCode, twice.json()], [409, { detail: 'estado_invalido', estado: 'paga' }])
    // One transfer pays one buy-back.
    const second = created(await w.operador.call('POST', '/api/recompras', { titulo_ids: [w.t3], motivo: 'vicio_de_origem', descricao: 'Cheque falso',
      forma: 'pagamento' }, key()))
    const reused = await w.operador.call('POST', `/api/recompras/${second.id}/pagamento`, { id_transacao: 'E2E-1', pago_em: '2026-11-10T14:00:00Z' }, key())
    assert.deepEqual([reused.statusCode, reused.json()], [409, { detail: 'id_transacao_em_uso', recompra_id: made.id }])
    const [trial] = await w.rows<{ d: string, c: string }>('SELECT sum(debito_centavos)::text AS d, sum(credito_centavos)::text AS c FROM lancamento_linhas')
    assert.equal(trial!.d, trial!.c)
    assert.deepEqual(created(await w.aprovador.call('GET', `/api/recompras?cedente_id=${w.cedente}`), 200).itens.map((r: { id: string }) => r.id),
      [second.id, made.id])
    const audit = await w.rows<{ acao: string }>(`SELECT acao FROM auditoria_cliente WHERE acao LIKE 'recompra.%' ORDER BY numero`)
    assert.deepEqual(audit.map((a) => a.acao), ['recompra.criada', 'recompra.paga', 'recompra.criada'])
  })

  it('with coobrigação, a título past due is bought back with the juros and multa its charge\'s terms give; one not yet due is refused', async () => {
    const w = await world(true)
    const account = created(await w.operador.call('POST', '/api/contas-cobranca', BB))
    created(await w.aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    created(await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t1, conta_cobranca_id: account.id,
      juros: { tipo: 'valor_dia', valor_centavos: 100 }, multa_percentual: '0.02' }, key()))
    // The customer's own holiday at the sacado's place on T1's due date (Wednesday 2026-11-04) moves it to Thursday:
    // on the 5th it is not yet in default.
    created(await w.operador.call('POST', '/api/feriados', { data: '2026-11-04', descricao: 'Feriado estadual do cliente', uf: 'SP' }))
    clock.set('2026-11-05T15:00:00Z')
    const onTheDay = await w.operador.call('POST', '/api/recompras', { titulo_ids: [w.t1], motivo: 'inadimplencia', descricao: 'Atraso',
      forma: 'compensacao' }, key())
    assert.equal(onTheDay.statusCode, 422, onTheDay.body)
    assert.match(JSON.stringify(onTheDay.json()), /T1 ainda não está em atraso \(vence, em dia útil, em 2026-11-05\)/)
    // T1 (R$ 10.000,00) was due on 2026-11-04, a holiday: five days late on the 10th, from the 5th.
    clock.set('2026-11-10T15:00:00Z')
    const notYet = await w.operador.call('POST', '/api/recompras', { titulo_ids: [w.t1, w.t3], motivo: 'inadimplencia', descricao: 'Atraso',
      forma: 'compensacao' }, key())
    assert.equal(notYet.statusCode, 422, notYet.body)
    assert.match(JSON.stringify(notYet.json()), /T3 ainda não está em atraso/)
    const made = created(await w.operador.call('POST', '/api/recompras', { titulo_ids: [w.t1], motivo: 'inadimplencia', descricao: 'Sacado inadimplente',
      forma: 'compensacao' }, key()))
    const multa = 1_000_000 * 2 / 100
    const juros = 100 * 5
    assert.deepEqual([made.coobrigacao, made.principal_centavos, made.encargos_centavos, made.valor_centavos],
      [true, 1_000_000, multa + juros, 1_000_000 + multa + juros])
    assert.deepEqual([made.titulos[0].juros_centavos, made.titulos[0].multa_centavos], [juros, multa])
    // Its charge never reached the bank (waiting, in no remessa): written off, and no remessa will carry it.
    const [charge] = created(await w.operador.call('GET', `/api/cobrancas?titulo_id=${w.t1}`), 200).itens
    assert.equal(charge.estado, 'baixada')
    // To be compensated in the cedente's next operation: no payment is taken for it.
    const pay = await w.operador.call('POST', `/api/recompras/${made.id}/pagamento`, { id_transacao: 'E3', pago_em: '2026-11-10T14:00:00Z' }, key())
    assert.deepEqual([pay.statusCode, pay.json()], [409, { detail: 'estado_invalido', estado: 'a_compensar' }])

    const other = await backOffice(ctx.db, ctx.app, clock)
    const theirs = await other.admin.call('POST', '/api/recompras', { titulo_ids: [w.t3], motivo: 'vicio_de_origem', descricao: 'Alheio',
      forma: 'pagamento' }, key())
    assert.deepEqual([theirs.statusCode, theirs.json()], [404, { detail: 'nao_encontrado' }])
    assert.equal((await other.admin.call('GET', `/api/recompras/${made.id}`)).statusCode, 404)
    const { estado } = (await w.rows<{ estado: string }>(`SELECT estado FROM titulos WHERE id = '${w.t3}'`))[0]!
    assert.equal(estado, 'adquirido')
  })

  it('a buy-back to compensate is deducted from the cedente\'s next operation, marked at its acceptance, and given back by its cancellation', async () => {
    const w = await world(false)
    clock.set('2026-11-10T15:00:00Z')
    const made = created(await w.operador.call('POST', '/api/recompras', { titulo_ids: [w.t2], motivo: 'vicio_de_origem', descricao: 'Serviço não prestado',
      forma: 'compensacao' }, key()))
    const grafica = await w.balance('conta_grafica_cedentes', w.cedente)
    const next = created(await w.admin.call('POST', '/api/operacoes', { cedente_id: w.cedente, produto_id: w.regs.produto.id, data_operacao: '2026-11-10',
      titulos: [{ tipo: 'duplicata_mercantil', numero: 'N1', sacado_id: w.regs.sacados[0].id, emissao: '2026-11-09', vencimento: '2027-01-15',
        valor_face_centavos: 6_000_000 }] }))
    const quote = created(await w.admin.call('POST', `/api/operacoes/${next.id}/cotacao`))
    const t = quote.totais
    assert.deepEqual(quote.compensacoes, [{ recompra_id: made.id, valor_centavos: made.valor_centavos }])
    assert.equal(t.compensacoes_centavos, made.valor_centavos)
    // The face value is its parts: what the purchase costs, what is paid, and what the cedente owed back.
    assert.equal(t.valor_face_centavos, t.desagio_centavos + t.ad_valorem_centavos + t.tarifas_centavos + t.tac_centavos + t.iof_centavos
      + t.valor_liquido_centavos + t.compensacoes_centavos)
    created(await w.admin.call('POST', `/api/operacoes/${next.id}/aceite`, { cotacao_versao: quote.versao }, key()), 200)
    const compensated = created(await w.admin.call('GET', `/api/recompras/${made.id}`), 200)
    assert.deepEqual([compensated.estado, compensated.operacao_id], ['compensada', next.id])
    // The acceptance credits the cedente what it is paid and what it owed back: after the payment, the buy-back is settled.
    assert.equal(await w.balance('conta_grafica_cedentes', w.cedente) - grafica, -BigInt(t.valor_liquido_centavos + t.compensacoes_centavos))

    // A later quote of another operation finds nothing left to compensate.
    const other = created(await w.admin.call('POST', '/api/operacoes', { cedente_id: w.cedente, produto_id: w.regs.produto.id, data_operacao: '2026-11-10',
      titulos: [{ tipo: 'duplicata_mercantil', numero: 'N2', sacado_id: w.regs.sacados[0].id, emissao: '2026-11-09', vencimento: '2027-01-15',
        valor_face_centavos: 6_000_000 }] }))
    assert.equal(created(await w.admin.call('POST', `/api/operacoes/${other.id}/cotacao`)).totais.compensacoes_centavos, 0)

    created(await w.admin.call('POST', `/api/operacoes/${next.id}/cancelamento`, { motivo: 'Desistência do cedente' }, key()), 200)
    const open = created(await w.admin.call('GET', `/api/recompras/${made.id}`), 200)
    assert.deepEqual([open.estado, open.operacao_id], ['aberta', null])
    assert.equal(await w.balance('conta_grafica_cedentes', w.cedente), grafica, 'the cancellation leaves the cedente owing the buy-back again')
  })

  it('an open buy-back is cancelled: its entry reversed, its títulos acquired again as they were; a título is then bought back anew', async () => {
    const w = await world(false)
    clock.set('2026-11-10T15:00:00Z')
    const before = await w.rows<{ id: string, estado: string, saldo: string, apropriado: string }>(`SELECT id, estado, saldo_centavos::text AS saldo,
      desagio_apropriado_centavos::text AS apropriado FROM titulos WHERE id IN ('${w.t2}', '${w.t3}') ORDER BY id`)
    const accounts = async () => Object.fromEntries((await w.rows<{ conta: string, s: string }>(`SELECT conta,
      sum(debito_centavos - credito_centavos)::text AS s FROM lancamento_linhas GROUP BY conta`)).map((r) => [r.conta, BigInt(r.s)]))
    const ledger = await accounts()
    const made = created(await w.operador.call('POST', '/api/recompras', { titulo_ids: [w.t2, w.t3], motivo: 'vicio_de_origem',
      descricao: 'Duplicatas emitidas em duplicidade', forma: 'pagamento' }, key()))
    const cancel = (id: string, k = key()) => w.operador.call('POST', `/api/recompras/${id}/cancelamento`, { motivo: 'Registrada por engano' }, k)
    const k = key()
    const cancelled = created(await cancel(made.id, k), 200)
    assert.deepEqual([cancelled.estado, cancelled.motivo_cancelamento], ['cancelada', 'Registrada por engano'])
    assert.ok(cancelled.cancelada_em && cancelled.cancelamento_lancamento_id)
    assert.deepEqual(created(await cancel(made.id, k), 200), cancelled, 'a retry with the key answers the first')
    // The títulos as they were, the ledger where it was, account by account.
    const after = await w.rows<{ id: string, estado: string, saldo: string, apropriado: string }>(`SELECT id, estado, saldo_centavos::text AS saldo,
      desagio_apropriado_centavos::text AS apropriado FROM titulos WHERE id IN ('${w.t2}', '${w.t3}') ORDER BY id`)
    assert.deepEqual(after, before)
    const now = await accounts()
    for (const conta of new Set([...Object.keys(ledger), ...Object.keys(now)])) assert.equal(now[conta] ?? 0n, ledger[conta] ?? 0n, conta)
    // Once: cancelled, it is neither cancelled again nor paid.
    const again = await cancel(made.id)
    assert.deepEqual([again.statusCode, again.json()], [409, { detail: 'estado_invalido', estado: 'cancelada' }])
    const pay = await w.operador.call('POST', `/api/recompras/${made.id}/pagamento`, { id_transacao: 'E9', pago_em: '2026-11-10T14:00:00Z' }, key())
    assert.equal(pay.statusCode, 409)
    // A título of it is bought back anew, and that one, paid, is not cancelled.
    const anew = created(await w.operador.call('POST', '/api/recompras', { titulo_ids: [w.t2], motivo: 'vicio_de_origem', descricao: 'Devolução',
      forma: 'pagamento' }, key()))
    created(await w.operador.call('POST', `/api/recompras/${anew.id}/pagamento`, { id_transacao: 'E10', pago_em: '2026-11-10T14:00:00Z' }, key()), 200)
    const paid = await cancel(anew.id)
    assert.deepEqual([paid.statusCode, paid.json()], [409, { detail: 'estado_invalido', estado: 'paga' }])
    assert.deepEqual(created(await w.operador.call('GET', '/api/recompras?estado=cancelada'), 200).itens.map((r: { id: string }) => r.id), [made.id])
    const audit = await w.rows<{ acao: string }>(`SELECT acao FROM auditoria_cliente WHERE alvo_id = '${made.id}' ORDER BY numero`)
    assert.deepEqual(audit.map((a) => a.acao), ['recompra.criada', 'recompra.cancelada'])
    // Another customer's is not found; the database keeps a cancelled buy-back's títulos from being live again.
    const other = await backOffice(ctx.db, ctx.app, clock)
    const theirs = await other.operador.call('POST', `/api/recompras/${anew.id}/cancelamento`, { motivo: 'Alheia' }, key())
    assert.deepEqual([theirs.statusCode, theirs.json()], [404, { detail: 'nao_encontrado' }])
    await assert.rejects(w.rows(`UPDATE recompra_titulos SET ativa = true WHERE recompra_id = '${made.id}'`), dbError('23514', /not bought back again/))
  })
})

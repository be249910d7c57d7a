// The acceptance example end to end through the API (produto.md §2.5–2.7): an operator drafts, quotes, accepts,
// formalizes and asks for payment; an approver approves; the operator records the transfer. Every line of the
// quote is the spec's table to the centavo, the ledger holds the spec's entry, and the conta gráfica and the trial
// balance show the movement.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'
import { auditRows } from '../../helpers/credentials.ts'
import { cliRunner } from '../../helpers/cli.ts'
import { backOffice, created, EXAMPLE_NOW, exampleRegisters, exampleTitles, key, settableClock, CONTA, CEDENTE_DOC } from './helpers.ts'

/** produto.md §2.6's table, in centavos. */
const SPEC_LINES = [
  { vencimento: '2026-11-04', vencimento_util: '2026-11-04', dias_desconto: 32, dias_iof: 30, desagio_centavos: 37_333, ad_valorem_centavos: 3_000,
    tarifa_centavos: 800, iof_base_centavos: 962_667, iof_diario_centavos: 2_368, iof_adicional_centavos: 3_658, preco_compra_centavos: 952_841 },
  { vencimento: '2026-11-20', vencimento_util: '2026-11-23', dias_desconto: 51, dias_iof: 46, desagio_centavos: 148_750, ad_valorem_centavos: 7_500,
    tarifa_centavos: 800, iof_base_centavos: 2_351_250, iof_diario_centavos: 8_869, iof_adicional_centavos: 8_935, preco_compra_centavos: 2_325_146 },
  { vencimento: '2026-12-04', vencimento_util: '2026-12-04', dias_desconto: 62, dias_iof: 60, desagio_centavos: 108_500, ad_valorem_centavos: 4_500,
    tarifa_centavos: 800, iof_base_centavos: 1_391_500, iof_diario_centavos: 6_846, iof_adicional_centavos: 5_288, preco_compra_centavos: 1_374_066 },
]

describe('an operation from draft to payment (the acceptance example)', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('prices the example to the centavo, posts the spec\'s entry, pays with two people and shows it in the conta gráfica', async () => {
    clock.set(EXAMPLE_NOW)
    const { operador, aprovador, clienteId } = await backOffice(ctx.db, ctx.app, clock)
    const { produto, cedente, sacados } = await exampleRegisters(operador.call)
    const op = created(await operador.call('POST', '/api/operacoes', {
      cedente_id: cedente.id, produto_id: produto.id, data_operacao: '2026-10-05', titulos: exampleTitles(sacados.map((s: { id: string }) => s.id)),
    }))
    assert.equal(op.estado, 'rascunho')
    assert.deepEqual(op.titulos.map((t: { estado: string }) => t.estado), ['ofertado', 'ofertado', 'ofertado'])

    const quote = created(await operador.call('POST', `/api/operacoes/${op.id}/cotacao`))
    assert.equal(quote.versao, 1)
    // Kept as answered: the stored quote reads back in the answer's own order of fields.
    assert.deepEqual(Object.keys(quote).slice(0, 6), ['versao', 'valida_ate', 'produto', 'data_operacao', 'perfil_iof', 'linhas'])
    assert.deepEqual(Object.keys(quote.linhas[0]).slice(0, 3), ['titulo_id', 'vencimento', 'vencimento_util'])
    assert.equal(quote.valida_ate, '2026-10-06T03:00:00.000Z')
    assert.deepEqual(quote.produto, { id: produto.id, versao: 1 })
    quote.linhas.forEach((l: Record<string, unknown>, k: number) => {
      assert.equal(l.titulo_id, op.titulos[k].id)
      for (const [field, value] of Object.entries(SPEC_LINES[k]!)) assert.equal(l[field], value, `line ${k + 1} ${field}`)
      assert.equal(l.iof_centavos, (SPEC_LINES[k]!.iof_diario_centavos + SPEC_LINES[k]!.iof_adicional_centavos))
    })
    assert.deepEqual(quote.totais, {
      valor_face_centavos: 5_000_000, desagio_centavos: 294_583, ad_valorem_centavos: 15_000, tarifas_centavos: 2_400, tac_centavos: 15_000,
      iof_centavos: 35_964, compensacoes_centavos: 0, valor_liquido_centavos: 4_637_053,
    })
    assert.equal(quote.prazo_medio_dias, '50.50')
    assert.match(quote.taxa_efetiva_mensal, /^0\.0458[0-9]{2}$/)
    assert.deepEqual(quote.feriados, [{ data: '2026-11-20', descricao: 'Dia Nacional de Zumbi e da Consciência Negra' }])
    assert.equal(quote.iof_aliquotas.length, 1)
    assert.equal(quote.iof_aliquotas[0].taxa_diaria, '0.000082')
    // The answer is the calculation's stored text plus its instant: the operation read back holds the same quote.
    assert.deepEqual(created(await operador.call('GET', `/api/operacoes/${op.id}`), 200).cotacao, quote)

    // Every money step refuses to run without an Idempotency-Key: 400, and nothing moved.
    const needsKey = async (who: typeof operador, path: string, body?: object) => {
      const noKey = await who.call('POST', path, body)
      assert.equal(noKey.statusCode, 400, path)
      assert.equal(noKey.json().detail, 'chave_idempotencia_ausente', path)
    }
    await needsKey(operador, `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 })
    assert.equal(created(await operador.call('GET', `/api/operacoes/${op.id}`), 200).estado, 'cotada')
    const accepted = created(await operador.call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key()), 200)
    assert.equal(accepted.estado, 'aceita')
    assert.deepEqual(accepted.titulos.map((t: { estado: string, saldo_centavos: number }) => [t.estado, t.saldo_centavos]),
      [['adquirido', 1_000_000], ['adquirido', 2_500_000], ['adquirido', 1_500_000]])

    const entries = created(await operador.call('GET', '/api/lancamentos'), 200).itens
    assert.equal(entries.length, 1)
    assert.deepEqual(entries[0].origem, { tipo: 'operacao', id: op.id })
    assert.deepEqual(entries[0].linhas.map((l: Record<string, unknown>) => [l.conta, l.cedente_id, l.debito_centavos, l.credito_centavos]), [
      ['direitos_creditorios', null, 5_000_000, 0],
      ['desagio_a_apropriar', null, 0, 294_583],
      ['receita_ad_valorem', null, 0, 15_000],
      ['receita_tarifas', null, 0, 17_400],
      ['iof_a_recolher', null, 0, 35_964],
      ['conta_grafica_cedentes', cedente.id, 0, 4_637_053],
    ])
    const exposure = created(await operador.call('GET', `/api/cedentes/${cedente.id}`), 200)
    assert.equal(exposure.exposicao_centavos, 5_000_000)

    const term = { termo_sha256: 'a'.repeat(64), assinado_em: '2026-10-05T14:00:00Z', signatarios: [{ nome: 'Sócia Administradora',
      documento: '111.444.777-35' }] }
    const formal = created(await operador.call('POST', `/api/operacoes/${op.id}/formalizacao`, term), 200)
    assert.equal(formal.estado, 'formalizada')
    assert.deepEqual(formal.formalizacao.signatarios, [{ nome: 'Sócia Administradora', documento: '11144477735' }])

    await needsKey(operador, `/api/operacoes/${op.id}/desembolso`, {})
    assert.equal(created(await operador.call('GET', `/api/operacoes/${op.id}`), 200).estado, 'formalizada')
    const payment = created(await operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
    assert.equal(payment.estado, 'aguardando_aprovacao')
    assert.equal(payment.valor_centavos, 4_637_053)
    const { historico, ...account } = payment.conta_bancaria
    assert.deepEqual(account, { ...CONTA, titular_documento: CEDENTE_DOC })
    assert.deepEqual([historico.confirmada, historico.confirmada_por_usuario_id], [true, null], 'the registration\'s account, usable at once')
    assert.equal(payment.solicitante_usuario_id, operador.usuarioId)

    const selfApproval = await operador.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key())
    assert.equal(selfApproval.statusCode, 403, 'an operador\'s role does not reach approval')
    await needsKey(aprovador, `/api/desembolsos/${payment.id}/aprovacao`)
    assert.equal(created(await operador.call('GET', `/api/desembolsos/${payment.id}`), 200).estado, 'aguardando_aprovacao')
    const approved = created(await aprovador.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key()), 200)
    assert.equal(approved.estado, 'aprovado')
    assert.equal(approved.aprovado_por_usuario_id, aprovador.usuarioId)

    clock.set('2026-10-05T18:00:00Z')
    await needsKey(operador, `/api/desembolsos/${payment.id}/pagamento`, { id_transacao: 'E341234562026100518000000000001', pago_em: '2026-10-05T17:59:00Z' })
    assert.equal(created(await operador.call('GET', `/api/desembolsos/${payment.id}`), 200).estado, 'aprovado')
    const paid = created(await operador.call('POST', `/api/desembolsos/${payment.id}/pagamento`,
      { id_transacao: 'E341234562026100518000000000001', pago_em: '2026-10-05T17:59:00Z' }, key()), 200)
    assert.equal(paid.estado, 'pago')
    assert.equal(created(await operador.call('GET', `/api/operacoes/${op.id}`), 200).estado, 'desembolsada')

    const extrato = created(await aprovador.call('GET', `/api/cedentes/${cedente.id}/extrato?de=2026-10-01&ate=2026-10-31`), 200)
    assert.equal(extrato.saldo_inicial_centavos, 0)
    assert.deepEqual(extrato.movimentos.map((m: Record<string, number>) => [m.credito_centavos, m.debito_centavos, m.saldo_centavos]),
      [[4_637_053, 0, 4_637_053], [0, 4_637_053, 0]])
    assert.equal(extrato.saldo_final_centavos, 0)

    const trial = created(await aprovador.call('GET', '/api/contabil/balancete?data=2026-10-31'), 200)
    assert.equal(trial.totais.debitos_centavos, trial.totais.creditos_centavos)
    assert.equal(trial.totais.saldo_devedor_centavos, trial.totais.saldo_credor_centavos)
    const byAccount = Object.fromEntries(trial.contas.map((c: Record<string, unknown>) => [c.conta, c]))
    assert.equal(byAccount.banco.saldo_credor_centavos, 4_637_053)
    assert.equal(byAccount.direitos_creditorios.saldo_devedor_centavos, 5_000_000)
    assert.equal(byAccount.conta_grafica_cedentes.saldo_credor_centavos, 0)

    // The operator's CLI reads the same, for support.
    const { lines, cli } = cliRunner(() => ctx.db)
    assert.equal(await cli('operacoes', 'listar', '--cliente', clienteId, '--json'), 0, lines.join('\n'))
    assert.deepEqual(JSON.parse(lines[0]!).map((o: Record<string, unknown>) => [o.id, o.estado, o.quantidade_titulos, o.valor_face_centavos]),
      [[op.id, 'desembolsada', 3, 5_000_000]])
    assert.equal(await cli('contabil', 'balancete', '--cliente', clienteId, '--data', '2026-10-31'), 0, lines.join('\n'))
    assert.equal(lines.at(-1), ['TOTAL', '9637053', '9637053', '5000000', '5000000'].join('\t'))
    assert.equal(await cli('contabil', 'balancete', '--cliente', '0b5e8c1e-4f7a-4d2b-9c3e-2a1f6d8e7b90'), 1)
    assert.match(lines.join('\n'), /no customer has the id/)
    assert.equal(await cli('contabil', 'balancete', '--cliente', clienteId, '--data', '2026-02-30'), 2)

    const actions = (await auditRows(ctx.db, clienteId)).map((r) => r.acao)
    for (const a of ['operacao.criada', 'operacao.cotada', 'operacao.aceita', 'operacao.formalizada', 'desembolso.solicitado', 'desembolso.aprovado',
      'desembolso.pago']) {
      assert.ok(actions.includes(a), a)
    }
  })
})

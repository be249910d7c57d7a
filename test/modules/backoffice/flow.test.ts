// The back office without JavaScript, end to end (produto.md §2, issue 19): an operador registers the product, the
// cedente and the sacados, opens the acceptance example's operation, adds its títulos, quotes it (the spec's lines
// on the page, as the API answers them), accepts, formalizes and asks for the payment; they are never offered the
// approval, and their own approval is refused; an aprovador approves it, the operador records the transfer, and
// the conta gráfica shows the movement. Every step is a form post answered with a redirect.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { brl } from '../../../src/platform/lib/brl.ts'
import { colleagueWithPassword, personWithPassword, postForm } from '../../helpers/account-web.ts'
import { auditRows, rowsAs } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { callerFor, created, EXAMPLE_NOW, exampleRegisters, exampleTitles, key, settableClock } from '../operations/helpers.ts'
import { hiddenFields, paymentAsked, refusalsOn, rowCells, signIn } from './steps.ts'

/** "até o fim de 29/11/2026" for an instant on midnight in Brasília (UTC−3), else "até 29/11/2026, 17:00:00". */
function quoteUntil(iso: string): string {
  const local = new Date(new Date(iso).getTime() - 3 * 3600_000)
  if (local.toISOString().endsWith('T00:00:00.000Z')) {
    const dayBefore = new Date(local.getTime() - 86_400_000).toISOString().slice(0, 10)
    return `até o fim de ${dayBefore.split('-').reverse().join('/')}`
  }
  return `até ${local.toISOString().slice(0, 10).split('-').reverse().join('/')}, ${local.toISOString().slice(11, 19)}`
}

/** produto.md §2.6: each título's price of purchase, and the net amount. */
const SPEC_PRICES = [952_841, 2_325_146, 1_374_066]
const SPEC_NET = 4_637_053

describe('the back office, without JavaScript', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  const team = async () => {
    const admin = await personWithPassword(ctx.db)
    const operador = await colleagueWithPassword(ctx.db, admin.clienteId, 'operador')
    const aprovador = await colleagueWithPassword(ctx.db, admin.clienteId, 'aprovador')
    return {
      clienteId: admin.clienteId, admin, operador, aprovador, op: await signIn(ctx.app, operador.email), ap: await signIn(ctx.app, aprovador.email),
    }
  }

  const registers = async (op: Awaited<ReturnType<typeof team>>['op']) => {
    let page = await op.done('/conta/produtos', 'form-produto', {
      nome: 'Duplicatas 3,5%', base: 'simples_30', taxa_mensal: '3,5', taxa_ad_valorem: '0,3', tarifa: '8,00', tac: '150,00', dias_float: '2', iof: 'calcular',
    })
    assert.match(page.body, /Produto criado\./)
    assert.deepEqual(rowCells(page.body, 'data-produto='), {
      'Versão': '1', 'Base': 'simples, mês de 30 dias', 'Taxa mensal': '3,5 %', 'Ad valorem': '0,3 %', 'Tarifa por título': 'R$ 8,00',
      'Tarifa de cadastro': 'R$ 150,00', 'IOF': 'calculado pelo perfil do cedente',
    })
    page = await op.done('/conta/cedentes', 'form-cedente', {
      documento: '11.222.333/0001-81', razao_social: 'Cedente Exemplo Ltda', limite: '100.000,00', municipio_ibge: '3550308', uf: 'sp', perfil_iof: 'pj',
      banco: '341', agencia: '1234', conta: '567890', digito: '1',
    })
    assert.match(page.body, /Cedente cadastrado\./)
    assert.deepEqual(rowCells(page.body, 'data-id='), {
      'Documento': '11.222.333/0001-81', 'Limite': 'R$ 100.000,00', 'Exposição': 'R$ 0,00', 'Situação': 'ativo',
    })
    for (const documento of ['111.444.777-35', '12.ABC.345/01DE-35', '529.982.247-25']) {
      await op.done('/conta/sacados', 'form-sacado', { documento, razao_social: `Sacado ${documento}`, municipio_ibge: '3550308', uf: 'SP' })
    }
  }

  it('takes the example from draft to payment by forms, with the spec\'s prices on the page and two people', async () => {
    clock.set(EXAMPLE_NOW)
    const { op, ap, clienteId } = await team()
    await registers(op)
    const [cedente] = await rowsAs<{ id: string }>(ctx.db, clienteId, 'select id from cedentes')
    const [produto] = await rowsAs<{ id: string }>(ctx.db, clienteId, 'select id from produtos')
    let page = await op.done('/conta/operacoes', 'form-operacao', { data_operacao: '2026-10-05', cedente_id: cedente!.id, produto_id: produto!.id })
    const opId = /\/conta\/operacoes\/([0-9a-f-]{36})/.exec(page.body)?.[1] ?? ''
    assert.match(page.body, /Operação aberta: inclua os títulos\./)
    const path = `/conta/operacoes/${opId}`
    const [s1, s2, s3] = (await rowsAs<{ id: string }>(ctx.db, clienteId, 'select id from sacados order by criado_em, seq')).map((s) => s.id)
    const titles = [
      { tipo: 'duplicata_mercantil', numero: 'T1', sacado_id: s1!, emissao: '2026-10-01', vencimento: '2026-11-04', valor_face: '10.000,00' },
      { tipo: 'duplicata_servico', numero: 'T2', sacado_id: s2!, emissao: '2026-10-01', vencimento: '2026-11-20', valor_face: '25000' },
      { tipo: 'cheque', numero: 'T3', sacado_id: s3!, emissao: '2026-10-02', vencimento: '2026-12-04', valor_face: 'R$ 15.000,00' },
    ]
    for (const t of titles) page = await op.done(path, 'form-titulo', t)
    // The kinds in words, as /conta/titulos and the borderô name them.
    const kinds = /<select id="campo-tipo" name="tipo"[^>]*>([\s\S]*?)<\/select>/.exec(page.body)![1]!
    assert.deepEqual([...kinds.matchAll(/<option value="[^"]+"[^>]*>([^<]+)<\/option>/g)].map((m) => m[1]),
      ['duplicata mercantil', 'duplicata de serviço', 'cheque', 'nota promissória', 'CCB', 'CT-e'])
    assert.equal([...page.body.matchAll(/data-titulo="/g)].length, 3)
    assert.match(page.body, /<dt>Cedente<\/dt><dd><a href="[^"]+">Cedente Exemplo Ltda<\/a> \(11\.222\.333\/0001-81\)<\/dd>/, 'the CNPJ punctuated')
    const t1 = page.body.slice(page.body.indexOf('<tr data-titulo='))
    assert.deepEqual(rowCells(t1, '<tr data-titulo='), {
      'Tipo': 'duplicata mercantil', 'Sacado': 'Sacado 111.444.777-35', 'Vencimento': '04/11/2026', 'Valor de face': 'R$ 10.000,00', 'Estado': 'ofertado',
      'Confirmação': 'pendente', 'Registro': 'não consultado',
      'Verificações': 'Enviar link de confirmação do título T1 \nConsultar o registro do título T1',
      'Ação': rowCells(t1, '<tr data-titulo=')['Ação']!,
    })
    assert.match(t1, /<td data-rotulo="Valor de face" class="num">R\$ 10\.000,00<\/td>/, 'amounts right-aligned')
    assert.match(page.body, /<th scope="col" class="num">Valor de face<\/th>/)

    page = await op.done(path, 'form-cotar')
    assert.match(page.body, /Operação cotada/)
    const api = await ctx.app.inject({ url: `/api/operacoes/${opId}`, headers: { cookie: op.cookie, 'sec-fetch-site': 'same-origin' } })
    const quote = api.json().cotacao
    SPEC_PRICES.forEach((price, i) => {
      const cells = rowCells(page.body, `data-linha="${i}"`)
      assert.equal(cells['Preço de compra'], brl(price), `line ${i}: the spec's price`)
      const line = quote.linhas[i]
      assert.deepEqual(cells, {
        'Vencimento útil': line.vencimento_util.split('-').reverse().join('/'), 'Dias': String(line.dias_desconto),
        'Valor de face': brl(line.valor_face_centavos),
        'Deságio': brl(line.desagio_centavos), 'Ad valorem': brl(line.ad_valorem_centavos), 'Tarifa': brl(line.tarifa_centavos), 'IOF': brl(line.iof_centavos),
        'Preço de compra': brl(line.preco_compra_centavos),
      }, `line ${i}: as the API answers it`)
    })
    assert.match(page.body, new RegExp(`<dd class="num" data-total="valor_liquido"><strong>${brl(SPEC_NET).replace('$', '\\$')}</strong>`))
    assert.match(page.body, /<td data-rotulo="Preço de compra" class="num">/)
    assert.match(page.body, /<th scope="col" class="num">Preço de compra<\/th>/)
    assert.match(page.body, /; perfil de IOF: pessoa jurídica\.<\/p>/)
    assert.match(page.body, new RegExp(`Versão 1, válida ${quoteUntil(quote.valida_ate)};`))
    assert.match(page.body, /Versão 1, válida até o fim de 05\/10\/2026;/, 'valid through the operation\'s day: midnight after it is its end, not "06/10, 00:00"')

    page = await op.done(path, 'form-aceite')
    assert.match(page.body, /<dd id="estado">aceita<\/dd>/)
    page = await op.done(path, 'form-formalizacao', {
      termo_sha256: 'ab'.repeat(32), assinado_em: '2026-10-05T11:30', signatario_nome: 'Maria Cedente', signatario_documento: '529.982.247-25',
    })
    assert.match(page.body, /<dd id="estado">formalizada<\/dd>/)
    assert.match(page.body, /<dt>Signatários<\/dt><dd>Maria Cedente \(529\.982\.247-25\)<\/dd>/)
    page = await op.done(path, 'form-desembolso')
    assert.match(page.body, /<dd id="estado">em desembolso<\/dd>/)
    assert.doesNotMatch(page.body, /id="(aprovar|botao-aprovar)-/, 'who asked is never offered the approval')
    assert.match(page.body, /class="aguarda-outra-pessoa"/)

    const pagamentoId = /data-desembolso="([0-9a-f-]{36})"/.exec(page.body)![1]!
    // An operador's forged approval is refused by the API (the role never approves), in words, on the operation's page.
    const forged = await postForm(ctx.app, `/conta/desembolsos/${pagamentoId}/aprovacao`, { ...hiddenFields(page.body, 'form-cancelar').fields, volta: path },
      { cookie: op.cookie })
    assert.equal(forged.statusCode, 403)
    assert.match(forged.body, /O seu papel não permite este passo/)
    assert.match(forged.body, /<dd id="estado">em desembolso<\/dd>/)

    const approverView = await ap.get('/conta/desembolsos')
    assert.match(approverView.body, new RegExp(`id="botao-aprovar-${pagamentoId}"`))
    // The approver sees when the account was added and confirmed before the money leaves (issue 31 item 6).
    assert.match(approverView.body, /class="conta-historico">Incluída no cadastro do cedente, em /)
    assert.doesNotMatch(approverView.body, /id="form-cancelar"|id="pagar-|id="falha-/, 'an aprovador only approves')
    assert.match(approverView.body, /<dt>Situação<\/dt><dd class="desembolso-estado">aguardando aprovação<\/dd>/)
    assert.match(approverView.body, /Cedente Exemplo Ltda<\/a> \(11\.222\.333\/0001-81\)<\/dd>/)
    // Every state the API filters by, "recusado" included.
    const states = /<select id="filtro-estado" name="estado">([\s\S]*?)<\/select>/.exec(approverView.body)![1]!
    assert.deepEqual([...states.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]),
      ['', 'aguardando_aprovacao', 'aprovado', 'pago', 'falhou', 'cancelado', 'recusado'])
    assert.match(states, /<option value="recusado">recusado<\/option>/)
    page = await ap.done('/conta/desembolsos', `aprovar-${pagamentoId}`)
    assert.match(page.body, /Desembolso aprovado/)

    clock.set('2026-10-05T15:20:00Z')
    const pay = await op.submit(path, `pagar-${pagamentoId}`, { id_transacao: 'E00000000202610051500abcdef012345', pago_em: '2026-10-05T12:10' })
    assert.equal(pay.statusCode, 303, refusalsOn(pay.body))
    page = await op.get(pay.headers.location as string)
    assert.match(page.body, /<dd id="estado">desembolsada<\/dd>/)

    const cedenteId = /href="\/conta\/cedentes\/([0-9a-f-]{36})"/.exec(page.body)![1]!
    const extrato = await op.get(`/conta/cedentes/${cedenteId}?de=2026-10-01&ate=2026-10-31`)
    assert.equal(extrato.statusCode, 200)
    assert.equal([...extrato.body.matchAll(/data-lancamento="/g)].length, 2, 'the acquisition and the payment')
    assert.match(extrato.body, /<dd id="saldo-final">R\$ 0,00<\/dd>/)
    assert.match(extrato.body, new RegExp(`${brl(SPEC_NET).replace('$', '\\$')}`))

    const razao = await ap.get('/conta/razao')
    assert.equal(razao.statusCode, 200)
    assert.match(razao.body, /id="balancete"/)
    // Accounts by name, in the balancete and in each entry's lines: no `titulos_descontados` on screen.
    assert.doesNotMatch(razao.body, /data-conta="([a-z_]+)"><th scope="row">\1</)
    assert.match(razao.body, /<ul><li>[A-ZÁÉÍÓÚ][^<:]*: [DC] R\$/)
    assert.doesNotMatch(razao.body, /<li>[a-z_]+: [DC] R\$/)
    // Audited as the API's own requests are, each with the page's request id beside its own.
    const audit = (await auditRows(ctx.db, clienteId)).filter((a) => String(a.acao).startsWith('desembolso.'))
    assert.deepEqual(audit.map((a) => a.acao), ['desembolso.solicitado', 'desembolso.aprovado', 'desembolso.pago'])
    assert.equal(audit.at(-1)!.request_id_cliente, pay.headers['x-request-id'], 'the transfer\'s row names the page\'s post')
    assert.notEqual(audit.at(-1)!.request_id, pay.headers['x-request-id'])
    // And readable at /conta: the transfer's row with both ids, as the API's audit trail answers it.
    const trail = await ap.get('/conta/auditoria')
    assert.equal(trail.statusCode, 200)
    assert.deepEqual(rowCells(trail.body, `data-auditoria="${audit.at(-1)!.id}"`), {
      'Ação': 'Transferência registrada', 'Quem': 'Pessoa operador', 'Alvo': 'Desembolso da operação nº 1',
      'O que mudou': '—', 'Requisição': audit.at(-1)!.request_id, 'Requisição do cliente': pay.headers['x-request-id'],
    })
  })

  it('opens an operation for the cedente and the product chosen, never one preselected, the cedentes listed by name', async () => {
    clock.set(EXAMPLE_NOW)
    const { op } = await team()
    await registers(op)
    // Two more cedentes, registered after it: the operation's form lists them by name (pt-BR order: "Água" before
    // "Zeta"), not newest first.
    for (const [documento, razao_social] of [['45331087000118', 'Zeta Fomento Ltda'], ['98765432000198', 'Água Viva Comércio Ltda']]) {
      await op.done('/conta/cedentes', 'form-cedente', {
        documento: documento!, razao_social: razao_social!, municipio_ibge: '3550308', uf: 'SP', perfil_iof: 'pj',
      })
    }
    // The cedente and the product are chosen, never preselected: the form starts on an empty, required choice, the cedentes by name.
    let page = await op.get('/conta/operacoes')
    const opening = page.body
    const choices = (name: string) => {
      const select = new RegExp(`<select id="campo-${name}" name="${name}" required[^>]*>([\\s\\S]*?)</select>`).exec(opening)
      assert.ok(select, `${name}: a required select`)
      return [...select[1]!.matchAll(/<option value="([^"]*)"( selected)?>([^<]+)<\/option>/g)]
    }
    const cedenteOptions = choices('cedente_id')
    assert.deepEqual(cedenteOptions.map((m) => m[3]), ['Escolha o cedente', 'Água Viva Comércio Ltda (98.765.432/0001-98)',
      'Cedente Exemplo Ltda (11.222.333/0001-81)', 'Zeta Fomento Ltda (45.331.087/0001-18)'])
    assert.deepEqual([cedenteOptions[0]![1], cedenteOptions[0]![2]], ['', ' selected'], 'nothing chosen at first')
    assert.ok(cedenteOptions.slice(1).every((m) => !m[2]), 'no cedente preselected')
    const productOptions = choices('produto_id')
    assert.deepEqual(productOptions.map((m) => m[3]), ['Escolha o produto', 'Duplicatas 3,5% (versão 1)'])
    const unchosen = await op.submit('/conta/operacoes', 'form-operacao', { data_operacao: '2026-10-05' })
    assert.equal(unchosen.statusCode, 422, 'a form sent with no cedente opens nothing')
    page = await op.done('/conta/operacoes', 'form-operacao', { cedente_id: cedenteOptions[2]![1]!, produto_id: productOptions[1]![1]! })
    assert.match(page.body, /<dt>Cedente<\/dt><dd><a href="[^"]+">Cedente Exemplo Ltda<\/a>/, 'the cedente chosen')
    // The lists' filters by name too.
    const filter = /<select id="filtro-cedente_id" name="cedente_id">([\s\S]*?)<\/select>/.exec((await op.get('/conta/titulos')).body)![1]!
    assert.deepEqual([...filter.matchAll(/<option value="[^"]*"[^>]*>([^<]+)<\/option>/g)].map((m) => m[1]),
      ['Todos', 'Água Viva Comércio Ltda', 'Cedente Exemplo Ltda', 'Zeta Fomento Ltda'])
  })

  it('removes a título and a holiday by their forms; records a failed transfer, after which the payment is asked again', async () => {
    clock.set(EXAMPLE_NOW)
    const { op, operador, aprovador, clienteId } = await team()
    let page = await op.done('/conta/feriados', 'form-feriado', { data: '2026-11-10', descricao: 'Feriado de teste', municipio_ibge: '3550308' })
    assert.match(page.body, /Feriado incluído\./)
    const feriadoId = /data-feriado="([0-9a-f-]{36})"/.exec(page.body)![1]!
    const both = await op.submit('/conta/feriados', 'form-feriado', { data: '2026-11-11', descricao: 'Dois lugares', municipio_ibge: '3550308', uf: 'SP' })
    assert.equal(both.statusCode, 422)
    assert.match(refusalsOn(both.body), /informe o município ou a UF, um dos dois/, 'a rule between fields is named in the summary')
    page = await op.done('/conta/feriados', `remover-${feriadoId}`)
    assert.match(page.body, /Feriado removido\./)
    assert.ok(!page.body.includes(`data-feriado="${feriadoId}"`))

    const call = await callerFor(ctx.db, ctx.app, clienteId, operador.usuarioId, clock)
    const { produto, cedente, sacados } = await exampleRegisters(call)
    const draft = created(await call('POST', '/api/operacoes', {
      cedente_id: cedente.id, produto_id: produto.id, data_operacao: '2026-10-05', titulos: exampleTitles(sacados.map((s: { id: string }) => s.id)),
    }))
    const path = `/conta/operacoes/${draft.id}`
    page = await op.done(path, `remover-${draft.titulos[2].id}`)
    assert.match(page.body, /Título removido\./)
    assert.equal([...page.body.matchAll(/data-titulo="/g)].length, 2)

    const payment = await paymentAsked(call, draft.id)
    const approver = await callerFor(ctx.db, ctx.app, clienteId, aprovador.usuarioId, clock)
    created(await approver('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key()), 200)
    page = await op.get(path)
    assert.ok(!page.body.includes('id="form-cancelar"'), 'an approved payment may be at the bank: no cancelling until it fails')
    page = await op.done(path, `falha-${payment.id}`, { motivo: 'Conta encerrada no banco' })
    assert.match(page.body, /Falha registrada/)
    assert.match(page.body, /<dd id="estado">formalizada<\/dd>/)
    assert.match(page.body, /Conta encerrada no banco/)
    assert.match(page.body, /id="form-desembolso"/, 'the payment may be asked again')
  })

  it('sends a título\'s confirmation link and asks the registry from its row; a refusal says why in words', async () => {
    clock.set(EXAMPLE_NOW)
    const { op, operador, clienteId } = await team()
    const call = await callerFor(ctx.db, ctx.app, clienteId, operador.usuarioId, clock)
    const { produto, cedente, sacados } = await exampleRegisters(call, { sacado: { email: 'contas@sacado.example' } })
    const draft = created(await call('POST', '/api/operacoes', {
      cedente_id: cedente.id, produto_id: produto.id, data_operacao: '2026-10-05', titulos: exampleTitles(sacados.map((s: { id: string }) => s.id)),
    }))
    const path = `/conta/operacoes/${draft.id}`
    const [t1, , t3] = draft.titulos
    const refused = await op.submit(path, `link-${t1.id}`)
    assert.equal(refused.statusCode, 409)
    assert.match(refusalsOn(refused.body), /CNPJ/, 'without the customer\'s CNPJ the sacado is not written to')
    await ctx.db.ownerTransaction((tx) => tx.query('UPDATE clientes SET documento = $2 WHERE id = $1', [clienteId, '11444777000161']))
    let page = await op.done(path, `link-${t1.id}`)
    assert.match(page.body, /Link de confirmação enviado ao e-mail do sacado/)
    assert.equal(rowCells(page.body, `<tr data-titulo="${t1.id}"`)['Confirmação'], 'em andamento')
    page = await op.done(path, `registro-${t1.id}`)
    assert.match(page.body, /Consulta ao registro pedida/)
    assert.ok(!page.body.includes(`id="registro-${t3.id}"`), 'a cheque is not in the registry: no button')
    const [row] = await rowsAs<{ confirmacao_estado: string, registro_estado: string }>(ctx.db, clienteId,
      `SELECT confirmacao_estado, registro_estado FROM titulos WHERE id = '${t1.id}'`)
    assert.deepEqual(row, { confirmacao_estado: 'em_andamento', registro_estado: 'consulta_pendente' })
  })
})

// /api/cnab/retornos (issue 33): a Banco do Brasil 240 retorno, written by the sandbox bank's writer, applied to the
// customer's charges. What each line moves is recomputed here from the file's amounts (not read from the service's
// own computation): the títulos' balances and states, the charges' states, the ledger's lines, account by account.
// The same file twice changes nothing; an occurrence in a second file is ignored as applied; a bounced cheque undoes
// its liquidation exactly; a file whose trailer does not match is refused whole, naming the line; another customer
// sees nothing and cannot send a file for the account.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { retornoSandbox240, type MovimentoSandbox } from '../../../../src/modules/collections/sandbox/retorno240.ts'
import { issueToken } from '../../../helpers/api-credentials.ts'
import { rowsAs } from '../../../helpers/credentials.ts'
import { useTestApp } from '../../../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, formalizedExample, key, settableClock } from '../../operations/helpers.ts'

const BB = { nome: 'BB cobrança', banco: '001', agencia: '3064', conta: '123456', conta_digito: 'X', carteira: '17', convenio: '1234567' }
const CONTA = { banco: '001' as const, agencia: '3064', conta: '123456', contaDigito: 'X', convenio: '1234567', inscricao: '11444777000161',
  empresa: 'FACTORING EXEMPLO' }

type Res = LightMyRequestResponse

describe('/api/cnab/retornos', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  const world = async () => {
    clock.set(EXAMPLE_NOW)
    const office = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await formalizedExample(office.admin.call)
    const account = created(await office.operador.call('POST', '/api/contas-cobranca', BB))
    created(await office.aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    const [t1, t2] = (op.titulos as { id: string }[]).map((t) => t.id)
    const charge = async (tituloId: string, terms: object = {}) => created(await office.operador.call('POST', '/api/cobrancas',
      { titulo_id: tituloId, conta_cobranca_id: account.id, ...terms }, key()))
    // T1's boleto grants 100.00 of discount until its due date.
    const c1 = await charge(t1!, { desconto: { valor_centavos: 10_000, ate: '2026-11-04' } })
    const c2 = await charge(t2!)
    const { token } = await issueToken(ctx.db, office.clienteId, { escopos: ['cobranca'], clock, expiraEm: new Date('2027-06-30T00:00:00Z') })
    const send = (text: string, contaId = account.id, bearer = token): Promise<Res> => ctx.app.inject({
      method: 'POST', url: `/api/cnab/retornos?conta_cobranca_id=${contaId}`, payload: Buffer.from(text, 'latin1'),
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'text/plain' },
    }) as Promise<Res>
    const get = (url: string, bearer = token): Promise<Res> =>
      ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${bearer}` } }) as Promise<Res>
    const rows = <R = Record<string, unknown>>(q: string) => rowsAs<R>(ctx.db, office.clienteId, q)
    return { ...office, account, t1: t1!, t2: t2!, c1, c2, token, send, get, rows }
  }

  /** Each account's debits less credits over the customer's whole ledger. */
  const balances = async (w: Awaited<ReturnType<typeof world>>) => Object.fromEntries((await w.rows<{ conta: string, saldo: string }>(
    'SELECT conta, sum(debito_centavos - credito_centavos)::text AS saldo FROM lancamento_linhas GROUP BY conta')).map((r) => [r.conta, BigInt(r.saldo)]))

  const mov = (c: { nosso_numero_sequencia: string, valor_centavos: number, vencimento: string }, m: Partial<MovimentoSandbox> & { codigo: string }) => ({
    sequencia: c.nosso_numero_sequencia, seuNumero: 'X', vencimento: c.vencimento, valorCentavos: BigInt(c.valor_centavos), ...m,
  })

  it('applies entradas and liquidations: balances, states and the ledger as the file\'s amounts say; the same file twice changes nothing', async () => {
    const w = await world()
    const [before] = await w.rows<{ desagio: string, apropriado: string }>(`SELECT desagio_centavos::text AS desagio,
      desagio_apropriado_centavos::text AS apropriado FROM titulos WHERE id = '${w.t2}'`)
    const ledgerBefore = await balances(w)
    clock.set('2026-11-24T15:00:00Z')
    const file = retornoSandbox240(CONTA, 7, '2026-11-24', [
      mov(w.c1, { codigo: '02', tarifaCentavos: 250n, dataOcorrencia: '2026-10-06' }),
      mov(w.c2, { codigo: '02', dataOcorrencia: '2026-10-06' }),
      // T2 paid four days late: 25,000.00 with 180.00 of juros and multa; the bank keeps 3.50.
      mov(w.c2, { codigo: '06', pagoCentavos: 2_518_000n, jurosMultaCentavos: 18_000n, tarifaCentavos: 350n, liquidoCentavos: 2_517_650n,
        dataOcorrencia: '2026-11-24', dataCredito: '2026-11-25' }),
      // T1 paid in part: 6,000.00 of its 10,000.00, with a 100.00 discount.
      mov(w.c1, { codigo: '06', pagoCentavos: 600_000n, descontoCentavos: 10_000n, liquidoCentavos: 600_000n, dataOcorrencia: '2026-11-24',
        dataCredito: '2026-11-25' }),
      { codigo: '06', sequencia: '999', seuNumero: 'X', vencimento: '2026-11-20', valorCentavos: 100n, pagoCentavos: 100n, dataOcorrencia: '2026-11-24' },
    ])
    const res = await w.send(file)
    assert.equal(res.statusCode, 201, res.body)
    const r = res.json()
    const { estado, layout, nsa, titulos: n, aplicadas, ignoradas, pendentes } = r
    assert.deepEqual({ estado, layout, nsa, titulos: n, aplicadas, ignoradas, pendentes },
      { estado: 'aplicado', layout: '240', nsa: '7', titulos: 5, aplicadas: 4, ignoradas: 1, pendentes: 0 })
    assert.equal(res.headers.location, `/api/cnab/retornos/${r.id}`)

    // The títulos: T2 settled (its balance 0, liquidado), T1 with 10,000.00 − 6,000.00 − 100.00 open.
    const titulos = await w.rows<{ id: string, estado: string, saldo: string, desagio: string, apropriado: string }>(`SELECT id, estado,
      saldo_centavos::text AS saldo, desagio_centavos::text AS desagio, desagio_apropriado_centavos::text AS apropriado FROM titulos
      WHERE id IN ('${w.t1}', '${w.t2}')`)
    const t = (id: string) => titulos.find((x) => x.id === id)!
    assert.deepEqual([t(w.t2).estado, t(w.t2).saldo, t(w.t2).apropriado], ['liquidado', '0', t(w.t2).desagio])
    assert.deepEqual([t(w.t1).estado, t(w.t1).saldo], ['adquirido', String(1_000_000 - 600_000 - 10_000)])
    const charges = created(await w.get(`/api/cobrancas?conta_cobranca_id=${w.account.id}`), 200).itens as { id: string, estado: string }[]
    assert.deepEqual(charges.map((c) => c.estado).sort(), ['liquidada', 'liquidada'])

    // The ledger, account by account, from the file's amounts.
    const earned = BigInt(before!.desagio) - BigInt(before!.apropriado)
    const after = await balances(w)
    const moved = (conta: string) => (after[conta] ?? 0n) - (ledgerBefore[conta] ?? 0n)
    assert.equal(moved('banco'), 2_518_000n - 350n + 600_000n - 250n)
    assert.equal(moved('despesas_bancarias'), 350n + 250n)
    assert.equal(moved('descontos_concedidos'), 10_000n)
    assert.equal(moved('direitos_creditorios'), -(2_500_000n + 610_000n))
    assert.equal(moved('receita_juros_multa'), -18_000n)
    assert.equal(moved('desagio_a_apropriar'), earned)
    assert.equal(moved('receita_desagio'), -earned)
    assert.equal(moved('valores_a_identificar'), 0n)
    const total = Object.values(after).reduce((s, v) => s + v, 0n)
    assert.equal(total, 0n, 'the trial balance closes')

    // The unknown nosso número is kept, ignored, with why.
    const ignored = created(await w.get(`/api/cnab/retornos/${r.id}/linhas?resultado=ignorada`), 200)
    assert.deepEqual(ignored.itens.map((l: { motivo: string, nosso_numero: string }) => [l.motivo, l.nosso_numero]),
      [['nosso_numero_desconhecido', '12345670000000999']])
    assert.equal(ignored.proximo, null)
    const all = created(await w.get(`/api/cnab/retornos/${r.id}/linhas?limite=2`), 200)
    assert.equal(all.itens.length, 2)
    assert.equal(created(await w.get(`/api/cnab/retornos/${r.id}/linhas?depois=${all.proximo}`), 200).itens.length, 3)

    // The lines as CSV, every one in the file's order, with what was paid and what became of it, in words.
    const csv = await ctx.app.inject({ method: 'GET', url: `/api/cnab/retornos/${r.id}/linhas`,
      headers: { authorization: `Bearer ${w.token}`, accept: 'text/csv' } })
    assert.equal(csv.statusCode, 200, csv.body)
    assert.match(String(csv.headers['content-type']), /^text\/csv/)
    assert.match(String(csv.headers['content-disposition']), /attachment; filename="retorno-7-linhas-2026-11-24\.csv"/)
    assert.ok(csv.body.startsWith('\uFEFFLinha;Código;Ocorrência;'), csv.body.slice(0, 60))
    const csvRows = csv.body.trim().split('\r\n').slice(1).map((l) => l.split(';'))
    // Each título's T segment is its line: after the two headers, every other line.
    assert.deepEqual(csvRows.map((c) => [c[0], c[2], c[7], c[12]]), [
      ['3', 'entrada confirmada', '0,00', 'aplicada'], ['5', 'entrada confirmada', '0,00', 'aplicada'],
      ['7', 'liquidação', '25180,00', 'aplicada'], ['9', 'liquidação', '6000,00', 'aplicada'], ['11', 'liquidação', '1,00', 'ignorada'],
    ])
    assert.equal(csvRows[4]![13], 'nenhuma cobrança desta conta tem este nosso número')
    const onlyIgnored = await ctx.app.inject({ method: 'GET', url: `/api/cnab/retornos/${r.id}/linhas?resultado=ignorada`,
      headers: { authorization: `Bearer ${w.token}`, accept: 'text/csv' } })
    assert.equal(onlyIgnored.body.trim().split('\r\n').length, 2, 'the header and the one ignored line')

    // The same file again: what became of the first, and nothing moves.
    const entries = (await w.rows('SELECT id FROM lancamentos')).length
    const again = await w.send(file)
    assert.equal(again.statusCode, 200, again.body)
    assert.deepEqual(again.json(), created(await w.get(`/api/cnab/retornos/${r.id}`), 200))
    assert.equal((await w.rows('SELECT id FROM lancamentos')).length, entries)

    // The liquidation again in another file (another NSA): ignored as applied, naming where.
    const second = await w.send(retornoSandbox240(CONTA, 8, '2026-11-25', [
      mov(w.c2, { codigo: '06', pagoCentavos: 2_518_000n, jurosMultaCentavos: 18_000n, tarifaCentavos: 350n, dataOcorrencia: '2026-11-24' }),
    ]))
    assert.equal(second.statusCode, 201, second.body)
    const [line] = created(await w.get(`/api/cnab/retornos/${second.json().id}/linhas`), 200).itens
    assert.deepEqual([line.resultado, line.motivo], ['ignorada', 'ja_aplicada'])
    assert.match(line.detalhe, /retorno 7/)
    assert.equal((await w.rows('SELECT id FROM lancamentos')).length, entries)
    assert.deepEqual(created(await w.get('/api/cnab/retornos'), 200).itens.map((x: { nsa: string }) => x.nsa), ['8', '7'])
    const audit = await w.rows<{ acao: string }>(`SELECT acao FROM auditoria_cliente WHERE acao = 'retorno.enviado'`)
    assert.equal(audit.length, 2)
  })

  it('a bounced cheque undoes its liquidation exactly: the balance, the state, the deságio and every ledger line', async () => {
    const w = await world()
    clock.set('2026-11-24T15:00:00Z')
    const ledgerBefore = await balances(w)
    const [before] = await w.rows<{ apropriado: string }>(`SELECT desagio_apropriado_centavos::text AS apropriado FROM titulos WHERE id = '${w.t2}'`)
    const paid = await w.send(retornoSandbox240(CONTA, 1, '2026-11-24', [
      mov(w.c2, { codigo: '06', pagoCentavos: 2_500_000n, tarifaCentavos: 300n, dataOcorrencia: '2026-11-24' }),
    ]))
    assert.equal(paid.statusCode, 201, paid.body)
    const bounced = await w.send(retornoSandbox240(CONTA, 2, '2026-11-27', [
      mov(w.c2, { codigo: '44', tarifaCentavos: 500n, dataOcorrencia: '2026-11-27' }),
      // Nothing left to undo: kept, ignored.
      mov(w.c1, { codigo: '44', dataOcorrencia: '2026-11-27' }),
    ]))
    assert.equal(bounced.statusCode, 201, bounced.body)
    assert.deepEqual([bounced.json().aplicadas, bounced.json().ignoradas], [1, 1])
    const [t2] = await w.rows<{ estado: string, saldo: string, apropriado: string }>(`SELECT estado, saldo_centavos::text AS saldo,
      desagio_apropriado_centavos::text AS apropriado FROM titulos WHERE id = '${w.t2}'`)
    assert.deepEqual(t2, { estado: 'adquirido', saldo: '2500000', apropriado: before!.apropriado })
    assert.equal(created(await w.get(`/api/cobrancas/${w.c2.id}`), 200).estado, 'registrada')
    const after = await balances(w)
    const moved = (conta: string) => (after[conta] ?? 0n) - (ledgerBefore[conta] ?? 0n)
    // Only the two fees stay: everything else came back.
    assert.equal(moved('banco'), -800n)
    assert.equal(moved('despesas_bancarias'), 800n)
    for (const conta of ['direitos_creditorios', 'desagio_a_apropriar', 'receita_desagio', 'receita_juros_multa']) assert.equal(moved(conta), 0n, conta)
    const [undone] = created(await w.get(`/api/cnab/retornos/${paid.json().id}/linhas`), 200).itens
    assert.ok(undone.estornada_em, 'the liquidation says it was undone')
    const [, nothing] = created(await w.get(`/api/cnab/retornos/${bounced.json().id}/linhas`), 200).itens
    assert.equal(nothing.motivo, 'sem_liquidacao')
  })

  it('refuses a file whose trailer does not match, naming the line, and stores nothing of it; another customer sees nothing', async () => {
    const w = await world()
    const file = retornoSandbox240(CONTA, 3, '2026-11-24', [mov(w.c1, { codigo: '02', dataOcorrencia: '2026-10-06' })]).split('\r\n')
    // The lote's trailer counts one record more than the lote holds.
    const at = file.findIndex((l) => l[7] === '5')
    file[at] = `${file[at]!.slice(0, 17)}${String(Number(file[at]!.slice(17, 23)) + 1).padStart(6, '0')}${file[at]!.slice(23)}`
    const res = await w.send(file.join('\r\n'))
    assert.equal(res.statusCode, 422, res.body)
    assert.equal(res.json().detail, 'arquivo_cnab_recusado')
    assert.equal(res.json().linha, at + 1)
    assert.equal(typeof res.json().motivo, 'string')
    assert.deepEqual(await w.rows('SELECT id FROM retornos'), [])
    assert.deepEqual(await w.rows('SELECT linha FROM retorno_linhas'), [])
    assert.equal(created(await w.get(`/api/cobrancas/${w.c1.id}`), 200).estado, 'a_registrar')

    const empty = await w.send('')
    assert.equal(empty.statusCode, 422, empty.body)
    const wrongBank = await w.send(retornoSandbox240({ ...CONTA, banco: '237' }, 3, '2026-11-24', []))
    assert.equal(wrongBank.json().detail, 'arquivo_cnab_recusado')
    assert.equal(wrongBank.json().linha, 1)

    const good = await w.send(retornoSandbox240(CONTA, 4, '2026-11-24', [mov(w.c1, { codigo: '02', dataOcorrencia: '2026-10-06' })]))
    assert.equal(good.statusCode, 201, good.body)
    const other = await backOffice(ctx.db, ctx.app, clock)
    const { token } = await issueToken(ctx.db, other.clienteId, { escopos: ['cobranca'], clock })
    assert.equal((await w.get(`/api/cnab/retornos/${good.json().id}`, token)).statusCode, 404)
    assert.equal((await w.get(`/api/cnab/retornos/${good.json().id}/linhas`, token)).statusCode, 404)
    const theirCsv = await ctx.app.inject({ method: 'GET', url: `/api/cnab/retornos/${good.json().id}/linhas`,
      headers: { authorization: `Bearer ${token}`, accept: 'text/csv' } })
    assert.equal(theirCsv.statusCode, 404, 'another customer exports nothing of it')
    assert.deepEqual(created(await w.get('/api/cnab/retornos', token), 200).itens, [])
    const theirs = await w.send(retornoSandbox240(CONTA, 5, '2026-11-24', [mov(w.c1, { codigo: '06', pagoCentavos: 1n })]), w.account.id, token)
    assert.equal(theirs.statusCode, 404, theirs.body)
    const { token: noScope } = await issueToken(ctx.db, w.clienteId, { escopos: ['operacoes'], clock })
    assert.equal((await w.send('x', w.account.id, noScope)).statusCode, 403)
  })

  it('answers the instructions a remessa sent: confirmed or refused with the line\'s codes, the oldest of the kind the occurrence names', async () => {
    const w = await world()
    const sent = async (cobrancaId: string, instrucao: string, extra = '') => (await w.rows<{ id: string }>(`INSERT INTO cobranca_instrucoes
      (cliente_id, cobranca_id, instrucao, transporte, estado${extra ? ', vencimento' : ''}) VALUES ('${w.clienteId}', '${cobrancaId}', '${instrucao}',
      'cnab', 'enviada'${extra ? `, '${extra}'` : ''}) RETURNING id`))[0]!.id
    const prorrogar = await sent(w.c1.id, 'alteracao_vencimento', '2026-12-20')
    const baixar = await sent(w.c2.id, 'baixa')
    const protestar = await sent(w.c2.id, 'protestar')
    clock.set('2026-11-25T15:00:00Z')
    const res = await w.send(retornoSandbox240(CONTA, 11, '2026-11-25', [
      mov(w.c1, { codigo: '26', motivos: 'A1', dataOcorrencia: '2026-11-25' }),
      mov(w.c2, { codigo: '09', dataOcorrencia: '2026-11-25' }),
    ]))
    assert.equal(res.statusCode, 201, res.body)
    const states = await w.rows<{ id: string, estado: string, resposta: { ocorrencia: string, motivos: string[] } | null }>(`SELECT id, estado,
      banco_resposta AS resposta FROM cobranca_instrucoes`)
    const of = (id: string) => states.find((x) => x.id === id)!
    assert.deepEqual([of(prorrogar).estado, of(prorrogar).resposta?.ocorrencia, of(prorrogar).resposta?.motivos], ['rejeitada', '26', ['A1']])
    assert.deepEqual([of(baixar).estado, of(baixar).resposta?.ocorrencia], ['confirmada', '09'])
    assert.equal(of(protestar).estado, 'enviada', 'a write-off answers the baixa, not the protest')
    assert.equal(created(await w.get(`/api/cobrancas/${w.c2.id}`), 200).estado, 'baixada')
  })

  it('ignores what a payment may not claim (a discount never granted, an abatimento never asked, a fee above it, a day out of reach)', async () => {
    const w = await world()
    clock.set('2026-11-24T15:00:00Z')
    const entries = (await w.rows('SELECT id FROM lancamentos')).length
    const res = await w.send(retornoSandbox240(CONTA, 12, '2026-11-24', [
      // The field's largest amount (15 digits) is stored, and refused as a payment.
      mov(w.c1, { codigo: '06', pagoCentavos: 1n, descontoCentavos: 999_999_999_999_999n, dataOcorrencia: '2026-11-24' }),
      mov(w.c2, { codigo: '06', pagoCentavos: 1n, abatimentoCentavos: 2_499_999n, dataOcorrencia: '2026-11-24' }),
      mov(w.c2, { codigo: '06', pagoCentavos: 1n, tarifaCentavos: 9_999_999n, dataOcorrencia: '2026-11-23' }),
      mov(w.c2, { codigo: '06', pagoCentavos: 2_500_000n, dataOcorrencia: '2026-10-01' }),
      mov(w.c2, { codigo: '06', pagoCentavos: 2_500_000n, dataOcorrencia: '2027-03-01' }),
      // A payment out of proportion (red team): the field's largest amount on a R$ 25.000,00 boleto, held for a person.
      mov(w.c2, { codigo: '06', pagoCentavos: 999_999_999_999_999n, dataOcorrencia: '2026-11-22' }),
    ]))
    assert.equal(res.statusCode, 201, res.body)
    const lines = created(await w.get(`/api/cnab/retornos/${res.json().id}/linhas`), 200).itens as { motivo: string, detalhe: string }[]
    assert.deepEqual(lines.map((l) => l.motivo), ['valores_inconsistentes', 'valores_inconsistentes', 'valores_inconsistentes',
      'data_fora_do_periodo', 'data_fora_do_periodo', 'valores_inconsistentes'])
    assert.match(lines[5]!.detalhe, /mais de 10 vezes o valor do boleto \(2500000\)/)
    assert.match(lines[0]!.detalhe, /o boleto concede 10000/)
    assert.match(lines[1]!.detalhe, /as instruções pediram 0/)
    assert.equal((await w.rows('SELECT id FROM lancamentos')).length, entries, 'nothing posted')
    const saldos = await w.rows<{ estado: string }>(`SELECT estado FROM titulos WHERE id IN ('${w.t1}', '${w.t2}')`)
    assert.deepEqual(saldos.map((t) => t.estado), ['adquirido', 'adquirido'])
  })

  it('an abatimento the bank confirms is posted to the cedente once; the payment that reports it again settles the rest', async () => {
    const w = await world()
    clock.set('2026-11-24T15:00:00Z')
    const [{ id: abatimento }] = await w.rows<{ id: string }>(`INSERT INTO cobranca_instrucoes (cliente_id, cobranca_id, instrucao, transporte, estado,
      abatimento_centavos) VALUES ('${w.clienteId}', '${w.c2.id}', 'abatimento', 'cnab', 'enviada', 50000) RETURNING id`) as [{ id: string }]
    const cedente = (await w.rows<{ cedente_id: string }>(`SELECT cedente_id FROM titulos WHERE id = '${w.t2}'`))[0]!.cedente_id
    const grafica = async () => BigInt((await w.rows<{ s: string }>(`SELECT coalesce(sum(debito_centavos - credito_centavos), 0)::text AS s
      FROM lancamento_linhas WHERE conta = 'conta_grafica_cedentes' AND cedente_id = '${cedente}'`))[0]!.s)
    const before = await grafica()
    const res = await w.send(retornoSandbox240(CONTA, 13, '2026-11-24', [
      mov(w.c2, { codigo: '14', dataOcorrencia: '2026-11-23' }),
      mov(w.c2, { codigo: '06', pagoCentavos: 2_450_000n, abatimentoCentavos: 50_000n, dataOcorrencia: '2026-11-24' }),
    ]))
    assert.equal(res.statusCode, 201, res.body)
    assert.deepEqual([res.json().aplicadas, res.json().ignoradas], [2, 0])
    const [i] = await w.rows<{ estado: string, lancamento_id: string | null }>(
      `SELECT estado, lancamento_id FROM cobranca_instrucoes WHERE id = '${abatimento}'`)
    assert.equal(i!.estado, 'confirmada')
    assert.ok(i!.lancamento_id, 'the abatimento is posted')
    assert.equal(await grafica() - before, 50_000n, 'the cedente bears it once')
    const [t2] = await w.rows<{ estado: string, saldo: string }>(`SELECT estado, saldo_centavos::text AS saldo FROM titulos WHERE id = '${w.t2}'`)
    assert.deepEqual(t2, { estado: 'liquidado', saldo: '0' })
    const [sobra] = await w.rows<{ s: string }>(`SELECT coalesce(sum(credito_centavos - debito_centavos), 0)::text AS s FROM lancamento_linhas
      WHERE conta = 'valores_a_identificar'`)
    assert.equal(sobra!.s, '0')
  })

  it('an abatimento confirmed after a payment in part that takes the rest settles the título, its deságio recognised (red team)', async () => {
    const w = await world()
    clock.set('2026-11-24T15:00:00Z')
    const [abatimento] = await w.rows<{ id: string }>(`INSERT INTO cobranca_instrucoes (cliente_id, cobranca_id, instrucao, transporte, estado,
      abatimento_centavos) VALUES ('${w.clienteId}', '${w.c2.id}', 'abatimento', 'cnab', 'enviada', 2400000) RETURNING id`)
    const [before] = await w.rows<{ desagio: string, apropriado: string }>(`SELECT desagio_centavos::text AS desagio,
      desagio_apropriado_centavos::text AS apropriado FROM titulos WHERE id = '${w.t2}'`)
    // R$ 5.000,00 paid of R$ 25.000,00; then the bank confirms an abatimento of R$ 24.000,00, more than what is left.
    created(await w.send(retornoSandbox240(CONTA, 14, '2026-11-24', [
      mov(w.c2, { codigo: '06', pagoCentavos: 500_000n, dataOcorrencia: '2026-11-23' }),
      mov(w.c2, { codigo: '14', dataOcorrencia: '2026-11-24' }),
    ])))
    const [t2] = await w.rows<{ estado: string, saldo: string, apropriado: string }>(`SELECT estado, saldo_centavos::text AS saldo,
      desagio_apropriado_centavos::text AS apropriado FROM titulos WHERE id = '${w.t2}'`)
    assert.deepEqual(t2, { estado: 'liquidado', saldo: '0', apropriado: before!.desagio })
    const posted = await w.rows<{ conta: string, d: string, c: string }>(`SELECT x.conta, x.debito_centavos::text AS d, x.credito_centavos::text AS c
      FROM lancamento_linhas x JOIN cobranca_instrucoes i ON i.lancamento_id = x.lancamento_id WHERE i.id = '${abatimento!.id}' ORDER BY x.conta`)
    const pending = BigInt(before!.desagio) - BigInt(before!.apropriado)
    assert.deepEqual(posted, [
      { conta: 'conta_grafica_cedentes', d: '2000000', c: '0' }, { conta: 'desagio_a_apropriar', d: String(pending), c: '0' },
      { conta: 'direitos_creditorios', d: '0', c: '2000000' }, { conta: 'receita_desagio', d: '0', c: String(pending) },
    ].filter((l) => l.d !== '0' || l.c !== '0'), 'the rest of the balance, not the abatimento asked, and the deságio left')
    const total = Object.values(await balances(w)).reduce((x, v) => x + v, 0n)
    assert.equal(total, 0n, 'the trial balance closes')
  })
})

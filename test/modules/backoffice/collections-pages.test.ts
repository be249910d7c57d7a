// The back office's Cobrança section (issue 33), without JavaScript: the charges with their título, sacado, nosso
// número, due date, amount and state in words, filtered, and their boleto opened with the session; a Banco do Brasil
// retorno sent by the form (multipart) lands on its page, each line with its occurrence and result in words and
// its amounts in reais, filtered by result and paged; a file refused whole is told on the form with its line and
// reason, and nothing of it is kept; a file still being applied says how far it got.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { and, eq } from 'drizzle-orm'
import { mod10 } from '../../../src/modules/collections/boleto/modulos.ts'
import { outbox } from '../../../src/platform/db/schema.ts'
import { retornoSandbox240, type MovimentoSandbox } from '../../../src/modules/collections/sandbox/retorno240.ts'
import { colleagueWithPassword, personWithPassword } from '../../helpers/account-web.ts'
import { rowsAs } from '../../helpers/credentials.ts'
import { readExport } from '../../helpers/csv.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { callerFor, created, EXAMPLE_NOW, formalizedExample, key, settableClock } from '../operations/helpers.ts'
import { hiddenFields, postMultipart, refusalsOn, rowCells, signIn } from './steps.ts'

const BB = { nome: 'BB cobrança', banco: '001', agencia: '3064', conta: '123456', conta_digito: 'X', carteira: '17', convenio: '1234567' }
const CONTA = { banco: '001' as const, agencia: '3064', conta: '123456', contaDigito: 'X', convenio: '1234567', inscricao: '11444777000161',
  empresa: 'FACTORING EXEMPLO' }

/** A retorno form's fields with its account chosen (the form chooses none for the person). */
const withAccount = (form: { action: string, fields: Record<string, string> }, conta: string) =>
  ({ action: form.action, fields: { ...form.fields, conta_cobranca_id: conta } })

type Charge = { id: string, numero: number, nosso_numero: string, nosso_numero_sequencia: string, valor_centavos: number, vencimento: string }

describe('the back office\'s Cobrança section', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  async function world() {
    clock.set(EXAMPLE_NOW)
    const admin = await personWithPassword(ctx.db)
    const operador = await colleagueWithPassword(ctx.db, admin.clienteId, 'operador')
    const aprovador = await colleagueWithPassword(ctx.db, admin.clienteId, 'aprovador')
    const call = await callerFor(ctx.db, ctx.app, admin.clienteId, operador.usuarioId, clock)
    const approve = await callerFor(ctx.db, ctx.app, admin.clienteId, aprovador.usuarioId, clock)
    const { op, regs } = await formalizedExample(call)
    const account = created(await call('POST', '/api/contas-cobranca', BB))
    created(await approve('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    const titulos = op.titulos as { id: string, numero: string, sacado_id: string }[]
    const charges: Charge[] = []
    for (const t of titulos.slice(0, 2)) charges.push(created(await call('POST', '/api/cobrancas', { titulo_id: t.id, conta_cobranca_id: account.id }, key())))
    const sacado = (id: string) => (regs.sacados as { id: string, razao_social: string }[]).find((s) => s.id === id)!.razao_social
    return { clienteId: admin.clienteId, account, titulos, charges, sacado, emails: { operador: operador.email, aprovador: aprovador.email },
      operador: await signIn(ctx.app, operador.email) }
  }

  const mov = (c: Charge, m: Partial<MovimentoSandbox> & { codigo: string }): MovimentoSandbox => ({
    sequencia: c.nosso_numero_sequencia, seuNumero: 'X', vencimento: c.vencimento, valorCentavos: BigInt(c.valor_centavos), ...m,
  })

  it('lists the charges in words and reais, filters them, and opens a boleto with the session', async () => {
    const w = await world()
    const page = (await w.operador.get('/conta/cobrancas')).body
    assert.match(page, /<a href="\/conta\/cobrancas" aria-current="page">Cobrança<\/a>/)
    const [c1] = w.charges
    const cells = rowCells(page, `data-cobranca="${c1!.id}"`)
    assert.deepEqual(cells, {
      'Título': w.titulos[0]!.numero, 'Sacado': w.sacado(w.titulos[0]!.sacado_id), 'Conta': 'BB cobrança', 'Nosso número': c1!.nosso_numero,
      'Vencimento': '04/11/2026', 'Valor': 'R$ 10.000,00', 'Estado': 'a registrar',
      'Boleto': `Imprimir o boleto da cobrança nº ${c1!.numero} · PDF da cobrança nº ${c1!.numero}`,
    })
    assert.match(page, /<option value="a_registrar">a registrar<\/option>/)
    assert.match(page, /<option value="[0-9a-f-]{36}">BB cobrança \(Banco do Brasil, ag\. 3064, conta 123456-X\)<\/option>/)

    const liquidadas = (await w.operador.get('/conta/cobrancas?estado=liquidada')).body
    assert.match(liquidadas, /<p id="cobrancas-vazio">Nenhuma cobrança com estes filtros\.<\/p>/)
    assert.match(liquidadas, /<option value="liquidada" selected>liquidada<\/option>/)
    // Searched by what a person has at hand (here the título's number), the search kept in its box and in the export.
    const searched = (await w.operador.get(`/conta/cobrancas?busca=${encodeURIComponent(w.titulos[1]!.numero)}`)).body
    assert.deepEqual([...searched.matchAll(/data-cobranca="([^"]+)"/g)].map((m) => m[1]), [w.charges[1]!.id])
    assert.match(searched, new RegExp(`<input id="filtro-busca" name="busca" type="search" value="${w.titulos[1]!.numero}"`))
    assert.match(searched, new RegExp(`id="cobrancas-exportar"`))
    // A value the API does not take is dropped, not refused: the whole list.
    assert.equal(rowCells((await w.operador.get('/conta/cobrancas?estado=nenhum')).body, `data-cobranca="${c1!.id}"`).Estado, 'a registrar')

    // Exported as the list shows it, with its filters, every page: the back office's link and the API's Accept: text/csv.
    assert.match(page, /<a href="\/conta\/cobrancas\?formato=csv" id="cobrancas-exportar" download>Exportar CSV<\/a>/)
    const csv = await w.operador.get('/conta/cobrancas?estado=a_registrar&formato=csv')
    assert.equal(csv.statusCode, 200)
    assert.match(String(csv.headers['content-type']), /^text\/csv; charset=utf-8/)
    const exported = readExport(csv.body)
    assert.deepEqual(exported.header, ['Cobrança nº', 'Título', 'Sacado', 'Banco', 'Nosso número', 'Vencimento', 'Valor (R$)', 'Estado',
      'Linha digitável', 'Emitida em'])
    assert.deepEqual(exported.rows.map((r) => [r['Cobrança nº'], r['Título'], r.Vencimento, r['Valor (R$)'], r.Estado, r.Banco]), [
      [String(w.charges[1]!.numero), w.titulos[1]!.numero, '20/11/2026', '25000,00', 'a registrar', '001 Banco do Brasil'],
      [String(c1!.numero), w.titulos[0]!.numero, '04/11/2026', '10000,00', 'a registrar', '001 Banco do Brasil'],
    ])
    const none = readExport((await w.operador.get('/conta/cobrancas?estado=liquidada&formato=csv')).body)
    assert.deepEqual(none.rows, [], 'the filter holds in the export')

    const href = /<a href="([^"]+)">Imprimir<span class="visualmente-oculto"> o boleto da cobrança nº 1</.exec(page)![1]!
    const boleto = await ctx.app.inject({ url: href, headers: { cookie: w.operador.cookie, 'sec-fetch-site': 'same-origin' } })
    assert.equal(boleto.statusCode, 200)
    assert.match(boleto.body, /Banco do Brasil|001-9/)
  })

  it('sends a retorno by the form and lands on its page: each line in words, an ignored one with why, filtered and paged', async () => {
    const w = await world()
    const [c1, c2] = w.charges
    clock.set('2026-11-24T15:00:00Z')
    // Signed in on the day the retorno comes (a session of the charges' day has ended by then).
    w.operador = await signIn(ctx.app, w.emails.operador)
    const file = retornoSandbox240(CONTA, 7, '2026-11-24', [
      mov(c1!, { codigo: '02', tarifaCentavos: 250n, dataOcorrencia: '2026-10-06' }),
      mov(c2!, { codigo: '06', pagoCentavos: 2_518_000n, jurosMultaCentavos: 18_000n, tarifaCentavos: 350n, liquidoCentavos: 2_517_650n,
        dataOcorrencia: '2026-11-24', dataCredito: '2026-11-25' }),
      { codigo: '06', sequencia: '999', seuNumero: 'X', vencimento: '2026-11-20', valorCentavos: 100n, pagoCentavos: 100n, dataOcorrencia: '2026-11-24' },
    ])
    const list = (await w.operador.get('/conta/cobrancas/retornos')).body
    assert.match(list, /<p id="retornos-vazio">Nenhum retorno enviado ainda\.<\/p>/)
    const form = withAccount(hiddenFields(list, 'form-retorno'), w.account.id)
    assert.match(list, /<form method="post" action="\/conta\/cobrancas\/retornos" id="form-retorno" enctype="multipart\/form-data">/)
    const sent = await postMultipart(ctx.app, form.action, w.operador.cookie, form.fields,
      { name: 'arquivo', filename: 'CBR6437.ret', type: 'application/octet-stream', bytes: Buffer.from(file, 'latin1') })
    assert.equal(sent.statusCode, 303, refusalsOn(sent.body))
    const to = sent.headers.location as string
    assert.match(to, /^\/conta\/cobrancas\/retornos\/[0-9a-f-]{36}\?feito=retornos$/)
    const page = (await w.operador.get(to)).body
    assert.match(page, /<h1>Retorno 7 de BB cobrança<\/h1>/)
    assert.match(page, /id="aviso"[^>]*><p>Retorno recebido/)
    const summary = Object.fromEntries(['titulos', 'aplicadas', 'ignoradas', 'pendentes']
      .map((k) => [k, new RegExp(`id="resumo-${k}">(\\d+)<`).exec(page)![1]]))
    assert.deepEqual(summary, { titulos: '3', aplicadas: '2', ignoradas: '1', pendentes: '0' })
    assert.match(page, /<dd id="estado">aplicado em 24\/11\/2026, 12:00:00<\/dd>/)
    assert.doesNotMatch(page, /id="aplicando"/)

    // The same file again: the page it landed on before, told it was received already and nothing moved again.
    const again = await postMultipart(ctx.app, form.action, w.operador.cookie, form.fields,
      { name: 'arquivo', filename: 'CBR6437.ret', type: 'application/octet-stream', bytes: Buffer.from(file, 'latin1') })
    assert.equal(again.statusCode, 303, refusalsOn(again.body))
    assert.equal(again.headers.location, to.replace('feito=retornos', 'feito=retornos.repetido'))
    assert.match((await w.operador.get(again.headers.location as string)).body, /id="aviso"[^>]*><p>Este arquivo já tinha sido enviado para esta conta/)

    const paid = rowCells(page, 'data-linha="5"')
    assert.deepEqual(paid, {
      'Nosso número': `1234567${c2!.nosso_numero_sequencia.padStart(10, '0')}`, 'Ocorrência': 'liquidação (06)', 'Data': '24/11/2026',
      'Pago': 'R$ 25.180,00', 'Juros e multa': 'R$ 180,00', 'Desconto': '', 'Abatimento': '', 'Tarifa': 'R$ 3,50', 'Resultado': 'aplicada',
    })
    assert.equal(rowCells(page, 'data-linha="3"')['Ocorrência'], 'entrada confirmada (02)')
    const ignored = rowCells(page, 'data-linha="7"')
    assert.match(ignored.Resultado!, /^ignorada: nenhuma cobrança desta conta tem este nosso número/)

    // By result, and a page after line 3 (the API's cursor), the filter kept.
    const id = /retornos\/([0-9a-f-]{36})/.exec(to)![1]!
    const onlyIgnored = (await w.operador.get(`/conta/cobrancas/retornos/${id}?resultado=ignorada`)).body
    assert.deepEqual([...onlyIgnored.matchAll(/data-linha="(\d+)"/g)].map((m) => m[1]), ['7'])
    const after = (await w.operador.get(`/conta/cobrancas/retornos/${id}?depois=3`)).body
    assert.deepEqual([...after.matchAll(/data-linha="(\d+)"/g)].map((m) => m[1]), ['5', '7'])
    assert.match(after, /<a href="\/conta\/cobrancas\/retornos\/[0-9a-f-]{36}" rel="first" id="linhas-inicio">← Primeiras linhas<\/a>/)

    // Exported with its filter: every line as the API's CSV, through the page's link.
    assert.match(onlyIgnored, new RegExp(`<a href="/conta/cobrancas/retornos/${id}\\?resultado=ignorada&amp;formato=csv" id="linhas-exportar" download>`))
    const csv = await w.operador.get(`/conta/cobrancas/retornos/${id}?resultado=ignorada&formato=csv`)
    assert.equal(csv.statusCode, 200)
    assert.match(String(csv.headers['content-disposition']), /filename="retorno-7-linhas-2026-11-24\.csv"/)
    const exported = readExport(csv.body)
    assert.deepEqual(exported.rows.map((r) => [r.Linha, r['Ocorrência'], r['Pago (R$)'], r.Resultado, r.Motivo]),
      [['7', 'liquidação', '1,00', 'ignorada', 'nenhuma cobrança desta conta tem este nosso número']])
    assert.equal(readExport((await w.operador.get(`/conta/cobrancas/retornos/${id}?formato=csv`)).body).rows.length, 3)

    // The list names it, and the charge paid is liquidada on the charges' page.
    const retornos = (await w.operador.get('/conta/cobrancas/retornos')).body
    assert.deepEqual(rowCells(retornos, `data-retorno="${id}"`), {
      'Conta': 'BB cobrança', 'NSA': '7', 'Layout': 'CNAB 240', 'Títulos': '3', 'Aplicadas': '2', 'Ignoradas': '1', 'Pendentes': '0', 'Estado': 'aplicado',
    })
    assert.equal(rowCells((await w.operador.get('/conta/cobrancas')).body, `data-cobranca="${c2!.id}"`).Estado, 'liquidada')

    // Who may only read sees the lists, without the form.
    const readOnly = (await (await signIn(ctx.app, w.emails.aprovador)).get('/conta/cobrancas/retornos')).body
    assert.match(readOnly, new RegExp(`data-retorno="${id}"`))
    assert.doesNotMatch(readOnly, /id="form-retorno"/)
  })

  it('a file refused whole is told on the form with its line and reason, and nothing of it is kept; a file halfway says how far it got', async () => {
    const w = await world()
    const [c1] = w.charges
    const good = retornoSandbox240(CONTA, 9, '2026-10-06', [mov(c1!, { codigo: '02', dataOcorrencia: '2026-10-06' })])
    // The file's trailer counts one record too many.
    const lines = good.split('\r\n')
    lines[lines.length - 2] = `${lines.at(-2)!.slice(0, 23)}${String(Number(lines.at(-2)!.slice(23, 29)) + 1).padStart(6, '0')}${lines.at(-2)!.slice(29)}`
    const list = (await w.operador.get('/conta/cobrancas/retornos')).body
    const form = withAccount(hiddenFields(list, 'form-retorno'), w.account.id)
    const refused = await postMultipart(ctx.app, form.action, w.operador.cookie, form.fields,
      { name: 'arquivo', filename: 'ret.txt', type: 'text/plain', bytes: Buffer.from(lines.join('\r\n'), 'latin1') })
    assert.equal(refused.statusCode, 422)
    const told = refusalsOn(refused.body)
    assert.match(told, /O arquivo de retorno foi recusado inteiro/)
    assert.match(told, /erro-arquivo: recusado na linha 6: /)
    assert.match(refused.body, new RegExp(`<option value="${w.account.id}" selected>`))
    assert.equal((await rowsAs(ctx.db, w.clienteId, 'SELECT id FROM retornos')).length, 0)

    // A form without its file, or its account (none is chosen for the person), is refused before any request.
    const none = await w.operador.submit('/conta/cobrancas/retornos', 'form-retorno')
    assert.equal(none.statusCode, 422)
    assert.match(refusalsOn(none.body), /Arquivo de retorno do banco: escolha o arquivo de retorno que o banco entregou/)
    assert.match(refusalsOn(none.body), /Conta de cobrança: escolha a conta de cobrança do arquivo/)

    // Halfway: the page says how far it got, and a reload shows it.
    const sent = await postMultipart(ctx.app, form.action, w.operador.cookie, form.fields,
      { name: 'arquivo', filename: 'ret.txt', type: 'text/plain', bytes: Buffer.from(good, 'latin1') })
    assert.equal(sent.statusCode, 303, refusalsOn(sent.body))
    // As the retornos job leaves a large file between two batches (kill-mid-apply.test.ts makes one for real).
    const [r] = await rowsAs<{ id: string }>(ctx.db, w.clienteId, `UPDATE retornos SET estado = 'aplicando', aplicadas = 0, concluido_em = NULL
      RETURNING id`)
    await rowsAs(ctx.db, w.clienteId, `UPDATE retorno_linhas SET resultado = 'pendente', aplicada_em = NULL, principal_centavos = 0
      WHERE retorno_id = '${r!.id}'`)
    const halfway = (await w.operador.get(`/conta/cobrancas/retornos/${r!.id}`)).body
    assert.match(halfway, /<div class="aviso" id="aplicando" role="status">\n<p>Este arquivo está sendo aplicado: /)
    assert.match(halfway, /<span id="aplicando-feitas">0<\/span> de 1 títulos até agora/)
    assert.match(halfway, /<progress id="progresso" max="1" value="0">/)
    assert.match(halfway, /<dd id="estado">em aplicação<\/dd>/)
    assert.equal(rowCells(halfway, 'data-linha="3"').Resultado, 'pendente')
  })

  it('e-mails a registered charge\'s boleto to its sacado from the list; a sacado without an address is told why', async () => {
    const w = await world()
    const [c1, c2] = w.charges
    // The bank's retorno confirms c1's entry: it is registered, c2 is not.
    const file = retornoSandbox240(CONTA, 11, '2026-10-06', [mov(c1!, { codigo: '02', dataOcorrencia: '2026-10-06' })])
    const list = (await w.operador.get('/conta/cobrancas/retornos')).body
    const form = withAccount(hiddenFields(list, 'form-retorno'), w.account.id)
    assert.equal((await postMultipart(ctx.app, form.action, w.operador.cookie, form.fields,
      { name: 'arquivo', filename: 'ret.txt', type: 'text/plain', bytes: Buffer.from(file, 'latin1') })).statusCode, 303)
    const page = (await w.operador.get('/conta/cobrancas')).body
    assert.match(rowCells(page, `data-cobranca="${c1!.id}"`).Boleto!, /Enviar por e-mail o boleto da cobrança nº \d+ ao sacado$/)
    assert.doesNotMatch(rowCells(page, `data-cobranca="${c2!.id}"`).Boleto!, /Enviar/, 'a charge the bank does not hold is not sent')

    const refused = await w.operador.submit('/conta/cobrancas', `enviar-${c1!.id}`)
    assert.equal(refused.statusCode, 409)
    assert.match(refusalsOn(refused.body), /O sacado não tem e-mail no cadastro/)
    const [t] = await rowsAs<{ sacado_id: string }>(ctx.db, w.clienteId, `SELECT sacado_id FROM titulos WHERE id = '${w.titulos[0]!.id}'`)
    await rowsAs(ctx.db, w.clienteId, `UPDATE sacados SET email = 'pagar@sacado.example' WHERE id = '${t!.sacado_id}'`)
    const sent = await w.operador.submit('/conta/cobrancas', `enviar-${c1!.id}`)
    assert.equal(sent.statusCode, 303, refusalsOn(sent.body))
    assert.equal(sent.headers.location, '/conta/cobrancas?feito=cobranca%2Femail')
    assert.match((await w.operador.get(sent.headers.location as string)).body, /Boleto enviado ao e-mail do sacado/)
    const queued = await ctx.db.orm.select().from(outbox).where(and(eq(outbox.tipo, 'boleto'), eq(outbox.clienteId, w.clienteId)))
    assert.deepEqual(queued.map((r) => [r.destino, r.anexos?.map((x) => [x.nome, x.tipo])]),
      [['pagar@sacado.example', [[`boleto-cobranca-${c1!.numero}.pdf`, 'application/pdf']]]])

    // The instruction form offers the registered charge alone; a refusal names its field by its label and keeps what was typed.
    const withForm = (await w.operador.get('/conta/cobrancas')).body
    assert.equal(hiddenFields(withForm, 'form-instrucao').action, '/conta/cobrancas/instrucoes')
    assert.match(withForm, new RegExp(`<option value="${c1!.id}">nº ${c1!.numero}: título ${w.titulos[0]!.numero}, `))
    assert.doesNotMatch(withForm, new RegExp(`<option value="${c2!.id}">`))
    const bad = await w.operador.submit('/conta/cobrancas', 'form-instrucao', { cobranca_id: c1!.id, instrucao: 'abatimento', abatimento: 'muito' })
    assert.equal(bad.statusCode, 422)
    assert.match(refusalsOn(bad.body), /Abatimento \(R\$\): escreva o valor em reais/)
    assert.match(bad.body, /name="abatimento"[^>]* value="muito"/)
    // A limit is told as the field is typed: in reais, and the last day as dd/mm/aaaa.
    const whole = await w.operador.submit('/conta/cobrancas', 'form-instrucao', { cobranca_id: c1!.id, instrucao: 'abatimento', abatimento: '10.000,00' })
    assert.match(refusalsOn(whole.body), /Abatimento \(R\$\): no máximo R\$ 9\.999,99/)
    const far = await w.operador.submit('/conta/cobrancas', 'form-instrucao', { cobranca_id: c1!.id, instrucao: 'alteracao_vencimento',
      vencimento: '2030-01-01' })
    assert.match(refusalsOn(far.body), /Novo vencimento: no máximo \d{2}\/\d{2}\/\d{4}/)
    const early = await w.operador.submit('/conta/cobrancas', 'form-instrucao', { cobranca_id: c1!.id, instrucao: 'alteracao_vencimento',
      vencimento: '2026-10-01' })
    assert.equal(early.statusCode, 422)
    assert.match(refusalsOn(early.body), /Novo vencimento: /)
    const asked = await w.operador.submit('/conta/cobrancas', 'form-instrucao', { cobranca_id: c1!.id, instrucao: 'alteracao_vencimento',
      vencimento: '2026-12-20' })
    assert.equal(asked.statusCode, 303, refusalsOn(asked.body))
    assert.match((await w.operador.get(asked.headers.location as string)).body, /Instrução pedida: vai ao banco/)
    const [i] = await rowsAs<{ instrucao: string, vencimento: string, iof: string }>(ctx.db, w.clienteId,
      'SELECT instrucao, vencimento::text AS vencimento, iof_centavos::text AS iof FROM cobranca_instrucoes')
    // T1: 1,000,000 centavos due 2026-11-04, bought 2026-10-05: 30 days of IOF to 2026-11-04, 76 to 2026-12-20; 46 × 0.000082 × 1,000,000.
    assert.deepEqual(i, { instrucao: 'alteracao_vencimento', vencimento: '2026-12-20', iof: '3772' })
  })

  it('lists the buy-backs in words and reais, with their cedente and the operation that compensated one', async () => {
    const w = await world()
    clock.set('2026-11-10T15:00:00Z')
    w.operador = await signIn(ctx.app, w.emails.operador)
    const call = await callerFor(ctx.db, ctx.app, w.clienteId, (await rowsAs<{ id: string }>(ctx.db, w.clienteId,
      `SELECT id FROM usuarios WHERE email = '${w.emails.operador}'`))[0]!.id, clock)
    const made = created(await call('POST', '/api/recompras', { titulo_ids: [w.titulos[2]!.id], motivo: 'vicio_de_origem',
      descricao: 'Mercadoria devolvida', forma: 'pagamento' }, key()))
    const page = (await w.operador.get('/conta/cobrancas/recompras')).body
    assert.match(page, /<a href="\/conta\/cobrancas" aria-current="page">Cobrança<\/a>/)
    const cells = rowCells(page, `data-recompra="${made.id}"`)
    assert.deepEqual({ ...cells, Cedente: undefined }, {
      Cedente: undefined, Motivo: 'vício de origem', Descrição: 'Mercadoria devolvida', Títulos: '1', Saldo: 'R$ 15.000,00', 'Juros e multa': 'R$ 0,00',
      Valor: 'R$ 15.000,00', Forma: 'pagamento pelo cedente', Estado: cells.Estado,
    })
    assert.match(cells.Estado!, /^em aberto/)
    assert.match(page, /<th scope="row">10\/11\/2026<\/th>/)
    assert.match((await w.operador.get('/conta/cobrancas')).body, /<a href="\/conta\/cobrancas\/recompras" id="link-recompras">Recompras<\/a>/)

    // Its payment recorded on its row: a time not typed is refused at its field, keeping the rest; then it is paid.
    const form = `pagar-${made.id}`
    const bad = await w.operador.submit('/conta/cobrancas/recompras', form, { id_transacao: 'E123', pago_em: 'ontem' })
    assert.equal(bad.statusCode, 422)
    assert.match(refusalsOn(bad.body), /Paga em \(horário de Brasília\): data e hora/)
    assert.match(bad.body, /value="E123"/)
    const paid = await w.operador.submit('/conta/cobrancas/recompras', form, { id_transacao: 'E123', pago_em: '2026-11-10T11:30' })
    assert.equal(paid.statusCode, 303, refusalsOn(paid.body))
    const after = (await w.operador.get(paid.headers.location as string)).body
    assert.match(after, /Pagamento da recompra registrado/)
    assert.equal(rowCells(after, `data-recompra="${made.id}"`).Estado, 'paga')
    assert.doesNotMatch(after, new RegExp(`id="${form}"`))

    // A new one by the form: the example's product has no coobrigação, so a default is refused with the rule's words.
    assert.doesNotMatch(after, new RegExp(`<option value="${w.titulos[2]!.id}">`), 'a título bought back is not offered again')
    const refused = await w.operador.submit('/conta/cobrancas/recompras', 'form-recompra', { titulo_id: w.titulos[1]!.id, motivo: 'inadimplencia',
      forma: 'compensacao', descricao: 'Sacado não pagou' })
    assert.equal(refused.statusCode, 409)
    assert.match(refusalsOn(refused.body), /coobrigação/)
    const ok = await w.operador.submit('/conta/cobrancas/recompras', 'form-recompra', { titulo_id: w.titulos[1]!.id, motivo: 'vicio_de_origem',
      forma: 'compensacao', descricao: 'Serviço não prestado' })
    assert.equal(ok.statusCode, 303, refusalsOn(ok.body))
    const listed = (await w.operador.get(ok.headers.location as string)).body
    assert.match(listed, /Recompra registrada/)
    assert.match(listed, /<td data-rotulo="Descrição">Serviço não prestado<\/td>/)

    // Made by mistake, it is cancelled on its row, with why: its título is acquired again and offered to a new buy-back.
    const [second] = created(await call('GET', '/api/recompras?estado=aberta'), 200).itens as { id: string }[]
    assert.doesNotMatch(after, new RegExp(`id="cancelar-${made.id}"`), 'a paid buy-back offers no cancellation')
    const noReason = await w.operador.submit('/conta/cobrancas/recompras', `cancelar-${second!.id}`, { motivo_cancelamento: '' })
    assert.equal(noReason.statusCode, 422)
    assert.match(refusalsOn(noReason.body), /Motivo do cancelamento: /)
    const cancelled = await w.operador.submit('/conta/cobrancas/recompras', `cancelar-${second!.id}`, { motivo_cancelamento: 'Registrada por engano' })
    assert.equal(cancelled.statusCode, 303, refusalsOn(cancelled.body))
    const back = (await w.operador.get(cancelled.headers.location as string)).body
    assert.match(back, /Recompra cancelada/)
    assert.equal(rowCells(back, `data-recompra="${second!.id}"`).Estado, 'cancelada')
    assert.match(back, new RegExp(`<option value="${w.titulos[1]!.id}">`), 'its título is offered again')
  })

  it('adds a collection account by its form, confirmed by another person, and charges a título by the charges\' form', async () => {
    const w = await world()
    const contas = '/conta/cobrancas/contas'
    const page = (await w.operador.get(contas)).body
    assert.match(rowCells(page, `data-conta="${w.account.id}"`)['Situação']!, /^confirmada por /)
    assert.match((await w.operador.get('/conta/cobrancas')).body, /<a href="\/conta\/cobrancas\/contas" id="link-contas-cobranca">/)
    assert.deepEqual([...page.matchAll(/<option value="(\d{3})">\d{3} /g)].map((m) => m[1]), ['001', '033', '104', '237', '341'], 'the banks in code order')

    // A refusal names its field by its label and keeps what was typed.
    const itau = { nome: 'Itaú cobrança', banco: '341', agencia: '1234', conta: '56789', conta_digito: String(mod10('123456789')), carteira: '109',
      layout_cnab: '400', transporte: 'cnab' }
    const bad = await w.operador.submit(contas, 'form-conta-cobranca', { ...itau, agencia: '12' })
    assert.equal(bad.statusCode, 422)
    assert.match(refusalsOn(bad.body), /Agência: /)
    assert.match(bad.body, /name="nome"[^>]* value="Itaú cobrança"/)
    // A bank's rule is told in its own words, not as "valor inválido".
    const digit = await w.operador.submit(contas, 'form-conta-cobranca', { ...itau, conta_digito: String((mod10('123456789') + 1) % 10) })
    assert.match(refusalsOn(digit.body), /Dígito da conta: o dígito da conta do Itaú é o módulo 10 de agência e conta/)
    const added = await w.operador.submit(contas, 'form-conta-cobranca', itau)
    assert.equal(added.statusCode, 303, refusalsOn(added.body))
    const mine = (await w.operador.get(added.headers.location as string)).body
    assert.match(mine, /Conta de cobrança incluída/)
    const [row] = await rowsAs<{ id: string }>(ctx.db, w.clienteId, `SELECT id FROM contas_cobranca WHERE banco = '341'`)
    assert.equal(rowCells(mine, `data-conta="${row!.id}"`)['Situação'], 'aguarda a confirmação de outra pessoa (você a incluiu)')
    assert.doesNotMatch(mine, new RegExp(`id="confirmar-${row!.id}"`), 'the person who added it is not offered to confirm it')

    // Another person who may approve confirms it.
    const aprovador = await signIn(ctx.app, w.emails.aprovador)
    assert.match((await aprovador.get(contas)).body, new RegExp(`id="confirmar-${row!.id}"`))
    const confirmed = await aprovador.submit(contas, `confirmar-${row!.id}`)
    assert.equal(confirmed.statusCode, 303, refusalsOn(confirmed.body))
    assert.match(rowCells((await aprovador.get(contas)).body, `data-conta="${row!.id}"`)['Situação']!, /^confirmada por .+ em \d{2}\/\d{2}\/\d{4}/)

    // The new charge's page (linked from the charges') offers the título not charged yet, under either account, and
    // charges it with its terms.
    assert.match((await w.operador.get('/conta/cobrancas')).body, /<a href="\/conta\/cobrancas\/nova" id="link-nova-cobranca">Nova cobrança<\/a>/)
    const nova = '/conta/cobrancas/nova'
    const charges = (await w.operador.get(nova)).body
    const third = w.titulos[2]!
    assert.match(charges, new RegExp(`<option value="${third.id}">${third.numero} \\(operação nº \\d+\\), ${w.sacado(third.sacado_id)}, saldo R\\$ `))
    for (const charged of w.titulos.slice(0, 2)) assert.doesNotMatch(charges, new RegExp(`<option value="${charged.id}"`))
    assert.match(charges, new RegExp(`<option value="${row!.id}">Itaú cobrança \\(Itaú Unibanco, ag\\. 1234, conta 56789-`))
    const wrong = await w.operador.submit(nova, 'form-cobranca', { titulo_id: third.id, conta_cobranca_id: row!.id,
      juros_tipo: 'valor_dia', juros_valor: 'quatro' })
    assert.equal(wrong.statusCode, 422)
    assert.match(refusalsOn(wrong.body), /Juros por dia \(R\$\): escreva o valor por dia em reais/)
    // A limit in a percentage field is told in percent (the sacado of T3 is a person: 2 % at most).
    const fine = await w.operador.submit(nova, 'form-cobranca', { titulo_id: third.id, conta_cobranca_id: row!.id, multa: '5' })
    assert.match(refusalsOn(fine.body), /Multa \(%\): no máximo 2 %/)
    const made = await w.operador.submit(nova, 'form-cobranca', { titulo_id: third.id, conta_cobranca_id: row!.id,
      juros_tipo: 'valor_dia', juros_valor: '4,12', multa: '2', protesto_dias: '5' })
    assert.equal(made.statusCode, 303, refusalsOn(made.body))
    assert.match((await w.operador.get(made.headers.location as string)).body, /Cobrança emitida/)
    const [charge] = await rowsAs<{ juros_tipo: string, juros: string, multa: string, protesto: number, conta: string }>(ctx.db, w.clienteId,
      `SELECT juros_tipo, juros_valor_centavos::text AS juros, multa_percentual::text AS multa, protesto_dias AS protesto,
        conta_cobranca_id AS conta FROM cobrancas WHERE titulo_id = '${third.id}'`)
    assert.deepEqual(charge, { juros_tipo: 'valor_dia', juros: '412', multa: '0.02', protesto: 5, conta: row!.id })
    assert.match((await w.operador.get(nova)).body, /<p id="cobrar-nada">Nenhum título adquirido sem cobrança\.<\/p>/, 'charged, it is no longer offered')
  })
})

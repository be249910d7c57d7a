// Confirmation with the sacado (issue 34): a one-time link e-mailed through the outbox to a real SMTP server, its page
// read and answered once (a used, superseded, expired or unknown link all get the same page); a person's record with
// its evidence, whose SHA-256 is recomputed here from the bytes sent; an approver's waiver; the product's rule that
// an operation is accepted only with its títulos confirmed; the events; another customer's títulos not found.
import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { auditRows, rowsAs } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { freshCnpj } from '../../helpers/cnpj.ts'
import { createTestSmtp, type TestSmtp } from '../../helpers/smtp.ts'
import { backOffice, created, EXAMPLE_NOW, EXAMPLE_PRODUCT, exampleRegisters, exampleTitles, key, settableClock } from './helpers.ts'

const PUBLIC_URL = 'http://fomento.example'

describe('confirmation with the sacado', () => {
  let smtp: TestSmtp
  before(async () => {
    smtp = await createTestSmtp()
    await smtp.start()
  })
  after(() => smtp.stop())
  const clock = settableClock(EXAMPLE_NOW)
  const logs: object[] = []
  const ctx = useTestApp(() => ({
    logs, deps: { clock }, env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '50', PUBLIC_URL, WEBHOOK_WORKER: 'off', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' },
  }))

  /** A customer with the example's registers and a draft operation of its three títulos; the product asks for confirmation when told. */
  async function world(exige = false) {
    clock.set(EXAMPLE_NOW)
    const office = await backOffice(ctx.db, ctx.app, clock)
    await ctx.db.ownerTransaction((tx) => tx.query('UPDATE clientes SET documento = $2 WHERE id = $1', [office.clienteId, freshCnpj()]))
    const regs = await exampleRegisters(office.admin.call)
    if (exige) {
      regs.produto = created(await office.admin.call('POST', '/api/produtos', { ...EXAMPLE_PRODUCT, nome: 'Com confirmação', exige_confirmacao: true }))
    }
    const op = created(await office.operador.call('POST', '/api/operacoes', {
      cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-05',
      titulos: exampleTitles(regs.sacados.map((s: { id: string }) => s.id)),
    }))
    const rows = <R = Record<string, unknown>>(q: string) => rowsAs<R>(ctx.db, office.clienteId, q)
    const sacadoEmail = async (sacadoId: string, email: string) =>
      created(await office.operador.call('PATCH', `/api/sacados/${sacadoId}`, { email }), 200)
    return { ...office, regs, op, rows, sacadoEmail }
  }
  const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_URL }
  const page = (path: string, method: 'GET' | 'POST' = 'GET', payload?: string) => ctx.app.inject({
    method, url: path, headers: { accept: 'text/html', ...(payload !== undefined ? FORM : {}) }, ...(payload !== undefined ? { payload } : {}),
  })

  it('e-mails a one-time link whose page the sacado answers once; any other link gets the same page', async () => {
    const w = await world()
    const t = w.op.titulos[1]
    const start = (body: object, k = key()) => w.operador.call('POST', `/api/titulos/${t.id}/confirmacao`, body, k)
    let res = await start({ meio: 'link' })
    assert.deepEqual([res.statusCode, res.json()], [409, { detail: 'sacado_sem_email', sacado_id: t.sacado_id }], 'no address in the register')

    res = await start({ meio: 'link', email: 'qualquer@outro.example' })
    assert.equal(res.statusCode, 422, 'the link goes to the register\'s address only')
    res = await start({ meio: 'link', resultado: 'confirmado' })
    assert.deepEqual([res.statusCode, res.json().detail.map((d: { loc: string[] }) => d.loc.join('.'))], [422, ['body.resultado']],
      'a field of a person\'s record is refused by name with a link')
    await w.sacadoEmail(t.sacado_id, 'contas@sacado.example')
    const k = key()
    const made = created(await start({ meio: 'link' }, k))
    assert.deepEqual([made.meio, made.estado, made.destinatario, made.expira_em, made.expirada], ['link', 'em_andamento', 'contas@sacado.example',
      '2026-10-12T15:00:00.000Z', false])
    assert.deepEqual(created(await start({ meio: 'link' }, k)), made, 'a retry with the key makes and sends nothing more')
    const [mail] = await smtp.waitFor(1)
    assert.deepEqual(mail!.envelopeTo, ['contas@sacado.example'])
    const text = mail!.parsed.text ?? ''
    // Offered, not yet bought: the message asks, and says it is not the notice of the assignment.
    for (const part of ['Cedente Exemplo Ltda ofereceu a', 'nº T2', 'R$ 25.000,00', '20/11/2026', 'não é a notificação da cessão']) {
      assert.ok(text.includes(part), part)
    }
    const link = /http:\/\/fomento\.example(\/confirmacao\/[A-Za-z0-9_-]{43})\b/.exec(text)?.[1]
    assert.ok(link, text)
    const [stored] = await w.rows<{ h: string }>(`SELECT encode(token_sha256, 'hex') AS h FROM confirmacoes WHERE id = '${made.id}'`)
    assert.equal(stored!.h, createHash('sha256').update(link.slice('/confirmacao/'.length)).digest('hex'), 'only the token\'s hash is kept')
    assert.equal((created(await w.operador.call('GET', `/api/titulos/${t.id}`), 200)).confirmacao_estado, 'em_andamento')

    const shown = await page(link)
    assert.equal(shown.statusCode, 200, shown.body)
    assert.equal(shown.headers['cache-control'], 'no-store')
    assert.equal(shown.headers['referrer-policy'], 'strict-origin', 'the token is sent to no one as a Referer')
    for (const part of ['nº T2', 'R$ 25.000,00', '20/11/2026', 'Cedente Exemplo Ltda', 'Oferecido em cessão a']) assert.ok(shown.body.includes(part), part)
    assert.ok(!shown.body.includes('art. 290'), 'no notice of an assignment that has not happened')
    for (const other of ['nº T1', 'nº T3', '11144477735', '52998224725', 'R$ 10.000,00', 'R$ 15.000,00']) {
      assert.ok(!shown.body.includes(other), `nothing of another título: ${other}`)
    }

    res = await page(link, 'POST', 'resposta=contesto&motivo=')
    assert.equal(res.statusCode, 422, 'a contest needs its reason')
    assert.match(res.body, /Informe o motivo da contestação/)
    res = await ctx.app.inject({ method: 'POST', url: link, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://elsewhere.example' },
      payload: 'resposta=confirmo' })
    assert.equal(res.statusCode, 403, 'not from another site')
    res = await page(link, 'POST', `resposta=contesto&motivo=${encodeURIComponent('Mercadoria devolvida\r\nem 02/10')}`)
    assert.equal(res.statusCode, 200)
    assert.match(res.body, /Resposta registrada/)

    const history = created(await w.operador.call('GET', `/api/titulos/${t.id}/confirmacoes`), 200)
    assert.equal(history.confirmacao_estado, 'contestado')
    assert.deepEqual([history.itens[0].estado, history.itens[0].observacao, typeof history.itens[0].respondido_em],
      ['contestado', 'Mercadoria devolvida\nem 02/10', 'string'])

    const unknown = await page(`/confirmacao/${randomBytes(32).toString('base64url')}`)
    const used = await page(link)
    const answeredAgain = await page(link, 'POST', 'resposta=confirmo')
    const notAToken = await page('/confirmacao/abc')
    for (const r of [used, answeredAgain, notAToken]) assert.deepEqual([r.statusCode, r.body], [unknown.statusCode, unknown.body])
    assert.equal(unknown.statusCode, 404)
    const token = link.slice('/confirmacao/'.length)
    const lines = JSON.stringify(logs)
    assert.ok(lines.includes('"path":"/confirmacao/:segredo"'), 'the page\'s requests are logged')
    assert.ok(!lines.includes(token), 'never with the token: a log reader could answer for the sacado')

    // A second link supersedes an open first; a link past its week is closed, and says the same.
    const first = created(await start({ meio: 'link' }))
    await w.sacadoEmail(t.sacado_id, 'outra@sacado.example')
    created(await start({ meio: 'link' }))
    const links = (await smtp.waitFor(3)).slice(1).map((m) => /(\/confirmacao\/[A-Za-z0-9_-]{43})/.exec(m.parsed.text ?? '')![1]!)
    assert.deepEqual([(await page(links[0]!)).statusCode, (await page(links[0]!)).body], [404, unknown.body], 'superseded')
    assert.equal((await page(links[1]!)).statusCode, 200)
    clock.set('2026-10-12T15:00:01Z')
    assert.deepEqual([(await page(links[1]!)).statusCode, (await page(links[1]!)).body], [404, unknown.body], 'expired')
    const after = created(await w.operador.call('GET', `/api/titulos/${t.id}/confirmacoes`), 200)
    assert.deepEqual(after.itens.map((c: { estado: string, expirada: boolean }) => [c.estado, c.expirada]),
      [['em_andamento', true], ['substituida', false], ['contestado', false]])
    assert.equal(after.itens[1].id, first.id)
    const audit = (await auditRows(ctx.db, w.clienteId)).filter((r) => String(r.acao).startsWith('confirmacao.'))
    assert.deepEqual(audit.map((r) => [r.acao, r.alvo_id]), Array(3).fill(['confirmacao.link_enviado', t.id]))
  })

  it('keeps a person\'s record with its evidence, whose SHA-256 the service computes; an approver alone waives', async () => {
    const w = await world()
    const t = w.op.titulos[0]
    const record = (body: object) => w.operador.call('POST', `/api/titulos/${t.id}/confirmacao`, body, key())
    const audio = randomBytes(50_000)
    const evidencia = { conteudo_base64: audio.toString('base64'), tipo: 'audio/mpeg', nome_arquivo: 'ligação 05-10.mp3' }
    const refused = async (body: object, loc: string) => {
      const res = await record(body)
      assert.equal(res.statusCode, 422, res.body)
      assert.ok(res.json().detail.some((d: { loc: string[] }) => d.loc.join('.') === loc), `${loc}: ${res.body}`)
    }
    await refused({ meio: 'telefone', resultado: 'confirmado' }, 'body.evidencia')
    await refused({ meio: 'telefone', resultado: 'parcial', evidencia }, 'body.valor_confirmado_centavos')
    await refused({ meio: 'telefone', resultado: 'parcial', evidencia, valor_confirmado_centavos: 1_000_000 }, 'body.valor_confirmado_centavos')
    await refused({ meio: 'telefone', resultado: 'confirmado', evidencia, valor_confirmado_centavos: 1 }, 'body.valor_confirmado_centavos')
    await refused({ meio: 'email', resultado: 'contestado', evidencia }, 'body.observacao')
    await refused({ meio: 'email', resultado: 'confirmado', evidencia: { ...evidencia, conteudo_base64: 'não é base64!' } }, 'body.evidencia.conteudo_base64')
    assert.equal((await w.rows('SELECT 1 FROM confirmacoes')).length, 0, 'nothing kept of a refusal')

    const sem = created(await record({ meio: 'telefone', resultado: 'sem_contato', observacao: 'Três ligações sem resposta' }))
    assert.deepEqual([sem.estado, sem.evidencia], ['sem_contato', null])
    const partial = created(await record({ meio: 'telefone', resultado: 'parcial', evidencia, valor_confirmado_centavos: 600_000 }))
    assert.deepEqual(partial.evidencia, { sha256: createHash('sha256').update(audio).digest('hex'), tipo: 'audio/mpeg', nome_arquivo: 'ligação 05-10.mp3',
      tamanho_bytes: 50_000 })
    assert.deepEqual([partial.estado, partial.valor_confirmado_centavos, partial.usuario_id], ['parcial', 600_000, w.operador.usuarioId])
    const file = await w.aprovador.call('GET', `/api/titulos/${t.id}/confirmacoes/${partial.id}/evidencia`)
    assert.equal(file.statusCode, 200)
    assert.ok(file.rawPayload.equals(audio), 'the bytes kept are the bytes sent')
    assert.match(String(file.headers['content-disposition']), /^attachment; filename="liga__o 05-10\.mp3"; filename\*=UTF-8''liga%C3%A7%C3%A3o%2005-10\.mp3$/)
    assert.equal(file.headers['content-type'], 'application/octet-stream', 'a type a browser could run is not served as such')
    assert.equal((await w.operador.call('GET', `/api/titulos/${t.id}/confirmacoes/${sem.id}/evidencia`)).statusCode, 404, 'none kept')

    const waive = (who: typeof w.operador) => who.call('POST', `/api/titulos/${t.id}/confirmacao/dispensa`,
      { motivo: 'Sacado recorrente, contrato de fornecimento' }, key())
    const byOperator = await waive(w.operador)
    assert.deepEqual([byOperator.statusCode, byOperator.json().detail], [403, 'papel_insuficiente'])
    const waived = created(await waive(w.aprovador))
    assert.deepEqual([waived.meio, waived.estado, waived.usuario_id], ['dispensa', 'dispensado', w.aprovador.usuarioId])
    assert.equal(created(await w.operador.call('GET', `/api/titulos/${t.id}`), 200).confirmacao_estado, 'dispensado')
    const listed = created(await w.operador.call('GET', '/api/titulos?confirmacao_estado=dispensado'), 200)
    assert.deepEqual(listed.itens.map((x: { id: string }) => x.id), [t.id], 'the list filters by confirmation state')
  })

  it('an operation whose product asks for it is accepted only with every título confirmed or waived', async () => {
    const w = await world(true)
    const [a, b, c] = w.op.titulos
    created(await w.operador.call('POST', `/api/operacoes/${w.op.id}/cotacao`))
    const accept = () => w.operador.call('POST', `/api/operacoes/${w.op.id}/aceite`, { cotacao_versao: 1 }, key())
    const evidencia = { conteudo_base64: Buffer.from('%PDF-1.4 e-mail do sacado').toString('base64'), tipo: 'application/pdf' }
    created(await w.operador.call('POST', `/api/titulos/${a.id}/confirmacao`, { meio: 'email', resultado: 'confirmado', evidencia }, key()))
    created(await w.aprovador.call('POST', `/api/titulos/${b.id}/confirmacao/dispensa`, { motivo: 'Contrato com o sacado' }, key()))
    created(await w.operador.call('POST', `/api/titulos/${c.id}/confirmacao`, { meio: 'telefone', resultado: 'parcial', evidencia,
      valor_confirmado_centavos: 100 }, key()))
    let res = await accept()
    assert.deepEqual([res.statusCode, res.json()],
      [409, { detail: 'titulos_nao_confirmados', titulos: [{ id: c.id, numero: 'T3', confirmacao_estado: 'parcial' }] }])
    assert.equal((await w.rows(`SELECT 1 FROM lancamentos`)).length, 0, 'nothing posted')
    created(await w.operador.call('POST', `/api/titulos/${c.id}/confirmacao`, { meio: 'telefone', resultado: 'confirmado', evidencia }, key()))
    res = await accept()
    assert.equal(res.statusCode, 200, res.body)
    // Acquired, a título may still be confirmed again (a dispute after the purchase), and its link is the notice of the assignment.
    created(await w.operador.call('POST', `/api/titulos/${a.id}/confirmacao`, { meio: 'telefone', resultado: 'sem_contato' }, key()))
    await w.sacadoEmail(a.sacado_id, 'financeiro@sacado.example')
    const sent = smtp.received.length
    created(await w.operador.call('POST', `/api/titulos/${a.id}/confirmacao`, { meio: 'link' }, key()))
    const [notice] = (await smtp.waitFor(sent + 1)).filter((m) => m.envelopeTo.includes('financeiro@sacado.example'))
    for (const part of ['Cedente Exemplo Ltda cedeu a', 'Código Civil, art. 290', 'o pagamento deste título é devido a']) {
      assert.ok(notice!.parsed.text?.includes(part), part)
    }
    // Cancelled, it has nothing left to confirm.
    created(await w.operador.call('POST', `/api/operacoes/${w.op.id}/cancelamento`, { motivo: 'desistência' }), 200)
    res = await w.operador.call('POST', `/api/titulos/${b.id}/confirmacao`, { meio: 'telefone', resultado: 'sem_contato' }, key())
    assert.deepEqual([res.statusCode, res.json()], [409, { detail: 'estado_invalido', estado: 'cancelado' }])
  })

  it('keeps a draft\'s título once checked; turning a product\'s check off is an approver\'s; a waiver is a person\'s', async () => {
    const w = await world(true)
    const t = w.op.titulos[0]
    created(await w.operador.call('POST', `/api/titulos/${t.id}/confirmacao`, { meio: 'telefone', resultado: 'sem_contato' }, key()))
    let res = await w.operador.call('DELETE', `/api/operacoes/${w.op.id}/titulos/${t.id}`)
    assert.deepEqual([res.statusCode, res.json()], [409, { detail: 'titulo_com_verificacoes', titulo_id: t.id }])
    created(await w.operador.call('DELETE', `/api/operacoes/${w.op.id}/titulos/${w.op.titulos[1].id}`), 200)
    const version = { ...EXAMPLE_PRODUCT, nome: undefined, exige_confirmacao: false }
    res = await w.operador.call('POST', `/api/produtos/${w.regs.produto.id}/versoes`, version, key())
    assert.deepEqual([res.statusCode, res.json().detail], [403, 'papel_insuficiente'], 'an operador does not turn the check off')
    const kept = created(await w.operador.call('POST', `/api/produtos/${w.regs.produto.id}/versoes`, { ...EXAMPLE_PRODUCT, nome: undefined }, key()))
    assert.equal(kept.versoes[0].exige_confirmacao, true, 'a version that leaves it unsaid keeps it')
    const off = created(await w.admin.call('POST', `/api/produtos/${w.regs.produto.id}/versoes`, version, key()))
    assert.equal(off.versoes[0].exige_confirmacao, false)
    res = await w.integration('POST', `/api/titulos/${t.id}/confirmacao/dispensa`, { motivo: 'Pela integração' }, key())
    assert.deepEqual([res.statusCode, res.json().detail], [403, 'aprovacao_pelo_mesmo_usuario'], 'a token no person made waives nothing')
  })

  it('writes a confirmacao.* event per change of state, in the título\'s order; another customer\'s título is not found', async () => {
    const w = await world()
    created(await w.admin.call('POST', '/api/webhooks', { url: 'http://127.0.0.1:9/hook', eventos: ['confirmacao.*'] }))
    const t = w.op.titulos[2]
    await w.sacadoEmail(t.sacado_id, 'pagar@sacado.example')
    created(await w.operador.call('POST', `/api/titulos/${t.id}/confirmacao`, { meio: 'link' }, key()))
    created(await w.aprovador.call('POST', `/api/titulos/${t.id}/confirmacao/dispensa`, { motivo: 'Sem resposta; cliente antigo' }, key()))
    const events = await w.rows<{ tipo: string, recurso: string, dados: Record<string, unknown> }>('SELECT tipo, recurso, dados FROM eventos ORDER BY seq')
    assert.deepEqual(events.map((e) => [e.tipo, e.recurso, e.dados.confirmacao_estado, e.dados.estado_anterior]), [
      ['confirmacao.em_andamento', `titulo:${t.id}`, 'em_andamento', 'pendente'],
      ['confirmacao.dispensado', `titulo:${t.id}`, 'dispensado', 'em_andamento'],
    ])

    const other = await backOffice(ctx.db, ctx.app, clock)
    for (const [method, url, body] of [['POST', `/api/titulos/${t.id}/confirmacao`, { meio: 'telefone', resultado: 'sem_contato' }],
      ['GET', `/api/titulos/${t.id}/confirmacoes`, undefined], ['POST', `/api/titulos/${t.id}/confirmacao/dispensa`, { motivo: 'tentativa' }]] as const) {
      const caller = method === 'GET' || url.endsWith('confirmacao') ? other.operador : other.aprovador
      const res = await caller.call(method, url, body, method === 'POST' ? key() : undefined)
      assert.deepEqual([res.statusCode, res.json()], [404, { detail: 'nao_encontrado' }], `${method} ${url}`)
    }
    const [rec] = await w.rows<{ id: string }>('SELECT id FROM confirmacoes LIMIT 1')
    assert.equal((await other.operador.call('GET', `/api/titulos/${t.id}/confirmacoes/${rec!.id}/evidencia`)).statusCode, 404)
  })
})

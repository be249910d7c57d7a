// Webhooks (issue 34) against a real HTTP receiver: the events a change writes are POSTed, signed as the documentation
// says (checked here with node:crypto from that recipe, not with the service's code), at least once, in order per
// resource across retries; a receiver that hangs does not hold another endpoint's deliveries; a dead one is turned off
// after a day and its administrador e-mailed; redirects are not followed and answers are read up to a bound; an
// endpoint's secret is shown once, kept encrypted, and rotated with a grace in which both sign.
import assert from 'node:assert/strict'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { describe, it, type TestContext } from 'node:test'
import { rowsAs } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { until } from '../../helpers/wait.ts'
import { backOffice, created, EXAMPLE_NOW, formalizedExample, key, settableClock } from '../operations/helpers.ts'
import { receiver, type Received } from './receiver.ts'
import { writeOverdue } from '../../../src/modules/webhooks/overdue.ts'
import { retornoSandbox240 } from '../../../src/modules/collections/sandbox/retorno240.ts'
import { issueToken } from '../../helpers/api-credentials.ts'

/** The documented recipe: HMAC-SHA256, keyed with the secret's text, of "<t>.<body>", hex; any v1 may match. */
function verify(r: Received, secret: string): boolean {
  const header = String(r.headers['webhook-signature'] ?? '')
  const parts = header.split(',').map((p) => p.split('=') as [string, string])
  const t = parts.find(([k]) => k === 't')?.[1]
  if (!t || !/^\d+$/.test(t)) return false
  const expected = createHmac('sha256', secret).update(`${t}.${r.body}`).digest()
  return parts.filter(([k]) => k === 'v1').some(([, v]) => {
    const given = Buffer.from(v, 'hex')
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
}

const ENV = {
  MAIL_WORKER: 'off', WEBHOOK_WORKER: 'on', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_BASE_MS: '20', WEBHOOK_RETRY_MAX_MS: '60',
  WEBHOOK_TIMEOUT_MS: '2000',
}

/** A customer with its people, a receiver of its own (closed with the test), and a way to register endpoints. */
async function worldOf(ctx: { db: Parameters<typeof backOffice>[0], app: Parameters<typeof backOffice>[1] }, t: TestContext) {
  const clock = settableClock(EXAMPLE_NOW)
  const office = await backOffice(ctx.db, ctx.app, clock)
  const rec = await receiver()
  t.after(() => rec.close())
  const rows = <R = Record<string, unknown>>(q: string) => rowsAs<R>(ctx.db, office.clienteId, q)
  const hook = async (body: object = {}, at = rec.url) => created(await office.admin.call('POST', '/api/webhooks', { url: at, eventos: ['*'], ...body }))
  return { ...office, rec, rows, hook }
}
const bodies = (got: Received[]) => got.map((g) => JSON.parse(g.body) as { id: string, tipo: string, criado_em: string, dados: Record<string, unknown> })

describe('/api/webhooks', () => {
  // The example's day: its operation is priced then. Deliveries keep the database's clock.
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: ENV, deps: { clock } })

  const world = (t: TestContext) => worldOf(ctx, t)

  it('shows the secret once, keeps it encrypted, and delivers each event signed with it, in the order of the changes', async (t) => {
    const w = await world(t)
    const k = key()
    const made = created(await w.admin.call('POST', '/api/webhooks', { url: w.rec.url, eventos: ['operacao.*'], descricao: 'ERP' }, k))
    assert.match(made.segredo, /^whsec_[A-Za-z0-9_-]{43}$/)
    // A retry with the same key gets the endpoint, not its secret again.
    const replay = await w.admin.call('POST', '/api/webhooks', { url: w.rec.url, eventos: ['operacao.*'], descricao: 'ERP' }, k)
    assert.equal(replay.statusCode, 201)
    assert.equal(replay.headers['idempotent-replayed'], 'true')
    assert.equal(replay.json().segredo, null)
    const read = created(await w.operador.call('GET', `/api/webhooks/${made.id}`), 200)
    assert.equal('segredo' in read, false)
    const [stored] = await w.rows<{ s: string }>(`SELECT segredo_cifrado AS s FROM webhooks WHERE id = '${made.id}'`)
    assert.ok(!stored!.s.includes(made.segredo.slice(6)), 'the secret is not stored as given')
    const stash = JSON.stringify(await rowsAs(ctx.db, undefined, 'SELECT corpo FROM chaves_idempotencia'))
    assert.ok(!stash.includes(made.segredo), 'the stored answer of the key holds no secret')

    const { op } = await formalizedExample(w.admin.call)
    await w.rec.count(4)
    const got = bodies(w.rec.got)
    assert.deepEqual(got.map((b) => b.tipo), ['operacao.criada', 'operacao.cotada', 'operacao.aceita', 'operacao.formalizada'])
    for (const [i, r] of w.rec.got.entries()) {
      assert.ok(verify(r, made.segredo), `delivery ${i} is signed with the secret`)
      assert.equal(r.headers['webhook-id'], got[i]!.id)
      assert.equal(r.headers['content-type'], 'application/json')
      assert.deepEqual(Object.keys(got[i]!), ['id', 'tipo', 'criado_em', 'dados'])
    }
    assert.equal(got[2]!.dados.id, op.id)
    assert.equal(got[2]!.dados.estado, 'aceita')
    assert.equal(got[2]!.dados.estado_anterior, 'cotada')
    assert.ok(!verify(w.rec.got[0]!, 'whsec_another'), 'another secret does not verify')
    // The delivery log: each delivery, its try, and the body sent byte for byte.
    await until('all acknowledged', async () => (await w.rows(`SELECT 1 FROM webhook_entregas WHERE estado <> 'entregue'`)).length === 0 || undefined)
    const log = created(await w.operador.call('GET', `/api/webhooks/${made.id}/entregas`), 200)
    assert.equal(log.itens.length, 4)
    assert.ok(log.itens.every((e: { estado: string, tentativas: number }) => e.estado === 'entregue' && e.tentativas === 1))
    const one = created(await w.operador.call('GET', `/api/webhooks/${made.id}/entregas/${log.itens[3].id}`), 200)
    assert.equal(one.corpo, w.rec.got[0]!.body)
    assert.equal(one.tentativas_log[0].status_http, 200)
    assert.equal(one.tentativas_log[0].resposta, 'ok')
  })

  it('retries with backoff until acknowledged: each event acknowledged once, the order per resource kept across retries', async (t) => {
    const w = await world(t)
    const made = await w.hook({ eventos: ['operacao.*'] })
    let failures = 0
    w.rec.answer = () => (failures++ < 3 ? { status: 500, body: 'falhou' } : { status: 200, body: 'ok' })
    await formalizedExample(w.admin.call)
    await until('4 acknowledged', () => (w.rec.got.length >= 7 || undefined))
    const acked = bodies(w.rec.got.slice(3))
    assert.deepEqual(acked.map((b) => b.tipo), ['operacao.criada', 'operacao.cotada', 'operacao.aceita', 'operacao.formalizada'])
    // The first three tries were of the first event: nothing later went before it was acknowledged.
    assert.deepEqual(new Set(bodies(w.rec.got.slice(0, 4)).map((b) => b.id)).size, 1)
    assert.equal(new Set(acked.map((b) => b.id)).size, 4)
    const log = created(await w.operador.call('GET', `/api/webhooks/${made.id}/entregas?estado=entregue`), 200)
    const first = log.itens.at(-1)
    assert.equal(first.tentativas, 4)
    const detail = created(await w.operador.call('GET', `/api/webhooks/${made.id}/entregas/${first.id}`), 200)
    assert.deepEqual(detail.tentativas_log.map((a: { status_http: number }) => a.status_http), [500, 500, 500, 200])
    const [hook] = await w.rows<{ falhando_desde: unknown }>(`SELECT falhando_desde FROM webhooks WHERE id = '${made.id}'`)
    assert.equal(hook!.falhando_desde, null)
  })

  it('a receiver that hangs does not hold another endpoint\'s deliveries', async (t) => {
    const w = await world(t)
    const other = await receiver()
    t.after(() => other.close())
    w.rec.answer = () => 'hang'
    await w.hook({ eventos: ['operacao.*'] })
    await w.hook({ eventos: ['operacao.*'] }, other.url)
    await formalizedExample(w.admin.call)
    await other.count(4)
    // The hanging receiver has its first delivery still open, unanswered, while the other got all four.
    assert.equal(w.rec.got.length, 1)
    assert.equal(w.rec.hanging.length, 1)
    assert.equal(w.rec.hanging[0]!.writableEnded, false)
    assert.deepEqual(bodies(other.got).map((b) => b.tipo), ['operacao.criada', 'operacao.cotada', 'operacao.aceita', 'operacao.formalizada'])
  })

  it('does not follow a redirect, reads an answer up to its bound, and sends an event again by hand with the same id', async (t) => {
    const w = await world(t)
    const target = await receiver()
    t.after(() => target.close())
    let n = 0
    w.rec.answer = () => (n++ === 0 ? { status: 302, headers: { location: target.url } } : { status: 200, body: 'x'.repeat(5_000_000) })
    const made = await w.hook({ eventos: ['operacao.criada'] })
    const { op } = await formalizedExample(w.admin.call)
    await w.rec.count(2)
    await until('delivered', async () => (await w.rows(`SELECT 1 FROM webhook_entregas WHERE estado = 'entregue'`)).length === 1 || undefined)
    assert.equal(target.got.length, 0, 'the redirect was not followed')
    const [d] = created(await w.operador.call('GET', `/api/webhooks/${made.id}/entregas`), 200).itens
    const detail = created(await w.operador.call('GET', `/api/webhooks/${made.id}/entregas/${d.id}`), 200)
    assert.deepEqual(detail.tentativas_log.map((a: { status_http: number }) => a.status_http), [302, 200])
    assert.equal(detail.tentativas_log[1].resposta.length, 1000)
    assert.equal(JSON.parse(detail.corpo).dados.id, op.id)
    // An operador reads the log; only an administrador sends again.
    assert.equal((await w.operador.call('POST', `/api/webhooks/${made.id}/entregas/${d.id}/reenvio`)).statusCode, 403)
    const again = created(await w.admin.call('POST', `/api/webhooks/${made.id}/entregas/${d.id}/reenvio`), 202)
    assert.equal(again.manual, true)
    assert.equal(again.evento_id, d.evento_id)
    await w.rec.count(3)
    assert.equal(w.rec.got[2]!.headers['webhook-id'], d.evento_id)
    // The deliveries of the event a receiver saw, by its Webhook-Id.
    const byEvent = created(await w.operador.call('GET', `/api/webhooks/${made.id}/entregas?evento_id=${d.evento_id}`), 200).itens
    assert.deepEqual(byEvent.map((e: { manual: boolean }) => e.manual).sort(), [false, true])
    // A test event, signed as any other, for this endpoint alone, changing no data.
    const ping = created(await w.admin.call('POST', `/api/webhooks/${made.id}/teste`), 202)
    assert.equal(ping.tipo, 'webhook.teste')
    await w.rec.count(4)
    const got = JSON.parse(w.rec.got[3]!.body)
    assert.deepEqual([got.tipo, got.dados.webhook_id, w.rec.got[3]!.headers['webhook-id']], ['webhook.teste', made.id, ping.evento_id])
    assert.ok(verify(w.rec.got[3]!, made.segredo))
  })

  it('after a day of failures turns the endpoint off, e-mails its administrador, and sends the waiting deliveries once turned on again', async (t) => {
    const w = await world(t)
    w.rec.answer = () => ({ status: 503 })
    const made = await w.hook({ eventos: ['operacao.criada'] })
    // The endpoint has been failing since yesterday (as a day of tries would have left it).
    await w.rows(`UPDATE webhooks SET falhando_desde = now() - interval '25 hours' WHERE id = '${made.id}' RETURNING id`)
    const { regs } = await formalizedExample(w.admin.call)
    const off = await until('turned off', async () => {
      const [r] = await w.rows<{ ativo: boolean, motivo_desativacao: string }>(`SELECT ativo, motivo_desativacao FROM webhooks WHERE id = '${made.id}'`)
      return r!.ativo ? undefined : r
    })
    assert.equal(off.motivo_desativacao, 'falhas')
    const tries = w.rec.got.length
    const [admin] = await w.rows<{ email: string }>(`SELECT email FROM usuarios WHERE id = '${w.admin.usuarioId}'`)
    const mail = await rowsAs<{ destino: string, assunto_email: string, texto: string }>(ctx.db, undefined,
      `SELECT destino, assunto_email, texto FROM outbox WHERE tipo = 'webhook_desativado' AND cliente_id = '${w.clienteId}'`)
    assert.deepEqual(mail.map((m) => m.destino), [admin!.email])
    assert.match(mail[0]!.texto, new RegExp(`/api/webhooks/${made.id}`))
    assert.equal((await w.rows(`SELECT 1 FROM auditoria_cliente WHERE acao = 'webhook.desativado' AND alvo_id = '${made.id}'`)).length, 1)
    // What happens while it is off waits too: at least once holds through the receiver's outage.
    const later = created(await w.admin.call('POST', '/api/operacoes', { cedente_id: regs.cedente.id, produto_id: regs.produto.id }))
    const read = created(await w.operador.call('GET', `/api/webhooks/${made.id}`), 200)
    assert.equal(read.entregas_pendentes, 2)
    assert.equal(w.rec.got.length, tries, 'nothing is sent while it is off')
    // Held out of the worker's way while the endpoint is off.
    assert.deepEqual((await w.rows<{ estado: string }>(`SELECT DISTINCT estado FROM webhook_entregas WHERE webhook_id = '${made.id}'`)).map((r) => r.estado),
      ['retida'])
    // A redelivery asked while a delivery of the event is still open is that one: redeliveries never pile up.
    const [waiting] = created(await w.operador.call('GET', `/api/webhooks/${made.id}/entregas?estado=retida`), 200).itens
    const again = created(await w.admin.call('POST', `/api/webhooks/${made.id}/entregas/${waiting.id}/reenvio`), 202)
    assert.equal(again.id, waiting.id)
    assert.equal(created(await w.operador.call('GET', `/api/webhooks/${made.id}`), 200).entregas_pendentes, 2)
    // Turned on again: the deliveries that waited go, in order, now answered.
    w.rec.answer = () => ({ status: 204 })
    const on = created(await w.admin.call('PATCH', `/api/webhooks/${made.id}`, { ativo: true }), 200)
    assert.equal(on.ativo, true)
    assert.equal(on.falhando_desde, null)
    await w.rec.count(tries + 2)
    assert.ok(bodies(w.rec.got).slice(-2).some((b) => b.dados.id === later.id))
    await until('delivered', async () => (await w.rows(`SELECT 1 FROM webhook_entregas WHERE estado = 'entregue'`)).length === 2 || undefined)
    // Turned off by the customer: nothing new is queued for it.
    created(await w.admin.call('PATCH', `/api/webhooks/${made.id}`, { ativo: false }), 200)
    created(await w.admin.call('POST', '/api/operacoes', { cedente_id: regs.cedente.id, produto_id: regs.produto.id }))
    assert.equal(created(await w.operador.call('GET', `/api/webhooks/${made.id}`), 200).entregas_pendentes, 0)
  })

  it('refuses URLs to addresses that are not public, with a user and password, or not http(s); keeps each customer\'s endpoints its own', async (t) => {
    const w = await world(t)
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/hook', 'http://[::ffff:192.168.0.1]/hook', 'http://[fd00:ec2::254]/',
      'http://user:senha@127.0.0.1/hook', 'ftp://127.0.0.1/hook', 'http://nao-existe.invalid/hook']) {
      const res = await w.admin.call('POST', '/api/webhooks', { url, eventos: ['*'] })
      assert.equal(res.statusCode, 422, url)
      assert.deepEqual(res.json().errors?.[0]?.loc ?? res.json().detail?.[0]?.loc, ['body', 'url'], url)
    }
    assert.equal((await w.admin.call('POST', '/api/webhooks', { url: w.rec.url, eventos: ['nada.disso'] })).statusCode, 422)
    assert.equal((await w.operador.call('POST', '/api/webhooks', { url: w.rec.url, eventos: ['*'] })).statusCode, 403)
    const mine = await w.hook({ eventos: ['operacao.*'] })
    const other = await backOffice(ctx.db, ctx.app, clock)
    assert.equal((await other.admin.call('GET', `/api/webhooks/${mine.id}`)).statusCode, 404)
    assert.equal((await other.admin.call('PATCH', `/api/webhooks/${mine.id}`, { ativo: false })).statusCode, 404)
    assert.equal((await other.admin.call('DELETE', `/api/webhooks/${mine.id}`)).statusCode, 404)
    assert.equal(created(await other.admin.call('GET', '/api/webhooks'), 200).itens.length, 0)
    // The other customer's changes are not delivered here.
    await formalizedExample(other.admin.call)
    assert.equal((await w.rows('SELECT 1 FROM webhook_entregas')).length, 0)
    // Deleted: gone from the list, its waiting deliveries cancelled.
    assert.equal((await w.admin.call('DELETE', `/api/webhooks/${mine.id}`)).statusCode, 204)
    assert.equal((await w.admin.call('GET', `/api/webhooks/${mine.id}`)).statusCode, 404)
  })

  it('rotates the secret: the new one signs at once, the old one too during its grace', async (t) => {
    const w = await world(t)
    w.rec.answer = () => ({ status: 200 })
    const made = await w.hook({ eventos: ['operacao.criada', 'operacao.cotada'] })
    const rotated = created(await w.admin.call('POST', `/api/webhooks/${made.id}/segredo`, { validade_anterior_horas: 2 }), 200)
    assert.notEqual(rotated.segredo, made.segredo)
    assert.ok(rotated.segredo_anterior_valido_ate)
    await formalizedExample(w.admin.call)
    await w.rec.count(2)
    const r = w.rec.got[0]!
    assert.ok(verify(r, rotated.segredo) && verify(r, made.segredo), 'both secrets sign during the grace')
    assert.equal(String(r.headers['webhook-signature']).split(',').filter((p) => p.startsWith('v1=')).length, 2)
    const final = created(await w.admin.call('POST', `/api/webhooks/${made.id}/segredo`, { validade_anterior_horas: 0 }), 200)
    assert.equal(final.segredo_anterior_valido_ate, null)
  })

  it('tells a payment, a charge from its making to its liquidation, the título settled and the retorno applied, each as its row changed',
    async (t) => {
      const w = await world(t)
      await w.hook({ eventos: ['desembolso.*', 'cobranca.*', 'titulo.*', 'cnab.*'] })
      const { op } = await formalizedExample(w.admin.call)
      const payment = created(await w.admin.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
      created(await w.aprovador.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key()), 200)
      const account = created(await w.operador.call('POST', '/api/contas-cobranca',
        { nome: 'BB cobrança', banco: '001', agencia: '3064', conta: '123456', conta_digito: 'X', carteira: '17', convenio: '1234567' }))
      created(await w.aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
      const titulo = (op.titulos as { id: string }[])[1]!.id
      const charge = created(await w.operador.call('POST', '/api/cobrancas', { titulo_id: titulo, conta_cobranca_id: account.id }, key()))
      // The bank's retorno: the charge entered, then paid in full on its due date.
      clock.set('2026-11-24T15:00:00Z')
      t.after(() => clock.set(EXAMPLE_NOW))
      const base = { sequencia: charge.nosso_numero_sequencia, seuNumero: 'T2', vencimento: charge.vencimento, valorCentavos: BigInt(charge.valor_centavos) }
      const file = retornoSandbox240({ banco: '001', agencia: '3064', conta: '123456', contaDigito: 'X', convenio: '1234567',
        inscricao: '11444777000161', empresa: 'FACTORING EXEMPLO' }, 7, '2026-11-24', [
        { ...base, codigo: '02', dataOcorrencia: '2026-10-06' },
        { ...base, codigo: '06', pagoCentavos: BigInt(charge.valor_centavos), dataOcorrencia: charge.vencimento },
      ])
      const { token } = await issueToken(ctx.db, w.clienteId, { escopos: ['cobranca'], clock })
      const sent = await ctx.app.inject({ method: 'POST', url: `/api/cnab/retornos?conta_cobranca_id=${account.id}`,
        payload: Buffer.from(file, 'latin1'), headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' } })
      assert.equal(sent.statusCode, 201, sent.body)
      await w.rec.count(7)
      const got = bodies(w.rec.got)
      assert.deepEqual(got.map((b) => b.tipo).sort(), ['cnab.retorno_aplicado', 'cobranca.criada', 'cobranca.liquidada', 'cobranca.registrada',
        'desembolso.aprovado', 'desembolso.solicitado', 'titulo.liquidado'])
      const of = (tipo: string) => got.find((b) => b.tipo === tipo)!.dados
      assert.deepEqual([of('desembolso.aprovado').id, of('desembolso.aprovado').estado_anterior, of('desembolso.aprovado').valor_centavos],
        [payment.id, 'aguardando_aprovacao', payment.valor_centavos])
      assert.deepEqual([of('cobranca.liquidada').id, of('cobranca.liquidada').estado_anterior], [charge.id, 'registrada'])
      assert.deepEqual([of('titulo.liquidado').id, of('titulo.liquidado').saldo_centavos, of('titulo.liquidado').estado_anterior], [titulo, 0, 'adquirido'])
      assert.deepEqual([of('cnab.retorno_aplicado').id, of('cnab.retorno_aplicado').estado], [sent.json().id, 'aplicado'])
      // In order per resource: the charge's three events as its state went.
      assert.deepEqual(got.filter((b) => b.tipo.startsWith('cobranca.')).map((b) => b.tipo), ['cobranca.criada', 'cobranca.registrada', 'cobranca.liquidada'])
    })

  it('writes no event for a change that is refused', async (t) => {
    const w = await world(t)
    await w.hook({ eventos: ['*'] })
    const { op } = await formalizedExample(w.admin.call)
    const before = (await w.rows('SELECT 1 FROM eventos')).length
    assert.equal((await w.admin.call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key())).statusCode, 409)
    assert.equal((await w.rows('SELECT 1 FROM eventos')).length, before)
  })

  it('tells a título past its business-day due date once, by the daily job', async (t) => {
    const w = await world(t)
    await w.hook({ eventos: ['titulo.vencido'] })
    const { op } = await formalizedExample(w.admin.call)
    const [t1, t2] = op.titulos as { id: string }[]
    // T1 fell due on Wednesday 2026-11-04. T2 on Friday 2026-11-20, Dia da Consciência Negra (a national holiday since
    // Lei 14.759/2023): it may be paid on Monday the 23rd, and is past due on the 24th.
    // The job is the cluster's: it writes other customers' events too; this customer's are counted in its rows.
    const mine = async () => (await w.rows<{ recurso: string }>(`SELECT recurso FROM eventos WHERE tipo = 'titulo.vencido' ORDER BY seq`)).map((r) => r.recurso)
    assert.ok(await writeOverdue(ctx.db, new Date('2026-11-20T12:00:00Z')) >= 1)
    assert.deepEqual(await mine(), [`titulo:${t1!.id}`])
    await w.rec.count(1)
    assert.deepEqual(bodies(w.rec.got).map((b) => [b.tipo, b.dados.id, b.dados.vencimento_util]), [['titulo.vencido', t1!.id, '2026-11-04']])
    await writeOverdue(ctx.db, new Date('2026-11-20T13:00:00Z'))
    await writeOverdue(ctx.db, new Date('2026-11-23T12:00:00Z'))
    assert.deepEqual(await mine(), [`titulo:${t1!.id}`])
    await writeOverdue(ctx.db, new Date('2026-11-24T12:00:00Z'))
    assert.deepEqual(await mine(), [`titulo:${t1!.id}`, `titulo:${t2!.id}`])
    await w.rec.count(2)
    assert.deepEqual(bodies(w.rec.got).map((b) => [b.dados.id, b.dados.vencimento_util]), [[t1!.id, '2026-11-04'], [t2!.id, '2026-11-23']])
    await writeOverdue(ctx.db, new Date('2026-11-25T12:00:00Z'))
    assert.equal((await mine()).length, 2, 'once per título')
  })
})

describe('/api/webhooks: one customer\'s hanging receivers', () => {
  // A timeout longer than the test: a try in hand stays in hand, so what the slots hold is what the test sees.
  const clock = settableClock(EXAMPLE_NOW)
  const ctx2 = useTestApp({ env: { ...ENV, WEBHOOK_TIMEOUT_MS: '60000' }, deps: { clock } })

  it('one customer\'s endpoints that all hang do not hold another customer\'s deliveries', async (t) => {
    const a = await worldOf(ctx2, t)
    a.rec.answer = () => 'hang'
    const second = await receiver()
    t.after(() => second.close())
    second.answer = () => 'hang'
    await a.hook({ eventos: ['operacao.criada'] })
    await a.hook({ eventos: ['operacao.criada'] }, second.url)
    const { regs } = await formalizedExample(a.admin.call)
    // Six more operations: seven resources, each event in flight at once to both of A's endpoints as far as allowed.
    for (let i = 0; i < 6; i++) created(await a.admin.call('POST', '/api/operacoes', { cedente_id: regs.cedente.id, produto_id: regs.produto.id }))
    // A's tries in hand, as the database counts them: six (its share of the eight slots), at most four per endpoint.
    const inFlight = async () => (await ctx2.db.ownerTransaction((tx) => tx.query<{ webhook_id: string, n: number }>(
      `SELECT webhook_id, count(*)::int AS n FROM webhook_entregas WHERE cliente_id = $1 AND estado = 'enviando' GROUP BY 1`, [a.clienteId])))
    const held = await until('A holds its share', async () => {
      const rows = await inFlight()
      return rows.reduce((sum, r) => sum + r.n, 0) === 6 ? rows : undefined
    })
    assert.ok(held.every((r) => r.n <= 4), JSON.stringify(held))
    const b = await worldOf(ctx2, t)
    await b.hook({ eventos: ['operacao.*'] })
    await formalizedExample(b.admin.call)
    await b.rec.count(4)
    // B got its four events while A's six tries were still in hand, unanswered.
    assert.equal((await inFlight()).reduce((sum, r) => sum + r.n, 0), 6)
    assert.equal(a.rec.got.length + second.got.length, 6)
    assert.ok([...a.rec.hanging, ...second.hanging].every((r) => !r.writableEnded))
    assert.deepEqual(bodies(b.rec.got).map((x) => x.tipo), ['operacao.criada', 'operacao.cotada', 'operacao.aceita', 'operacao.formalizada'])
  })
})

describe('/api/webhooks: two customers\' hanging receivers', () => {
  // A short timeout: the slots free as each hanging try gives up, and are taken again at once by the retries.
  const clock = settableClock(EXAMPLE_NOW)
  const ctx3 = useTestApp({ env: { ...ENV, WEBHOOK_TIMEOUT_MS: '1500' }, deps: { clock } })

  it('a third customer is served while two others\' receivers all hang and their backlogs wait', async (t) => {
    // A and B: every receiver hangs, each with seven resources' events due (A two endpoints, B one): all eight slots.
    const busy = []
    for (const endpoints of [2, 1]) {
      const w = await worldOf(ctx3, t)
      w.rec.answer = () => 'hang'
      await w.hook({ eventos: ['operacao.criada'] })
      if (endpoints === 2) {
        const second = await receiver()
        t.after(() => second.close())
        second.answer = () => 'hang'
        await w.hook({ eventos: ['operacao.criada'] }, second.url)
      }
      const { regs } = await formalizedExample(w.admin.call)
      for (let i = 0; i < 6; i++) created(await w.admin.call('POST', '/api/operacoes', { cedente_id: regs.cedente.id, produto_id: regs.produto.id }))
      busy.push(w)
    }
    await until('all eight slots held', async () => ((await ctx3.db.ownerTransaction((tx) => tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_entregas WHERE estado = 'enviando'`)))[0]!.n >= 8 || undefined))
    // C's event: no slot is free, and A's and B's waiting deliveries are due ahead of it. C has no try in hand, so a
    // slot that frees (a hanging try giving up) serves it before their backlogs.
    const c = await worldOf(ctx3, t)
    const made = await c.hook({ eventos: ['operacao.criada'] })
    created(await c.admin.call('POST', `/api/webhooks/${made.id}/teste`), 202)
    await c.rec.count(1)
    assert.equal(JSON.parse(c.rec.got[0]!.body).tipo, 'webhook.teste')
  })
})

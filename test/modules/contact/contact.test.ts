import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { eq, sql } from 'drizzle-orm'
import { PROTOCOLO_PATTERN } from '../../../src/modules/contact/protocolo.ts'
import { DEFAULT_SUBJECTS } from '../../../src/modules/contact/subjects.ts'
import { auditoria, contato, outbox } from '../../../src/platform/db/schema.ts'
import { contactBody, serviceConfigFile } from '../../helpers/app.ts'
import { testApp, useTestApp } from '../../helpers/fixture.ts'
import { contactModule } from '../../../src/modules/contact/index.ts'
import { statusModule } from '../../../src/modules/status/index.ts'

/** The contact module, and the status module whose snapshot says the mail channel's state. */
const CONTACT = [statusModule, contactModule]

describe('POST /api/site/contato', () => {
  // The delivery worker is off: these tests look at the rows as the request left them.
  const ctx = useTestApp({ modules: CONTACT, contactBudget: 10_000, env: { MAIL_WORKER: 'off' } })
  const post = (payload: object, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload, headers })

  it('answers 202 ContatoOut and stores contact, outbox and audit rows in one go', async () => {
    const body = contactBody({ assunto: 'financeiro', empresa: 'Metalúrgica Ipiranga Ltda', telefone: '+55 11 99999-0000', site: 'https://ipiranga.ind.br' })
    const res = await post(body, { 'x-request-id': 'req-contato-1' })
    assert.equal(res.statusCode, 202)
    const out = res.json()
    assert.deepEqual(Object.keys(out).sort(), ['destino', 'mensagem', 'protocolo'])
    assert.match(out.protocolo, PROTOCOLO_PATTERN)
    assert.equal(out.destino, 'financeiro@factoring.example')
    assert.match(out.mensagem, new RegExp(out.protocolo))

    const [row] = await ctx.db.orm.select().from(contato).where(eq(contato.protocolo, out.protocolo))
    assert.ok(row)
    assert.deepEqual(
      [row.nome, row.email, row.mensagem, row.empresa, row.telefone, row.site, row.assunto, row.destino, row.requestId],
      [body.nome, body.email, body.mensagem, body.empresa, body.telefone, body.site, 'financeiro', 'financeiro@factoring.example', 'req-contato-1'],
    )
    const [queued] = await ctx.db.orm.select().from(outbox).where(eq(outbox.protocolo, out.protocolo))
    assert.equal(queued?.estado, 'pendente')
    assert.equal(queued?.destino, 'financeiro@factoring.example')
    const audit = await ctx.db.orm.select().from(auditoria).where(eq(auditoria.protocolo, out.protocolo))
    assert.equal(audit.length, 1)
    assert.equal(audit[0]!.acao, 'contato.recebido')
    assert.equal(audit[0]!.requestId, 'req-contato-1')
    assert.match(audit[0]!.ipHash ?? '', /^[0-9a-f]{32}$/)
    // The audit trail keeps no personal data.
    assert.ok(!JSON.stringify(audit).includes(String(body.email)))
  })

  it('fills the defaults: assunto comercial, empty empresa/telefone/site', async () => {
    const res = await post(contactBody())
    assert.equal(res.statusCode, 202)
    assert.equal(res.json().destino, 'comercial@factoring.example')
    const [row] = await ctx.db.orm.select().from(contato).where(eq(contato.protocolo, res.json().protocolo))
    assert.deepEqual([row!.assunto, row!.empresa, row!.telefone, row!.site], ['comercial', '', '', ''])
  })

  it('normalizes assunto: trimmed and lower-cased; unknown falls to geral instead of being refused', async () => {
    const cases: [string, string, string][] = [
      ['  Suporte ', 'suporte', 'suporte@factoring.example'],
      ['IMPRENSA', 'imprensa', 'imprensa@factoring.example'],
      ['assunto-que-nao-existe', 'geral', 'contato@factoring.example'],
      ['', 'geral', 'contato@factoring.example'],
    ]
    for (const [assunto, code, destino] of cases) {
      const res = await post(contactBody({ assunto }))
      assert.equal(res.statusCode, 202, assunto)
      assert.equal(res.json().destino, destino, assunto)
      const [row] = await ctx.db.orm.select().from(contato).where(eq(contato.protocolo, res.json().protocolo))
      assert.equal(row!.assunto, code)
    }
  })

  it('a repeated identical payload answers the first protocolo and stores nothing new', async () => {
    const body = contactBody({ assunto: 'parcerias' })
    const first = await post(body)
    const count = async () => (await ctx.db.orm.select({ n: sql<number>`count(*)::int` }).from(contato))[0]!.n
    const before = await count()
    const again = await post(body)
    const racing = await Promise.all([post(body), post(body), post(body)])
    assert.equal(again.statusCode, 202)
    for (const r of [again, ...racing]) assert.equal(r.json().protocolo, first.json().protocolo)
    assert.equal(await count(), before)
    const queued = await ctx.db.orm.select().from(outbox).where(eq(outbox.protocolo, first.json().protocolo))
    assert.equal(queued.length, 1)
    // A different message is a new contact.
    const other = await post({ ...body, mensagem: `${body.mensagem} (complemento)` })
    assert.notEqual(other.json().protocolo, first.json().protocolo)
  })

  it('stores NUL and control characters safely instead of failing', async () => {
    const res = await post(contactBody({ nome: 'Jo\u0000ão\u0007', mensagem: 'Linha 1\r\nLinha 2\u0000 com controle \u001b[31m' }))
    assert.equal(res.statusCode, 202)
    const [row] = await ctx.db.orm.select().from(contato).where(eq(contato.protocolo, res.json().protocolo))
    assert.equal(row!.nome, 'João\u0007')
  })
})

describe('subjects and channel state', () => {
  const ctx = useTestApp({ modules: CONTACT, env: { MAIL_WORKER: 'off' } })

  it('GET /api/site/contato/assuntos lists the eight default subjects with their mailboxes', async () => {
    const res = await ctx.app.inject({ url: '/api/site/contato/assuntos' })
    assert.equal(res.statusCode, 200)
    const body = res.json()
    assert.deepEqual(body.assuntos.map((s: { codigo: string }) => s.codigo),
      ['comercial', 'suporte', 'financeiro', 'parcerias', 'imprensa', 'privacidade', 'ouvidoria', 'geral'])
    for (const s of body.assuntos) {
      for (const v of Object.values(s)) assert.equal(typeof v, 'string')
      assert.equal(s.destino, DEFAULT_SUBJECTS.find((d) => d.codigo === s.codigo)!.email)
      assert.ok(s.rotulo.length > 0)
    }
  })

  it('a subjects list from SERVICE_CONFIG_FILE replaces the defaults and routes', async (t) => {
    const file = serviceConfigFile({ subjects: [
      { codigo: 'vendas', rotulo: 'Vendas', email: 'vendas@exemplo.com.br' },
      { codigo: 'geral', rotulo: 'Geral', email: 'oi@exemplo.com.br' },
    ] })
    const custom = await testApp(t, { modules: CONTACT, db: ctx.db, env: { SERVICE_CONFIG_FILE: file, MAIL_WORKER: 'off' } })
    const list = (await custom.inject({ url: '/api/site/contato/assuntos' })).json()
    assert.deepEqual(list.assuntos.map((s: { codigo: string }) => s.codigo), ['vendas', 'geral'])
    const res = await custom.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody({ assunto: 'vendas' }) })
    assert.equal(res.json().destino, 'vendas@exemplo.com.br')
  })

  it('GET /api/site/contato/estado says sandbox, cannot send, and the queue counts', async () => {
    await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody(), remoteAddress: '192.0.2.10' })
    const res = await ctx.app.inject({ url: '/api/site/contato/estado' })
    assert.equal(res.statusCode, 200)
    const body = res.json()
    assert.equal(body.modo, 'sandbox')
    assert.equal(body.pode_enviar, false)
    assert.ok(body.fila.pendentes >= 1)
    assert.equal(body.fila.falhas, 0)
    assert.equal(body.ultima_entrega_em, null)
  })

  it('never shows a credential, host or provider address of the SMTP channel', async (t) => {
    const smtp = await testApp(t, { modules: CONTACT, db: ctx.db, env: { SMTP_URL: 'smtp://usuario:s3cr3t-senha@smtp.provedor.example:2525', MAIL_FROM: 'robo@provedor.example', MAIL_WORKER: 'off' } })
    const text = (await smtp.inject({ url: '/api/site/contato/estado' })).body + (await smtp.inject({ url: '/api/status' })).body
    for (const secret of ['s3cr3t', 'usuario', 'smtp.provedor', '2525', 'robo@']) assert.ok(!text.includes(secret), secret)
    assert.equal(JSON.parse((await smtp.inject({ url: '/api/site/contato/estado' })).body).modo, 'smtp')
  })
})

describe('when the database is down', () => {
  const ctx = useTestApp({ modules: CONTACT })
  before(() => ctx.db.close()) // the app keeps its handle to a database that no longer answers

  it('liveness stays 200', async () => {
    assert.equal((await ctx.app.inject({ url: '/api/health' })).statusCode, 200)
  })

  it('readiness answers 503 banco_indisponivel', async () => {
    const res = await ctx.app.inject({ url: '/api/health/ready' })
    assert.equal(res.statusCode, 503)
    assert.deepEqual(res.json(), { detail: 'banco_indisponivel' })
  })

  it('the contact form answers 503 servico_indisponivel with Retry-After, never 202', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody() })
    assert.equal(res.statusCode, 503)
    assert.deepEqual(res.json(), { detail: 'servico_indisponivel' })
    assert.match(String(res.headers['retry-after']), /^\d+$/)
  })

  it('status says indisponivel with banco not ok', async () => {
    const body = await ctx.app.deps.snapshot.refresh()
    assert.equal(body.status, 'indisponivel')
    assert.equal(body.servicos.find((s) => s.nome === 'banco')?.ok, false)
    assert.equal((await ctx.app.inject({ url: '/api/status' })).statusCode, 200)
  })

  it('channel state still answers, with unknown queue counts', async () => {
    const res = await ctx.app.inject({ url: '/api/site/contato/estado' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json().fila, { pendentes: null, tentando: null, falhas: null })
  })
})

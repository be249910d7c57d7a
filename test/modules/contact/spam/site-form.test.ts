// Spam on the site's contact form without JavaScript (POST /contato) and on the API (POST /api/site/contato),
// against a real SMTP server: a bot's contact (honeypot filled, posted too fast, token missing or forged) is
// answered exactly like a person's, stored as spam with its reason, given no outbox row and never e-mailed;
// a person's is delivered; a client of the contract (no extra fields) is delivered.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import { PROTOCOLO_PATTERN } from '../../../../src/modules/contact/protocolo.ts'
import { auditoria, contato, outbox } from '../../../../src/platform/db/schema.ts'
import type { SpamReason } from '../../../../src/modules/contact/spam/rules.ts'
import { contactBody, siteFormToken } from '../../../helpers/app.ts'
import { testApp, useTestApp } from '../../../helpers/fixture.ts'
import { createTestSmtp, type TestSmtp } from '../../../helpers/smtp.ts'
import { until } from '../../../helpers/wait.ts'
import { forged, tokenServedAgo } from './helpers.ts'

const FORM = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }
const form = (fields: Record<string, unknown>) => new URLSearchParams(fields as Record<string, string>).toString()
const protocoloOf = (html: string) => /<dd class="protocolo" id="protocolo">([^<]+)<\/dd>/.exec(html)?.[1] ?? ''

describe('spam on the contact form', () => {
  let smtp: TestSmtp
  const counted: SpamReason[] = []
  before(async () => {
    smtp = await createTestSmtp()
    await smtp.start()
  })
  const ctx = useTestApp(() => ({
    contactBudget: 10_000,
    env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '50', SPAM_MIN_FILL_MS: '3000' },
    deps: { onSpam: (reason) => counted.push(reason) },
  }))
  after(() => smtp?.stop()) // after the app's own cleanup: its worker may be talking to the server until then

  const site = (fields: Record<string, unknown>) => ctx.app.inject({ method: 'POST', url: '/contato', payload: form(fields), headers: FORM })
  const api = (body: Record<string, unknown>) => ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: body })
  const stored = async (protocolo: string) => {
    const [row] = await ctx.db.orm.select().from(contato).where(eq(contato.protocolo, protocolo))
    const queued = await ctx.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo))
    const audit = await ctx.db.orm.select({ acao: auditoria.acao }).from(auditoria).where(eq(auditoria.protocolo, protocolo))
    return { row, queued: queued.length, audit: audit.map((a) => a.acao) }
  }
  const delivered = (protocolo: string) => until(`e-mail of ${protocolo}`, () => smtp.received.some((m) => m.parsed.subject?.includes(protocolo)))

  it('the form page carries the honeypot, hidden from people, and a fill-time token', async () => {
    const page = (await ctx.app.inject({ url: '/contato', headers: { accept: 'text/html' } })).body
    const trap = /<div class="campo-armadilha" aria-hidden="true">\s*<label for="campo-website">([^<]+)<\/label>\s*<input ([^>]+)>/.exec(page)
    assert.ok(trap, 'honeypot block')
    assert.match(trap[1]!, /Não preencha este campo/)
    for (const attr of ['name="website"', 'type="text"', 'tabindex="-1"', 'autocomplete="off"', 'value=""']) assert.ok(trap[2]!.includes(attr), attr)
    const css = (await ctx.app.inject({ url: /href="(\/assets\/[^"]+\.css)"/.exec(page)![1]! })).body
    assert.match(css, /\.campo-armadilha\s*\{[^}]*position:\s*absolute;[^}]*left:\s*-10000px/)
    const first = await siteFormToken(ctx.app)
    assert.match(first, /^v1\.[0-9a-z]+\.[A-Za-z0-9_-]{32}$/)
    const md = (await ctx.app.inject({ url: '/contato', headers: { accept: 'text/markdown' } })).body
    assert.ok(!md.includes('v1.') && !md.includes('__TOKEN'), 'no token in the Markdown twin')
  })

  it('a person (token served 10 s ago, honeypot empty) is delivered by e-mail', async () => {
    const res = await site({ ...contactBody({ assunto: 'financeiro' }), website: '', token_formulario: await tokenServedAgo(ctx.db, 10_000) })
    assert.equal(res.statusCode, 202)
    const protocolo = protocoloOf(res.body)
    assert.match(protocolo, PROTOCOLO_PATTERN)
    const s = await stored(protocolo)
    assert.equal(s.row?.spam, null)
    assert.equal(s.queued, 1)
    assert.deepEqual(s.audit, ['contato.recebido'])
    assert.ok(await delivered(protocolo), 'the e-mail arrived')
  })

  const bots: [string, () => Promise<Record<string, unknown>>, SpamReason][] = [
    ['honeypot filled', async () => ({ website: 'https://ofertas.example', token_formulario: await tokenServedAgo(ctx.db, 10_000) }), 'honeypot'],
    ['posted within the minimum fill time', async () => ({ token_formulario: await siteFormToken(ctx.app) }), 'rapido'],
    ['no token', async () => ({}), 'token'],
    ['forged token', async () => ({ token_formulario: forged(await tokenServedAgo(ctx.db, 10_000)) }), 'token'],
    ['token of another shape', async () => ({ token_formulario: 'v1.zzzzzz.abc' }), 'token'],
  ]
  for (const [what, extra, reason] of bots) {
    it(`site form, ${what}: the same "sent" page as a person's, stored as spam "${reason}", no outbox row, counted`, async () => {
      const before = counted.length
      const person = await site({ ...contactBody(), token_formulario: await tokenServedAgo(ctx.db, 10_000) })
      const res = await site({ ...contactBody(), ...await extra() })
      assert.equal(res.statusCode, 202)
      assert.equal(res.headers['content-type'], person.headers['content-type'])
      const protocolo = protocoloOf(res.body)
      assert.match(protocolo, PROTOCOLO_PATTERN)
      // Byte for byte the person's page, but for the protocolo.
      assert.equal(res.body.replaceAll(protocolo, 'P'), person.body.replaceAll(protocoloOf(person.body), 'P'))
      const s = await stored(protocolo)
      assert.equal(s.row?.spam, reason)
      assert.equal(s.queued, 0, 'never queued for e-mail')
      assert.deepEqual(s.audit, ['contato.spam'])
      assert.deepEqual(counted.slice(before), [reason])
    })
  }

  it('API: a client of the contract (no extra fields) is delivered', async () => {
    const res = await api(contactBody({ assunto: 'suporte' }))
    assert.equal(res.statusCode, 202)
    const { protocolo } = res.json() as { protocolo: string }
    const s = await stored(protocolo)
    assert.equal(s.row?.spam, null)
    assert.equal(s.queued, 1)
    assert.ok(await delivered(protocolo), 'the e-mail arrived')
  })

  it('API: the site script\'s fields from a person (aged token, empty honeypot) are delivered', async () => {
    const res = await api(contactBody({ token_formulario: await tokenServedAgo(ctx.db, 10_000) }))
    assert.equal(res.statusCode, 202)
    const s = await stored((res.json() as { protocolo: string }).protocolo)
    assert.equal(s.row?.spam, null)
    assert.equal(s.queued, 1)
  })

  const apiBots: [string, () => Promise<Record<string, unknown>>, SpamReason][] = [
    ['honeypot filled (no token)', async () => ({ website: 'x' }), 'honeypot'],
    ['honeypot not a string', async () => ({ website: 42 }), 'honeypot'],
    ['fresh token', async () => ({ token_formulario: await siteFormToken(ctx.app) }), 'rapido'],
    ['forged token', async () => ({ token_formulario: forged(await tokenServedAgo(ctx.db, 10_000)) }), 'token'],
    ['token not a string', async () => ({ token_formulario: { v: 1 } }), 'token'],
  ]
  for (const [what, extra, reason] of apiBots) {
    it(`API, ${what}: 202 shaped like a person's, stored as spam "${reason}", no outbox row`, async () => {
      const res = await api(contactBody(await extra()))
      assert.equal(res.statusCode, 202)
      const body = res.json() as { protocolo: string, destino: string, mensagem: string }
      assert.deepEqual(Object.keys(body), ['protocolo', 'destino', 'mensagem'])
      assert.equal(body.destino, 'comercial@factoring.example')
      assert.equal(body.mensagem, `Recebemos sua mensagem. Guarde o protocolo ${body.protocolo}: responderemos pelo e-mail informado.`)
      const s = await stored(body.protocolo)
      assert.equal(s.row?.spam, reason)
      assert.equal(s.queued, 0)
    })
  }

  it('a bot repeating itself gets its first protocolo; a person sending the same text is still delivered', async () => {
    const text = contactBody()
    const a = (await api({ ...text, website: 'x' })).json() as { protocolo: string }
    const b = (await api({ ...text, website: 'x' })).json() as { protocolo: string }
    assert.equal(b.protocolo, a.protocolo)
    const person = (await api(text)).json() as { protocolo: string }
    assert.notEqual(person.protocolo, a.protocolo)
    assert.equal((await stored(person.protocolo)).queued, 1)
  })

  for (const [what, token] of [
    ['older than a day', () => tokenServedAgo(ctx.db, 25 * 3_600_000)],
    ['empty (served while the database was away)', async () => ''],
  ] as const) {
    it(`site form, a token ${what}: the form again with a fresh token and a notice, nothing stored`, async () => {
      const fields = contactBody({ nome: 'Pessoa Que Demorou' })
      const res = await site({ ...fields, token_formulario: await token() })
      assert.equal(res.statusCode, 200)
      assert.match(res.body, /ainda não foi enviada: a página precisava ser atualizada/)
      assert.ok(res.body.includes(`value="${fields.nome as string}"`), 'what was typed is kept')
      assert.match(res.body, /name="token_formulario" value="v1\.[0-9a-z]+\.[A-Za-z0-9_-]{32}"/)
      assert.equal((await ctx.db.orm.select().from(contato).where(eq(contato.nome, 'Pessoa Que Demorou'))).length, 0)
    })
  }

  it('a failing onSpam hook (the metrics counter) never turns a caught bot into an error', async (t) => {
    // No worker of its own: it would take the people's messages of this file into its sandbox.
    const other = await testApp(t, {
      db: ctx.db, contactBudget: 10_000, env: { MAIL_WORKER: 'off' }, deps: { onSpam: () => { throw new Error('counter broken') } },
    })
    const res = await other.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody({ website: 'x' }) })
    assert.equal(res.statusCode, 202)
    assert.equal((await stored((res.json() as { protocolo: string }).protocolo)).row?.spam, 'honeypot')
  })

  it('no spam ever reached the SMTP server', async () => {
    const spam = await ctx.db.orm.select({ protocolo: contato.protocolo }).from(contato).where(eq(contato.spam, 'honeypot'))
    assert.ok(spam.length >= 3)
    // Every person's message above arrives; none of the bots' does.
    const people = await ctx.db.orm.select({ protocolo: outbox.protocolo }).from(outbox)
    await smtp.waitFor(people.length)
    const subjects = smtp.received.map((m) => m.parsed.subject ?? '')
    const all = await ctx.db.orm.select({ protocolo: contato.protocolo, spam: contato.spam }).from(contato)
    for (const c of all) assert.equal(subjects.some((s) => s.includes(c.protocolo)), c.spam === null, `${c.protocolo} (${c.spam})`)
  })
})

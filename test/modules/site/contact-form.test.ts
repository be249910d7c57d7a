// The contact form without JavaScript: POST /contato runs the API's validation and storage and answers a
// page: 202 with the protocolo, 422 with each error beside its field, 429 with the wait (the contato
// budget), 503 when nothing could be stored.
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { eq, sql } from 'drizzle-orm'
import { PROTOCOLO_PATTERN } from '../../../src/modules/contact/protocolo.ts'
import { auditoria, contato, outbox } from '../../../src/platform/db/schema.ts'
import { siteFormToken } from '../../helpers/app.ts'
import { useTestApp, useTestDatabase } from '../../helpers/fixture.ts'
import { assertSiteHeaders } from './headers.ts'

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }
// The form as a browser posts it: with the page's fill-time token (these apps have no minimum fill time;
// test/modules/contact/spam covers the rules).
let token = ''
const form = (fields: Record<string, string>) => new URLSearchParams({ ...fields, token_formulario: token }).toString()
const NO_MIN_FILL = { SPAM_MIN_FILL_MS: '0' }
let seq = 0
const valid = (over: Record<string, string> = {}) => ({
  nome: 'Joana Prado',
  email: 'joana@metalurgica.com.br',
  assunto: 'financeiro',
  empresa: 'Metalúrgica Prado',
  telefone: '',
  site: '',
  mensagem: `Quero antecipar duplicatas do mês. Pedido ${process.pid}-${++seq}`,
  ...over,
})

// One database for the file, but for the last suite, which takes its database down.
const tdb = useTestDatabase()

describe('POST /contato (the form without JavaScript)', () => {
  const ctx = useTestApp(() => ({ db: tdb.db, contactBudget: 10_000, env: NO_MIN_FILL }))
  before(async () => { token = await siteFormToken(ctx.app) })
  const post = (payload: string, headers: Record<string, string> = {}, remoteAddress = '198.51.100.1') =>
    ctx.app.inject({ method: 'POST', url: '/contato', payload, headers: { ...FORM, ...headers }, remoteAddress })

  it('stores the contact as the API does and answers 202 with a page showing protocolo and destino', async () => {
    const fields = valid({ telefone: '+55 11 3333-4444' })
    const res = await post(form(fields), { 'x-request-id': 'site-form-1' })
    assert.equal(res.statusCode, 202)
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8')
    assert.equal(res.headers['cache-control'], 'no-store')
    assertSiteHeaders(res.headers, 'POST /contato')
    const protocolo = /<dd class="protocolo" id="protocolo">([^<]+)<\/dd>/.exec(res.body)?.[1]
    assert.match(protocolo ?? '', PROTOCOLO_PATTERN)
    assert.match(res.body, /<dd id="destino">financeiro@factoring\.example<\/dd>/)
    assert.match(res.body, /<h1>Mensagem recebida<\/h1>/)
    const [row] = await tdb.db.orm.select().from(contato).where(eq(contato.protocolo, protocolo!))
    assert.deepEqual([row?.nome, row?.email, row?.assunto, row?.empresa, row?.telefone, row?.site, row?.mensagem, row?.requestId],
      [fields.nome, fields.email, 'financeiro', fields.empresa, fields.telefone, '', fields.mensagem, 'site-form-1'])
    assert.equal((await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo!))).length, 1)
    assert.equal((await tdb.db.orm.select().from(auditoria).where(eq(auditoria.protocolo, protocolo!))).length, 1)
  })

  it('answers the receipt in Markdown when the client prefers it', async () => {
    const res = await post(form(valid()), { accept: 'text/markdown' })
    assert.equal(res.statusCode, 202)
    assert.equal(res.headers['content-type'], 'text/markdown; charset=utf-8')
    assert.match(res.body, /^# Mensagem recebida/)
    assert.match(res.body, /- \*\*Protocolo:\*\* `CT-\d{8}-[0-9A-Z]+`/)
    assert.match(res.body, /- \*\*Destino:\*\* financeiro@factoring\.example/)
  })

  it('a double submit (same form twice) answers the first protocolo and stores one contact', async () => {
    const body = form(valid({ assunto: 'parcerias' }))
    const count = async () => (await tdb.db.orm.select({ n: sql<number>`count(*)::int` }).from(contato))[0]!.n
    const first = await post(body)
    const before = await count()
    const [a, b] = await Promise.all([post(body), post(body)])
    const pick = (html: string) => /id="protocolo">([^<]+)</.exec(html)?.[1]
    assert.equal(pick(a.body), pick(first.body))
    assert.equal(pick(b.body), pick(first.body))
    assert.equal(await count(), before)
  })

  it('the JSON API and the form share one validation: same fields refused, same limits', async () => {
    const cases: Record<string, string>[] = [
      { nome: 'M', email: 'maria@empresa', mensagem: 'curta' },
      {
        nome: 'x'.repeat(121), email: 'ok@empresa.com.br', mensagem: 'y'.repeat(4001),
        empresa: 'e'.repeat(141), telefone: '1'.repeat(41), site: 's'.repeat(201),
      },
      { email: 'a@b.com.br', mensagem: 'mensagem suficiente' },
    ]
    for (const c of cases) {
      const api = (await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: c })).json() as { detail: { loc: string[], type: string }[] }
      const page = await post(form(c))
      assert.equal(page.statusCode, 422)
      const invalid = [...page.body.matchAll(/name="(\w+)" aria-describedby="[^"]*" aria-invalid="true"/g)].map((m) => m[1])
      assert.deepEqual(invalid.sort(), api.detail.map((d) => d.loc[1]).sort(), JSON.stringify(c))
    }
  })

  it('422: each error beside its field, tied by aria-describedby, focus on the first, the values kept', async () => {
    const res = await post(form({ nome: 'M', email: 'maria@empresa', assunto: 'suporte', empresa: 'Acme <b>&', telefone: '', site: '', mensagem: 'curta' }))
    assert.equal(res.statusCode, 422)
    assert.equal(res.headers['cache-control'], 'no-store')
    assertSiteHeaders(res.headers, '422')
    const expected: Record<string, string> = {
      nome: 'Use pelo menos 2 caracteres.',
      email: 'Informe um e-mail válido, como nome@empresa.com.br.',
      mensagem: 'Use pelo menos 10 caracteres.',
    }
    for (const [field, message] of Object.entries(expected)) {
      assert.match(res.body, new RegExp(`id="campo-${field}" name="${field}" aria-describedby="dica-${field} erro-${field}" aria-invalid="true"`), field)
      assert.ok(res.body.includes(`<p class="erro" id="erro-${field}">${message}</p>`), `${field}: message beside the field`)
      assert.ok(res.body.includes(`<a href="#campo-${field}">`), `${field}: in the summary`)
    }
    assert.match(res.body, /id="campo-nome"[^>]*autofocus/, 'the first invalid field takes the focus')
    assert.equal((res.body.match(/autofocus/g) ?? []).length, 1)
    assert.doesNotMatch(res.body, /id="campo-empresa"[^>]*aria-invalid/)
    // What was typed comes back, escaped.
    assert.match(res.body, /id="campo-empresa"[^>]*value="Acme &lt;b&gt;&amp;"/)
    assert.match(res.body, /<option value="suporte" selected>/)
    assert.match(res.body, /<textarea id="campo-mensagem"[^>]*>curta<\/textarea>/)
  })

  it('422 in Markdown lists each field with its error', async () => {
    const res = await post(form({ nome: '', email: 'x', mensagem: '' }), { accept: 'text/markdown' })
    assert.equal(res.statusCode, 422)
    assert.match(res.body, /- Nome \(`nome`\): Preencha este campo\./)
    assert.match(res.body, /- E-mail \(`email`\): Informe um e-mail válido/)
    assert.match(res.body, /- Mensagem \(`mensagem`\): Preencha este campo\./)
  })

  it('a blank required field is missing, a blank optional one takes its default', async () => {
    const res = await post(form(valid({ empresa: '   ', telefone: '', site: '' })))
    assert.equal(res.statusCode, 202)
    const protocolo = /id="protocolo">([^<]+)</.exec(res.body)![1]!
    const [row] = await tdb.db.orm.select().from(contato).where(eq(contato.protocolo, protocolo))
    assert.deepEqual([row!.empresa, row!.telefone, row!.site], ['', '', ''])
  })

  it('line breaks from a textarea (CRLF) are stored as \\n', async () => {
    const res = await post(form(valid({ mensagem: `Linha um\r\nLinha dois ${process.pid}` })))
    const protocolo = /id="protocolo">([^<]+)</.exec(res.body)![1]!
    const [row] = await tdb.db.orm.select().from(contato).where(eq(contato.protocolo, protocolo))
    assert.equal(row!.mensagem, `Linha um\nLinha dois ${process.pid}`)
  })

  it('another kind of body is 415, a form posted by another site is 403, an unacceptable Accept is 406: nothing stored', async () => {
    const count = async () => (await tdb.db.orm.select({ n: sql<number>`count(*)::int` }).from(contato))[0]!.n
    const before = await count()
    const multipart = await ctx.app.inject({
      method: 'POST', url: '/contato', payload: '--x\r\n\r\n--x--', headers: { 'content-type': 'multipart/form-data; boundary=x' },
    })
    assert.equal(multipart.statusCode, 415)
    assertSiteHeaders(multipart.headers, '415')
    const foreign = await post(form(valid()), { origin: 'https://outro-site.example' })
    assert.equal(foreign.statusCode, 403)
    const same = await post(form(valid()), { origin: 'http://localhost', host: 'localhost:80' })
    assert.equal(same.statusCode, 202, 'same origin is fine')
    const json = await post(form(valid()), { accept: 'application/json' })
    assert.equal(json.statusCode, 406)
    assert.equal(await count(), before + 1)
  })

  it('a body over the size limit answers a 413 page', async () => {
    const res = await post(form(valid({ mensagem: 'x'.repeat(70_000) })))
    assert.equal(res.statusCode, 413)
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8')
    assertSiteHeaders(res.headers, '413')
  })
})

describe('POST /contato: rate limit (contato budget)', () => {
  const ctx = useTestApp(() => ({ db: tdb.db, contactBudget: 2, env: NO_MIN_FILL }))

  it('past the budget answers 429 with Retry-After and the form again, with what was typed', async () => {
    const ip = '198.51.100.77'
    for (let i = 0; i < 2; i++) {
      const ok = await ctx.app.inject({ method: 'POST', url: '/contato', payload: form(valid()), headers: FORM, remoteAddress: ip })
      assert.equal(ok.statusCode, 202)
    }
    const res = await ctx.app.inject({ method: 'POST', url: '/contato', payload: form(valid({ nome: 'Joana Limite' })), headers: FORM, remoteAddress: ip })
    assert.equal(res.statusCode, 429)
    assert.match(String(res.headers['retry-after']), /^\d+$/)
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8')
    assertSiteHeaders(res.headers, '429')
    assert.match(res.body, /<div id="aviso-envio" class="aviso aviso-erro" role="alert"><p>Muitas mensagens enviadas em pouco tempo\. Tente de novo em 10 minutos/)
    assert.match(res.body, /value="Joana Limite"/)
    // Another client still gets through; the API keeps its own budget.
    const other = await ctx.app.inject({ method: 'POST', url: '/contato', payload: form(valid()), headers: FORM, remoteAddress: '198.51.100.78' })
    assert.equal(other.statusCode, 202)
    const api = await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: valid(), remoteAddress: ip })
    assert.equal(api.statusCode, 202)
  })
})

describe('POST /contato when the database is down', () => {
  const ctx = useTestApp()
  before(() => ctx.db.close())

  it('answers a 503 page with Retry-After, the form and its values, never a receipt', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/contato', payload: form(valid({ nome: 'Joana Sem Banco' })), headers: FORM })
    assert.equal(res.statusCode, 503)
    assert.match(String(res.headers['retry-after']), /^\d+$/)
    assertSiteHeaders(res.headers, '503')
    assert.match(res.body, /role="alert"><p>Não foi possível registrar sua mensagem agora e nada foi enviado/)
    assert.match(res.body, /value="Joana Sem Banco"/)
    assert.doesNotMatch(res.body, /id="protocolo"/)
  })
})

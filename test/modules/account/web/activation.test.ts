// /conta/ativar, from the invitation e-mail's link: the secret traded at once for a short-lived cookie and a clean
// URL, the form, the password policy's refusals in words, the invitation used once, the person logged in; links
// that no longer work get a page saying why, never a 500.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { suspendCustomer } from '../../../../src/modules/credentials/customers/store.ts'
import { withTenant } from '../../../../src/platform/tenancy/tenancy.ts'
import { newToken, tokenHash } from '../../../../src/modules/credentials/token-format.ts'
import { CONTENT_SECURITY_POLICY } from '../../../../src/platform/http/security-headers.ts'
import { auditRows, operatorNow } from '../../../helpers/credentials.ts'
import { invitedPerson, openInvitation, postForm, sessionCookie, SITE_ORIGIN } from '../../../helpers/account-web.ts'
import { testApp, useTestApp } from '../../../helpers/fixture.ts'

const GOOD = { senha: 'jabuticaba azul no telhado', senha_confirmacao: 'jabuticaba azul no telhado' }

describe('/conta/ativar', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' } })
  const pathOf = (link: string) => { const u = new URL(link); return u.pathname + u.search }

  it('the e-mail\'s link trades its secret for a cookie (HttpOnly, SameSite=Strict, /conta/ativar only, 30 min) and a clean URL', async () => {
    const p = await invitedPerson(ctx.db)
    const { res, cookie } = await openInvitation(ctx.app, p.link)
    assert.equal(res.statusCode, 303)
    assert.equal(res.headers.location, '/conta/ativar', 'the secret is not in the URL the browser goes on to')
    assert.equal(res.headers['cache-control'], 'no-store')
    assert.equal(res.headers['referrer-policy'], 'same-origin')
    assert.equal(res.headers['set-cookie'], `convite=${p.token}; Path=/conta/ativar; HttpOnly; SameSite=Strict; Max-Age=1800`)
    assert.equal(cookie, `convite=${p.token}`)
  })

  it('the clean URL with the cookie opens the form: who is invited, for which customer; private, uncached, under the site\'s CSP', async () => {
    const p = await invitedPerson(ctx.db)
    const { cookie } = await openInvitation(ctx.app, p.link)
    const res = await ctx.app.inject({ url: '/conta/ativar', headers: { accept: 'text/html', cookie: cookie! } })
    assert.equal(res.statusCode, 200)
    assert.match(res.body, /<h1>Ativar o acesso<\/h1>/)
    assert.ok(res.body.includes(p.email) && res.body.includes('Ana Souza'))
    assert.ok(!res.body.includes(p.token), 'the secret is not in the page either')
    assert.match(res.body, /autocomplete="new-password"/)
    assert.match(res.body, /<meta name="robots" content="noindex, nofollow">/)
    assert.equal(res.headers['cache-control'], 'no-store')
    assert.equal(res.headers['x-robots-tag'], 'noindex, nofollow')
    assert.equal(res.headers['referrer-policy'], 'same-origin', 'no Referer to another site')
    assert.equal(res.headers['content-security-policy'], CONTENT_SECURITY_POLICY)
    assert.equal(res.headers['set-cookie'], undefined, 'opening the link logs nobody in')
  })

  it('without the cookie: arriving from another site\'s link, a page that reloads itself; otherwise the link is unknown (404)', async () => {
    const crossSite = await ctx.app.inject({ url: '/conta/ativar', headers: { accept: 'text/html', 'sec-fetch-site': 'cross-site' } })
    assert.equal(crossSite.statusCode, 200)
    assert.equal(crossSite.headers.refresh, '0; url=/conta/ativar')
    assert.match(crossSite.body, /href="\/conta\/ativar"/)
    for (const site of ['same-origin', 'none', undefined]) {
      const res = await ctx.app.inject({ url: '/conta/ativar', headers: { accept: 'text/html', ...(site ? { 'sec-fetch-site': site } : {}) } })
      assert.equal(res.statusCode, 404, String(site))
      assert.match(res.body, /Link de convite inválido/)
    }
    const p = await invitedPerson(ctx.db)
    const old = await postForm(ctx.app, '/conta/ativar', { convite: p.token, ...GOOD })
    assert.equal(old.statusCode, 404, 'the secret in a form field is not taken: only the cookie')
  })

  it('each password rule refused in words (422), nothing used; then a good one: invitation used, user active, session and cookie, /conta', async () => {
    const p = await invitedPerson(ctx.db)
    const invitation = (await openInvitation(ctx.app, p.link)).cookie!
    const cases: [string, string, RegExp][] = [
      ['curta', 'curta', /pelo menos 12 caracteres/],
      ['Password123!', 'Password123!', /entre as mais usadas/],
      [p.email, p.email, /não pode ser o seu e-mail nem o seu nome/],
      ['uma frase longa o bastante', 'outra frase longa o bastante', /não são iguais/],
    ]
    for (const [senha, senha_confirmacao, message] of cases) {
      const res = await postForm(ctx.app, '/conta/ativar', { senha, senha_confirmacao }, { cookie: invitation })
      assert.equal(res.statusCode, 422, senha)
      assert.match(res.body, message)
      assert.match(res.body, /aria-invalid="true"/)
      if (senha !== p.email) assert.ok(!res.body.includes(senha), 'the password is not echoed')
    }
    const ok = await postForm(ctx.app, '/conta/ativar', GOOD, { cookie: invitation })
    assert.equal(ok.statusCode, 303)
    assert.equal(ok.headers.location, '/conta')
    assert.ok([ok.headers['set-cookie']].flat().includes('convite=; Path=/conta/ativar; HttpOnly; SameSite=Strict; Max-Age=0'), 'the secret dropped')
    const cookie = sessionCookie(ok)!
    assert.match(cookie, /^sessao=fct_ses_/)
    const [user] = await ctx.db.ownerTransaction((tx) =>
      tx.query<{ estado: string, senha_hash: string }>('SELECT estado, senha_hash FROM usuarios WHERE id = $1', [p.usuarioId]))
    assert.equal(user!.estado, 'ativo')
    assert.match(user!.senha_hash, /^\$argon2id\$/)
    const sessions = await ctx.db.ownerTransaction((tx) => tx.query<{ hash: string }>('SELECT hash FROM sessoes WHERE usuario_id = $1', [p.usuarioId]))
    assert.deepEqual(sessions.map((s) => s.hash), [tokenHash(cookie.split('=')[1]!)], 'one session, stored as the digest of the cookie')
    const actions = (await auditRows(ctx.db, p.clienteId)).map((r) => r.acao)
    assert.deepEqual(actions.slice(-2), ['convite.aceito', 'sessao.criada'])
    const page = await ctx.app.inject({ url: '/conta/pessoas', headers: { cookie } })
    assert.equal(page.statusCode, 200)
    assert.ok(page.body.includes(p.email))

    // The link again: used.
    const again = await ctx.app.inject({ url: pathOf(p.link) })
    assert.equal(again.statusCode, 410)
    assert.match(again.body, /Convite já usado/)
    const other = 'outra senha muito boa'
    const post = await postForm(ctx.app, '/conta/ativar', { senha: other, senha_confirmacao: other }, { cookie: invitation })
    assert.equal(post.statusCode, 410)
  })

  it('unknown, mistyped, expired, or for a suspended customer: a page that says which, never a 500', async () => {
    const unknown = await ctx.app.inject({ url: `/conta/ativar?convite=${newToken('convite')}` })
    assert.equal(unknown.statusCode, 404)
    assert.match(unknown.body, /Link de convite inválido/)
    const malformed = ['', '?convite=', '?convite=fct_inv_x', `?convite=${'a'.repeat(5000)}`, '?convite=1&convite=2'].map((q) => `/conta/ativar${q}`)
    for (const url of malformed) {
      const res = await ctx.app.inject({ url })
      assert.equal(res.statusCode, 404, url)
    }

    const expired = await invitedPerson(ctx.db)
    await ctx.db.ownerTransaction((tx) => tx.query(
      'UPDATE convites SET criado_em = now() - interval \'73 hours\', expira_em = now() - interval \'1 hour\' WHERE usuario_id = $1', [expired.usuarioId]))
    const e = await ctx.app.inject({ url: `/conta/ativar?convite=${expired.token}` })
    assert.equal(e.statusCode, 410)
    assert.match(e.body, /Convite expirado/)

    const suspended = await invitedPerson(ctx.db)
    await withTenant(ctx.db, suspended.clienteId, (tx) => suspendCustomer(tx, suspended.clienteId, operatorNow()))
    const s = await ctx.app.inject({ url: `/conta/ativar?convite=${suspended.token}` })
    assert.equal(s.statusCode, 403)
    assert.match(s.body, /Assinatura inativa/)
    assert.equal(s.headers['set-cookie'], undefined, 'a link that cannot be used sets no cookie')
    const sp = await postForm(ctx.app, '/conta/ativar', GOOD, { cookie: `convite=${suspended.token}` })
    assert.equal(sp.statusCode, 403)
    assert.equal(sp.headers['set-cookie'], undefined)
  })

  it('a post from another site, or without Origin and Referer, is refused and uses nothing', async () => {
    const p = await invitedPerson(ctx.db)
    const cookie = (await openInvitation(ctx.app, p.link)).cookie!
    const fields = GOOD
    const refused: Record<string, string>[] = [{ origin: 'https://atacante.example' }, { origin: 'null' }, { origin: '' }, { origin: '', referer: 'https://atacante.example/x' }]
    for (const headers of refused) {
      const res = await postForm(ctx.app, '/conta/ativar', fields, { cookie, headers })
      assert.equal(res.statusCode, 403, JSON.stringify(headers))
      assert.match(res.body, /Envio recusado/)
    }
    const referer = `${SITE_ORIGIN}${new URL(p.link).pathname}`
    const viaReferer = await postForm(ctx.app, '/conta/ativar', fields, { cookie, headers: { origin: '', referer } })
    assert.equal(viaReferer.statusCode, 303, 'a Referer of this site stands in for a removed Origin')
  })
})

describe('/conta/ativar\'s cookie where the session cookie is Secure', () => {
  it('is __Secure-convite, Secure, and the form works from it', async (t) => {
    const origin = 'https://www.fomento.example'
    const app = await testApp(t, { env: { AMBIENTE: 'producao', MAIL_SANDBOX: 'on', PUBLIC_URL: origin, MAIL_WORKER: 'off' } })
    const p = await invitedPerson(app.deps.db, origin)
    const { res, cookie } = await openInvitation(app, p.link)
    assert.equal(res.statusCode, 303)
    assert.equal(res.headers['set-cookie'], `__Secure-convite=${p.token}; Path=/conta/ativar; HttpOnly; SameSite=Strict; Secure; Max-Age=1800`)
    const ok = await postForm(app, '/conta/ativar', GOOD, { cookie: cookie!, headers: { origin } })
    assert.equal(ok.statusCode, 303)
    assert.match(String(sessionCookie(ok)), /^__Host-sessao=fct_ses_/)
  })
})

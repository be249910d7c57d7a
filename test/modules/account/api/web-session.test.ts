// The web app and the API share the session: a person who logs in at /conta/entrar calls /api/conta from the
// site with that cookie, and the account page's CSRF token is the one the API asks for in X-CSRF-Token.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { issueToken } from '../../../helpers/api-credentials.ts'
import { accountPage, csrfOf, login, personWithPassword, SITE_ORIGIN } from '../../../helpers/account-web.ts'
import { useTestApp } from '../../../helpers/fixture.ts'

describe('the web app\'s login as an /api credential', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off', PUBLIC_URL: SITE_ORIGIN } })

  it('the cookie of a login reads /api/conta from the site, and revokes a token with the page\'s CSRF token', async () => {
    const person = await personWithPassword(ctx.db)
    const cookie = await login(ctx.app, person.email)
    const me = await ctx.app.inject({ url: '/api/conta', headers: { cookie, 'sec-fetch-site': 'same-origin' } })
    assert.equal(me.statusCode, 200, me.body)
    assert.deepEqual([me.json().credencial.tipo, me.json().credencial.nome, me.json().cliente.id], ['sessao', person.nome, person.clienteId])

    const victim = await issueToken(ctx.db, person.clienteId)
    const csrf = csrfOf((await accountPage(ctx.app, cookie)).body)
    const url = `/api/conta/tokens/${victim.id}`
    const refused = await ctx.app.inject({ method: 'DELETE', url, headers: { cookie, origin: SITE_ORIGIN } })
    assert.equal(refused.statusCode, 403)
    assert.deepEqual(refused.json(), { detail: 'csrf_invalido' })
    const revoked = await ctx.app.inject({ method: 'DELETE', url, headers: { cookie, origin: SITE_ORIGIN, 'x-csrf-token': csrf } })
    assert.equal(revoked.statusCode, 204, revoked.body)
  })
})

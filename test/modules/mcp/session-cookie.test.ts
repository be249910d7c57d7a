// /api/mcp takes a personal access token only: the site's session cookie, which works on the rest of /api from
// the site's own pages, is not looked at there (the guard's `apenasToken`), so a page a person visits cannot
// drive an agent's tools with their login.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { accountPage, csrfOf, login, personWithPassword, SITE_ORIGIN } from '../../helpers/account-web.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { toolCall } from './helpers.ts'

describe('the session cookie on /api/mcp', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off', PUBLIC_URL: SITE_ORIGIN } })

  it('the cookie that reads /api/conta from the site gets 401 on /api/mcp, with the resource metadata named', async () => {
    const person = await personWithPassword(ctx.db)
    const cookie = await login(ctx.app, person.email)
    const same = { cookie, 'sec-fetch-site': 'same-origin', origin: SITE_ORIGIN }
    const me = await ctx.app.inject({ url: '/api/conta', headers: same })
    assert.equal(me.statusCode, 200, me.body)

    const csrf = csrfOf((await accountPage(ctx.app, cookie)).body)
    const res = await ctx.app.inject({
      method: 'POST', url: '/api/mcp', payload: toolCall(1, 'minha_conta'),
      headers: { ...same, 'x-csrf-token': csrf, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    })
    assert.equal(res.statusCode, 401, res.body)
    assert.deepEqual(res.json(), { detail: 'nao_autenticado' })
    assert.ok(String(res.headers['www-authenticate']).includes(`resource_metadata="${SITE_ORIGIN}/.well-known/oauth-protected-resource/api/mcp"`))
  })
})

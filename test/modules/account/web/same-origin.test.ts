// The forms' Origin check: with PUBLIC_URL set, a post counts only from PUBLIC_URL, whatever Host the request
// names (a Host an attacker chose, through a proxy that passes it, is no proof of this site); without PUBLIC_URL (a
// development server), from the origin the request was addressed to.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { PASSWORD, personWithPassword, postForm, sessionCookie, SITE_ORIGIN } from '../../../helpers/account-web.ts'
import { testApp } from '../../../helpers/fixture.ts'

const PUBLIC_URL = 'https://app.example'

describe('the forms\' Origin check and PUBLIC_URL', () => {
  it('with PUBLIC_URL set, a login posted with Host and Origin of another site is refused; from PUBLIC_URL it logs in', async (t) => {
    const app = await testApp(t, { env: { PUBLIC_URL, MAIL_WORKER: 'off' } })
    const p = await personWithPassword(app.deps.db)
    const fields = { email: p.email, senha: PASSWORD }
    for (const host of ['evil.example', 'app.example.evil.example']) {
      const forged = await postForm(app, '/conta/entrar', fields, { headers: { host, origin: `https://${host}`, 'x-forwarded-proto': 'https' } })
      assert.equal(forged.statusCode, 403, host)
      assert.equal(sessionCookie(forged), undefined, `${host}: no session`)
      const plain = await postForm(app, '/conta/entrar', fields, { headers: { host, origin: `http://${host}` } })
      assert.equal(plain.statusCode, 403, `${host} over http`)
    }
    const viaReferer = await postForm(app, '/conta/entrar', fields, { headers: { host: 'evil.example', origin: '', referer: 'http://evil.example/conta/entrar' } })
    assert.equal(viaReferer.statusCode, 403, 'a Referer of the request\'s own Host neither')
    const good = await postForm(app, '/conta/entrar', fields, { headers: { host: 'evil.example', origin: PUBLIC_URL } })
    assert.equal(good.statusCode, 303)
    const cookie = sessionCookie(good)!
    assert.ok(cookie)

    // The API takes the session cookie from PUBLIC_URL's pages alone too.
    const api = (host: string, origin: string) => app.inject({ url: '/api/conta', headers: { cookie, host, origin } })
    assert.equal((await api('evil.example', 'https://evil.example')).statusCode, 401)
    assert.equal((await api('evil.example', PUBLIC_URL)).statusCode, 200)
  })

  it('without PUBLIC_URL, the origin the request was addressed to is this site', async (t) => {
    const app = await testApp(t, { env: { MAIL_WORKER: 'off' } })
    const p = await personWithPassword(app.deps.db)
    const res = await postForm(app, '/conta/entrar', { email: p.email, senha: PASSWORD }, { headers: { origin: SITE_ORIGIN } })
    assert.equal(res.statusCode, 303)
    const other = await postForm(app, '/conta/entrar', { email: p.email, senha: PASSWORD }, { headers: { origin: 'https://atacante.example' } })
    assert.equal(other.statusCode, 403)
  })
})

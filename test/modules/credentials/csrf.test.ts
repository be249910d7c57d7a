import { strict as assert } from 'node:assert'
import { describe, it } from 'node:test'
import { makeCsrfTokens } from '../../../src/modules/credentials/sessions/csrf.ts'
import { cookieValue, sessionCookieAttributes, sessionCookieName } from '../../../src/modules/credentials/sessions/cookie.ts'

describe('the session cookie and its CSRF token', () => {
  const csrf = makeCsrfTokens('segredo-da-instalacao')
  const a = '0b7f3c1e-8a52-4f6e-9d0a-1c2b3d4e5f60'
  const b = '9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f'

  it('a session\'s token verifies for that session only', () => {
    const token = csrf.issue(a)
    assert.equal(csrf.verify(a, token), true)
    assert.equal(csrf.verify(b, token), false)
    assert.equal(csrf.issue(a), token)
  })

  it('another installation\'s token, an altered one, or one of another shape is refused', () => {
    const token = csrf.issue(a)
    assert.equal(makeCsrfTokens('outro-segredo').verify(a, token), false)
    const altered = (token[0] === 'A' ? 'B' : 'A') + token.slice(1)
    assert.equal(csrf.verify(a, altered), false)
    for (const bad of [undefined, null, '', 42, [token], token + '=', token + 'A', token.slice(1), 'x'.repeat(1000)]) {
      assert.equal(csrf.verify(a, bad), false, String(bad))
    }
  })

  it('the cookie is __Host- and Secure over HTTPS, plain over http (browsers refuse an insecure __Host- cookie)', () => {
    assert.equal(sessionCookieName(true), '__Host-sessao')
    assert.deepEqual(sessionCookieAttributes(true), { httpOnly: true, sameSite: 'lax', path: '/', secure: true })
    assert.equal(sessionCookieName(false), 'sessao')
    assert.equal(sessionCookieAttributes(false).secure, false)
  })

  it('the cookie is read once by name; a repeat with another value (planted beside ours) counts as none', () => {
    assert.equal(cookieValue('a=1; __Host-sessao=fct_x; b=2', '__Host-sessao'), 'fct_x')
    assert.equal(cookieValue('sessao=v; sessao=v', 'sessao'), 'v')
    assert.equal(cookieValue('sessao=v; sessao=w', 'sessao'), undefined)
    assert.equal(cookieValue('xsessao=v; sessao', 'sessao'), undefined)
    assert.equal(cookieValue(undefined, 'sessao'), undefined)
    assert.equal(cookieValue(['sessao=v'], 'sessao'), undefined)
  })
})

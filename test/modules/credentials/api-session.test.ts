// The web app's session cookie as an /api credential: from the site's own origin only, and with the session's
// X-CSRF-Token on a request that changes data; an ended session is no credential.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { OPERATOR } from '../../../src/platform/tenancy/audit/store.ts'
import { sessionCookieName } from '../../../src/modules/credentials/sessions/cookie.ts'
import { makeCsrfTokens } from '../../../src/modules/credentials/sessions/csrf.ts'
import { createSession, endSession } from '../../../src/modules/credentials/sessions/store.ts'
import { reactivateCustomer, suspendCustomer } from '../../../src/modules/credentials/customers/store.ts'
import { readInstallationSecret } from '../../../src/modules/credentials/installation-secret.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { API_ENV, issueToken, PUBLIC_URL } from '../../helpers/api-credentials.ts'
import { activeUser, auditRows, customer } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'

const COOKIE = sessionCookieName(true)

describe('/api with the web app\'s session cookie', () => {
  const ctx = useTestApp({ env: API_ENV })

  async function session() {
    const c = await customer(ctx.db, 'Cliente da Sessão')
    const user = await activeUser(ctx.db, c.id)
    const { token, session: s } = await withTenant(ctx.db, c.id, (tx) =>
      createSession(tx, { clienteId: c.id, usuarioId: user.id }, { actor: { tipo: 'usuario', id: user.id }, now: new Date() }))
    const csrf = makeCsrfTokens(await readInstallationSecret(ctx.db.orm)).issue(s.id)
    return { c, user, id: s.id, cookie: `outro=1; ${COOKIE}=${token}`, csrf }
  }

  it('a same-origin read: 200 with the customer, the person\'s name, kind `sessao`', async () => {
    const s = await session()
    for (const headers of [{ 'sec-fetch-site': 'same-origin' }, { origin: PUBLIC_URL }, {}]) {
      const res = await ctx.app.inject({ url: '/api/conta', headers: { cookie: s.cookie, ...headers } })
      assert.equal(res.statusCode, 200, res.body)
      const body = res.json()
      assert.deepEqual(body.cliente, { id: s.c.id, nome: 'Cliente da Sessão' })
      assert.deepEqual([body.credencial.tipo, body.credencial.id, body.credencial.nome], ['sessao', s.id, 'Pessoa de Teste'])
    }
  })

  it('a session of a suspended customer: 403 assinatura_inativa, and 200 again once reactivated', async () => {
    const s = await session()
    const read = () => ctx.app.inject({ url: '/api/conta', headers: { cookie: s.cookie, 'sec-fetch-site': 'same-origin' } })
    await withTenant(ctx.db, s.c.id, (tx) => suspendCustomer(tx, s.c.id, { actor: OPERATOR, now: new Date() }))
    const refused = await read()
    assert.equal(refused.statusCode, 403)
    assert.deepEqual(refused.json(), { detail: 'assinatura_inativa' })
    await withTenant(ctx.db, s.c.id, (tx) => reactivateCustomer(tx, s.c.id, { actor: OPERATOR, now: new Date() }))
    assert.equal((await read()).statusCode, 200)
  })

  it('from another site (Origin or Sec-Fetch-Site say so) the cookie is no credential: 401 nao_autenticado', async () => {
    const s = await session()
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }]) {
      const res = await ctx.app.inject({ url: '/api/conta', headers: { cookie: s.cookie, ...headers } })
      assert.equal(res.statusCode, 401, JSON.stringify(headers))
      assert.deepEqual(res.json(), { detail: 'nao_autenticado' })
    }
  })

  it('a request that changes data needs the session\'s X-CSRF-Token: 403 csrf_invalido without it or with another session\'s', async () => {
    const s = await session()
    const other = await session()
    const victim = await issueToken(ctx.db, s.c.id)
    const url = `/api/conta/tokens/${victim.id}`
    const base = { cookie: s.cookie, origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin' }
    for (const csrf of [undefined, other.csrf, 'x']) {
      const res = await ctx.app.inject({ method: 'DELETE', url, headers: { ...base, ...(csrf ? { 'x-csrf-token': csrf } : {}) } })
      assert.equal(res.statusCode, 403, String(csrf))
      assert.deepEqual(res.json(), { detail: 'csrf_invalido' })
    }
    const noOrigin = await ctx.app.inject({ method: 'DELETE', url, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf } })
    assert.equal(noOrigin.statusCode, 401, 'a change with neither Origin nor Sec-Fetch-Site is not taken from a cookie')
    const res = await ctx.app.inject({ method: 'DELETE', url, headers: { ...base, 'x-csrf-token': s.csrf } })
    assert.equal(res.statusCode, 204, res.body)
    const revoked = (await auditRows(ctx.db, s.c.id)).filter((r) => r.acao === 'token.revogado')
    assert.deepEqual(revoked.map((r) => [r.ator_tipo, r.ator_id]), [['usuario', s.user.id]])
  })

  it('an ended session is no credential', async () => {
    const s = await session()
    await withTenant(ctx.db, s.c.id, (tx) => endSession(tx, { clienteId: s.c.id, sessaoId: s.id }, { actor: OPERATOR, now: new Date() }))
    const res = await ctx.app.inject({ url: '/api/conta', headers: { cookie: s.cookie } })
    assert.equal(res.statusCode, 401)
    assert.deepEqual(res.json(), { detail: 'nao_autenticado' })
  })
})

// The credential gate with personal access tokens as Bearer: each refusal alone, with its code and challenge;
// with a valid token, the withheld paths answer 404; a token's use is recorded and its first use audited.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { revokeToken } from '../../../src/modules/credentials/tokens/store.ts'
import { suspendCustomer, reactivateCustomer } from '../../../src/modules/credentials/customers/store.ts'
import { newToken } from '../../../src/modules/credentials/token-format.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import { API_ENV, bearer, issueToken } from '../../helpers/api-credentials.ts'
import { auditRows, customer, operatorNow } from '../../helpers/credentials.ts'
import { until } from '../../helpers/wait.ts'
import { useTestApp } from '../../helpers/fixture.ts'

const CHALLENGES = /^Bearer realm="api"(, error="[a-z_]+"[^,]*)?.*, DPoP realm="api".*algs="ES256 [^"]+"$/

describe('/api with a personal access token as Bearer', () => {
  const ctx = useTestApp({ env: API_ENV })

  it('without a credential: 401 nao_autenticado, offering Bearer and DPoP with algs, no error code', async () => {
    const res = await ctx.app.inject({ url: '/api/conta' })
    assert.equal(res.statusCode, 401)
    assert.deepEqual(res.json(), { detail: 'nao_autenticado' })
    assert.equal(res.headers['www-authenticate'], 'Bearer realm="api", DPoP realm="api", algs="ES256 ES384 EdDSA Ed25519 PS256 RS256"')
  })

  it('a valid token reads GET /api/conta; its customer, its id, scopes, expiry, not DPoP-bound', async () => {
    const c = await customer(ctx.db, 'Fomento Alfa')
    const t = await issueToken(ctx.db, c.id, { nome: 'ERP', escopos: ['conta'] })
    const res = await bearer(ctx.app, t.token, 'GET', '/api/conta')
    assert.equal(res.statusCode, 200, res.body)
    const body = res.json()
    assert.deepEqual(body.cliente, { id: c.id, nome: 'Fomento Alfa' })
    assert.equal(body.credencial.tipo, 'pat')
    assert.equal(body.credencial.id, t.id)
    assert.equal(body.credencial.nome, 'ERP')
    assert.deepEqual(body.credencial.escopos, ['conta'])
    assert.equal(body.credencial.dpop, false)
    assert.ok(Date.parse(body.credencial.expira_em) > Date.now())
    assert.ok(!res.body.includes(t.token), 'the secret is never echoed')
  })

  const invalid = async (authorization: string) => {
    const res = await ctx.app.inject({ url: '/api/conta', headers: { authorization } })
    assert.equal(res.statusCode, 401, authorization)
    assert.deepEqual(res.json(), { detail: 'token_invalido' })
    assert.match(String(res.headers['www-authenticate']), /^Bearer realm="api", error="invalid_token"/)
    assert.match(String(res.headers['www-authenticate']), CHALLENGES)
  }

  it('401 token_invalido (invalid_token): malformed, mistyped checksum, unknown', async () => {
    const good = newToken('pat')
    await invalid('Bearer not-a-token')
    await invalid(`Bearer ${good.slice(0, -1)}${good.endsWith('A') ? 'B' : 'A'}`)
    await invalid(`Bearer ${good}`)
    await invalid(`Bearer ${newToken('sessao')}`)
    await invalid('Bearer ')
  })

  it('401 token_invalido: expired, revoked', async () => {
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id)
    assert.equal((await bearer(ctx.app, t.token, 'GET', '/api/conta')).statusCode, 200)
    // Revoked outside this instance's requests (as the CLI or another instance would): refused within a second
    // (the kept lookup, lookup-cache.ts), then with the answer of any revoked token.
    await withTenant(ctx.db, c.id, (tx) => revokeToken(tx, { clienteId: c.id, tokenId: t.id }, operatorNow()))
    await until('the revocation to take effect', async () => (await bearer(ctx.app, t.token, 'GET', '/api/conta')).statusCode === 401, 1000)
    await invalid(`Bearer ${t.token}`)
    const short = await issueToken(ctx.db, c.id, { expiraEm: new Date(Date.now() + 1500) })
    await new Promise((r) => setTimeout(r, 1600))
    await invalid(`Bearer ${short.token}`)
  })

  it('two Authorization headers are refused, whatever they hold', async () => {
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id)
    const res = await ctx.app.inject({ url: '/api/conta', headers: { authorization: [`Bearer ${t.token}`, `Bearer ${t.token}`] as unknown as string } })
    assert.equal(res.statusCode, 401)
    assert.deepEqual(res.json(), { detail: 'token_invalido' })
  })

  it('403 assinatura_inativa for a suspended customer\'s valid token, 200 again once reactivated', async () => {
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id)
    await withTenant(ctx.db, c.id, (tx) => suspendCustomer(tx, c.id, operatorNow()))
    const res = await bearer(ctx.app, t.token, 'GET', '/api/conta')
    assert.equal(res.statusCode, 403)
    assert.deepEqual(res.json(), { detail: 'assinatura_inativa' })
    await withTenant(ctx.db, c.id, (tx) => reactivateCustomer(tx, c.id, operatorNow()))
    await until('the reactivation to take effect', async () => (await bearer(ctx.app, t.token, 'GET', '/api/conta')).statusCode === 200, 1000)
  })

  it('403 escopo_insuficiente (insufficient_scope, naming the scope) for a token without the route\'s scope', async () => {
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id, { escopos: ['mcp'] })
    const res = await bearer(ctx.app, t.token, 'GET', '/api/conta/tokens')
    assert.equal(res.statusCode, 403)
    assert.deepEqual(res.json(), { detail: 'escopo_insuficiente' })
    assert.match(String(res.headers['www-authenticate']), /^Bearer realm="api", error="insufficient_scope", scope="tokens", DPoP realm="api", algs="/)
  })

  it('with a valid token, a path that does not exist answers 404; the withheld product paths too; without, 401', async () => {
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id, { escopos: ['mcp'] })
    const paths: [string, 'GET' | 'POST' | 'DELETE'][] = [
      ['/api/cobranca/boletos', 'GET'], ['/api/registro/123', 'DELETE'], ['/api/financeiro/pagamentos', 'POST'], ['/api', 'GET'], ['/api/conta/nada', 'GET'],
    ]
    for (const [url, method] of paths) {
      const withToken = await bearer(ctx.app, t.token, method, url)
      assert.equal(withToken.statusCode, 404, `${method} ${url}`)
      assert.deepEqual(withToken.json(), { detail: 'nao_encontrado' })
      const without = await ctx.app.inject({ method, url })
      assert.equal(without.statusCode, 401, `${method} ${url}`)
    }
  })

  it('records the last use (time and address) and audits the first use once, with the request id and an address hash', async () => {
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id)
    for (const id of ['req-primeiro-uso-1', 'req-primeiro-uso-2']) {
      const res = await bearer(ctx.app, t.token, 'GET', '/api/conta', { remoteAddress: '203.0.113.9', headers: { 'x-request-id': id } })
      assert.equal(res.statusCode, 200)
    }
    const [row] = await withTenant(ctx.db, c.id, (tx) => queryRows<{ ultimo_uso_em: unknown, ultimo_uso_ip: string, primeiro_uso_em: unknown }>(
      tx, sql`SELECT primeiro_uso_em, ultimo_uso_em, host(ultimo_uso_ip) AS ultimo_uso_ip FROM tokens WHERE id = ${t.id}`))
    assert.ok(row!.primeiro_uso_em && row!.ultimo_uso_em)
    assert.equal(row!.ultimo_uso_ip, '203.0.113.9')
    const firstUses = (await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'token.primeiro_uso')
    assert.equal(firstUses.length, 1)
    assert.equal(firstUses[0]!.request_id_cliente, 'req-primeiro-uso-1', 'the client\'s id, beside the service\'s own')
    assert.equal(firstUses[0]!.ator_tipo, 'token')
    assert.equal(firstUses[0]!.ator_id, t.id)
    assert.match(String(firstUses[0]!.ip_hash), /^[0-9a-f]{16,}$/)
    assert.ok(!JSON.stringify(firstUses).includes('203.0.113.9'))
  })
})

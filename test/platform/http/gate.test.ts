import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'

describe('401 gate, 405 and 404', () => {
  const ctx = useTestApp()

  const gated: [string, string][] = [
    ['GET', '/api'], ['GET', '/api/'], ['GET', '/api/operacoes'], ['POST', '/api/financeiro/pagamentos'],
    ['DELETE', '/api/registro/123'], ['PUT', '/api/health/ready/x'], ['GET', '/api/mcp'], ['PATCH', '/api/site'],
    ['GET', '/api/site/contato/x'], ['OPTIONS', '/api/operacoes'], ['GET', '/api/healthz'], ['GET', '/api//operacoes'],
  ]
  for (const [method, url] of gated) {
    it(`${method} ${url} answers 401 nao_autenticado with WWW-Authenticate`, async () => {
      const res = await ctx.app.inject({ method: method as 'GET', url })
      assert.equal(res.statusCode, 401)
      assert.deepEqual(res.json(), { detail: 'nao_autenticado' })
      assert.match(String(res.headers['www-authenticate']), /^Bearer /)
    })
  }

  it('answers 401 to a credential that is none of ours (nao_autenticado) or not a valid token (token_invalido)', async () => {
    const cases: [string, string][] = [
      ['Bearer abc', 'token_invalido'], ['DPoP xyz', 'token_invalido'], ['Basic dXNlcjpwYXNz', 'nao_autenticado'], ['garbage', 'nao_autenticado'],
    ]
    for (const [authorization, detail] of cases) {
      const res = await ctx.app.inject({ url: '/api/operacoes', headers: { authorization } })
      assert.equal(res.statusCode, 401, authorization)
      assert.deepEqual(res.json(), { detail }, authorization)
    }
  })

  it('answers 401 before reading the body: large, odd or malformed bodies change nothing', async () => {
    const big = await ctx.app.inject({ method: 'POST', url: '/api/x', payload: 'x'.repeat(200_000), headers: { 'content-type': 'application/json' } })
    assert.equal(big.statusCode, 401)
    const odd = await ctx.app.inject({ method: 'PUT', url: '/api/x', payload: '<a/>', headers: { 'content-type': 'application/xml' } })
    assert.equal(odd.statusCode, 401)
  })

  it('answers 401 for methods the router does not know', async () => {
    for (const method of ['PROPFIND', 'SEARCH', 'LOCK']) {
      const res = await ctx.app.inject({ method: method as 'GET', url: '/api/operacoes' })
      assert.equal(res.statusCode, 401, method)
      assert.deepEqual(res.json(), { detail: 'nao_autenticado' })
    }
  })

  it('answers 405 metodo_nao_permitido with Allow on a public path with the wrong method', async () => {
    const cases: [string, string, string][] = [
      ['POST', '/api/health', 'GET, HEAD'], ['DELETE', '/api/status', 'GET, HEAD'], ['PUT', '/api/version/', 'GET, HEAD'],
      ['GET', '/api/site/contato', 'POST'], ['DELETE', '/api/site/contato/assuntos', 'GET, HEAD'],
    ]
    for (const [method, url, allow] of cases) {
      const res = await ctx.app.inject({ method: method as 'GET', url })
      assert.equal(res.statusCode, 405, `${method} ${url}`)
      assert.deepEqual(res.json(), { detail: 'metodo_nao_permitido' })
      assert.equal(res.headers.allow, allow)
    }
  })

  it('treats a trailing slash as the same public path', async () => {
    for (const url of ['/api/health/', '/api/health/ready/', '/api/version/', '/api/status/']) {
      assert.equal((await ctx.app.inject({ url })).statusCode, 200, url)
    }
  })

  it('answers 404 outside /api (the website\'s 404 page; its content is tested with the site)', async () => {
    for (const url of ['/nada', '/API/health', '/apix']) {
      const res = await ctx.app.inject({ url })
      assert.equal(res.statusCode, 404, url)
      assert.equal(res.headers['www-authenticate'], undefined)
    }
  })

  it('answers a path that cannot be decoded like any other: 401 under /api, 400 elsewhere, with a request id', async () => {
    for (const url of ['/api/%zz', '/api/site/contato/%E0%A4%A']) {
      const res = await ctx.app.inject({ url })
      assert.equal(res.statusCode, 401, url)
      assert.deepEqual(res.json(), { detail: 'nao_autenticado' })
      assert.ok(res.headers['x-request-id'])
    }
    const outside = await ctx.app.inject({ url: '/x/%zz' })
    assert.equal(outside.statusCode, 400)
    assert.deepEqual(outside.json(), { detail: 'requisicao_invalida' })
  })
})

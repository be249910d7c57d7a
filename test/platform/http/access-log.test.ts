// One access-log line per request, with the fields an operator needs and never the query string.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'

type Line = Record<string, unknown>

describe('access log', () => {
  const logs: Line[] = []
  const ctx = useTestApp({ logs, env: { TRUST_PROXY: '127.0.0.1' } })
  const linesOf = (reqId: string) => logs.filter((l) => l.reqId === reqId)

  it('writes exactly one line per request, with method, route, path, status, duration, request id and client IP', async () => {
    const res = await ctx.app.inject({ url: '/api/status', headers: { 'x-request-id': 'acesso-1', 'x-forwarded-for': '203.0.113.9' } })
    assert.equal(res.statusCode, 200)
    const lines = linesOf('acesso-1')
    assert.equal(lines.length, 1, JSON.stringify(lines))
    const line = lines[0]!
    assert.equal(line.msg, 'request')
    assert.equal(line.level, 30)
    assert.equal(line.method, 'GET')
    assert.equal(line.route, '/api/status')
    assert.equal(line.path, '/api/status')
    assert.equal(line.status, 200)
    assert.equal(typeof line.ms, 'number')
    assert.ok((line.ms as number) >= 0)
    assert.equal(line.ip, '203.0.113.9', 'the client behind the trusted proxy, not the proxy')
  })

  it('logs a path without the secret it carries (a confirmation link\'s token), however it is dressed, and cut after', async () => {
    const token = 'q7Zr2mWk9XbC4dLp0sTvY1eHnJ6uFgA8iKoRxN3wE5c'
    const encoded = [...token].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('')
    const paths = [`/confirmacao/${token}`, `/confirmacao/${token}.`, `/confirmacao/${token}%20x`, `/confirmacao/${encoded}`,
      `/${'a/'.repeat(120)}confirmacao/${token}`, '/confirmacao/%0d%0aX-Falso:%201']
    for (const [i, url] of paths.entries()) await ctx.app.inject({ url, headers: { 'x-request-id': `segredo-${i}` } })
    const logged = paths.map((_, i) => linesOf(`segredo-${i}`)[0]!.path as string)
    assert.deepEqual(logged.slice(0, 4), Array(4).fill('/confirmacao/:segredo'))
    assert.ok(logged[4]!.length <= 256 && !logged[4]!.includes(token.slice(0, 10)), 'cut after, not before, the secret goes')
    assert.equal(logged[5], '/confirmacao/X-Falso: 1', 'a line break decoded is dropped')
    assert.doesNotMatch(JSON.stringify(logs), new RegExp(token.slice(0, 20)))
    assert.equal((await ctx.app.inject({ url: '/api/titulos/0b9e1a2c-3d4e-4f50-8a6b-7c8d9e0f1a2b', headers: { 'x-request-id': 'uuid' } })).statusCode, 401)
    assert.equal(linesOf('uuid')[0]!.path, '/api/titulos/0b9e1a2c-3d4e-4f50-8a6b-7c8d9e0f1a2b', 'an id is kept')
  })

  it('logs the path without the query string, which may carry personal data or a token', async () => {
    const res = await ctx.app.inject({ url: '/pagina-inexistente?email=maria%40empresa.com.br&token=s3cr3t-t0ken', headers: { 'x-request-id': 'acesso-2' } })
    assert.equal(res.statusCode, 404)
    const lines = linesOf('acesso-2')
    assert.equal(lines.length, 1)
    assert.equal(lines[0]!.path, '/pagina-inexistente')
    assert.equal(lines[0]!.route, '(nao_encontrada)')
    assert.equal(lines[0]!.status, 404)
    const all = JSON.stringify(logs)
    assert.doesNotMatch(all, /s3cr3t-t0ken/)
    assert.doesNotMatch(all, /maria/)
  })

  it('does not log the authorization header, and keeps one line for a refused /api request', async () => {
    const res = await ctx.app.inject({ url: '/api/privado', headers: { 'x-request-id': 'acesso-3', authorization: 'Bearer tok-XYZ-secret' } })
    assert.equal(res.statusCode, 401)
    assert.equal(linesOf('acesso-3').length, 1)
    assert.equal(linesOf('acesso-3')[0]!.status, 401)
    assert.doesNotMatch(JSON.stringify(logs), /tok-XYZ-secret/)
  })

  it('keeps successful liveness and readiness probes out of the info log, but not a failing one', async () => {
    assert.equal((await ctx.app.inject({ url: '/api/health', headers: { 'x-request-id': 'sonda-1' } })).statusCode, 200)
    assert.equal((await ctx.app.inject({ url: '/api/health/ready', headers: { 'x-request-id': 'sonda-2' } })).statusCode, 200)
    assert.equal(linesOf('sonda-1').length, 0)
    assert.equal(linesOf('sonda-2').length, 0)
    ctx.app.deps.lifecycle.draining = true
    try {
      assert.equal((await ctx.app.inject({ url: '/api/health/ready', headers: { 'x-request-id': 'sonda-3' } })).statusCode, 503)
    } finally {
      ctx.app.deps.lifecycle.draining = false
    }
    assert.equal(linesOf('sonda-3').length, 1)
    assert.equal(linesOf('sonda-3')[0]!.status, 503)
  })
})

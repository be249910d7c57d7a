// CORS as a browser sees it: the public reads from any origin, the contact form only from SITE_ORIGINS,
// the rest of /api from any origin with a token but never with cookies (`*`), its challenges and nonce exposed.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { contactBody, PATIENT, PUBLIC_READS } from '../../helpers/app.ts'
import { useTestApp } from '../../helpers/fixture.ts'

const SITE = 'https://www.fatorial.com.br'
const SITE2 = 'https://fatorial.com.br'
const OTHER = 'https://status-widget.example.org'
const EVIL = 'https://evil.example'

const preflight = (origin: string, method: string, headers: Record<string, string> = {}) =>
  ({ origin, 'access-control-request-method': method, ...headers })

function methodsOf(header: unknown): string[] {
  return String(header ?? '').split(',').map((m) => m.trim().toUpperCase()).filter(Boolean)
}

describe('CORS', () => {
  const ctx = useTestApp({ env: { ...PATIENT, SITE_ORIGINS: `${SITE},${SITE2}` } })
  const noOrigins = useTestApp(() => ({ db: ctx.db, env: PATIENT }))

  describe('public reads', () => {
    it('GET from any origin is readable (Access-Control-Allow-Origin: *), X-Request-ID exposed', async () => {
      for (const url of PUBLIC_READS) {
        for (const origin of [OTHER, EVIL, SITE, 'null']) {
          const res = await ctx.app.inject({ url, headers: { origin } })
          assert.equal(res.statusCode, 200, `${url} from ${origin}`)
          assert.equal(res.headers['access-control-allow-origin'], '*', `${url} from ${origin}`)
          assert.equal(res.headers['access-control-allow-credentials'], undefined)
          assert.match(String(res.headers['access-control-expose-headers']), /x-request-id/i)
        }
      }
    })

    it('a GET without Origin carries the same headers (a shared cache may serve it to another origin later)', async () => {
      for (const url of PUBLIC_READS) {
        const res = await ctx.app.inject({ url })
        assert.equal(res.headers['access-control-allow-origin'], '*', url)
        assert.equal(res.headers.vary, undefined, `${url}: one answer for every origin, nothing to vary on`)
      }
    })

    it('the preflight answers 204 allowing GET, from any origin', async () => {
      for (const url of [...PUBLIC_READS, '/api/status/']) {
        const res = await ctx.app.inject({ method: 'OPTIONS', url, headers: preflight(OTHER, 'GET') })
        assert.equal(res.statusCode, 204, url)
        assert.equal(res.headers['access-control-allow-origin'], '*', url)
        assert.ok(methodsOf(res.headers['access-control-allow-methods']).includes('GET'), url)
        assert.ok(!methodsOf(res.headers['access-control-allow-methods']).includes('POST'), url)
        assert.equal(res.body, '')
      }
    })

    it('is the same when SITE_ORIGINS is unset', async () => {
      const res = await noOrigins.app.inject({ url: '/api/status', headers: { origin: OTHER } })
      assert.equal(res.headers['access-control-allow-origin'], '*')
      const pre = await noOrigins.app.inject({ method: 'OPTIONS', url: '/api/version', headers: preflight(OTHER, 'GET') })
      assert.equal(pre.statusCode, 204)
      assert.equal(pre.headers['access-control-allow-origin'], '*')
    })

    it('the OpenAPI document is readable from any origin', async () => {
      const res = await ctx.app.inject({ url: '/openapi.json', headers: { origin: EVIL } })
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['access-control-allow-origin'], '*')
    })

    it('a bare OPTIONS (not a preflight) answers JSON like any other wrong method', async () => {
      for (const headers of [{}, { origin: OTHER }]) {
        const res = await ctx.app.inject({ method: 'OPTIONS', url: '/api/health', headers })
        assert.equal(res.statusCode, 405)
        assert.deepEqual(res.json(), { detail: 'metodo_nao_permitido' })
        assert.equal(res.headers.allow, 'GET, HEAD')
      }
    })
  })

  describe('contact form', () => {
    for (const origin of [SITE, SITE2]) {
      it(`the preflight from ${origin} (in SITE_ORIGINS) allows POST with Content-Type`, async () => {
        const res = await ctx.app.inject({
          method: 'OPTIONS', url: '/api/site/contato', headers: preflight(origin, 'POST', { 'access-control-request-headers': 'content-type' }),
        })
        assert.equal(res.statusCode, 204)
        assert.equal(res.headers['access-control-allow-origin'], origin)
        assert.ok(methodsOf(res.headers['access-control-allow-methods']).includes('POST'))
        assert.ok(String(res.headers['access-control-allow-headers']).toLowerCase().split(/\s*,\s*/).includes('content-type'))
        assert.match(String(res.headers.vary), /origin/i)
      })

      it(`the POST from ${origin} is readable by that origin`, async () => {
        const res = await ctx.app.inject({
          method: 'POST', url: '/api/site/contato', headers: { origin }, payload: contactBody(), remoteAddress: '198.51.100.10',
        })
        assert.equal(res.statusCode, 202)
        assert.equal(res.headers['access-control-allow-origin'], origin)
        assert.match(String(res.headers.vary), /origin/i)
      })
    }

    it('another origin gets no Access-Control-Allow-Origin, on the preflight or the POST', async () => {
      const others = [OTHER, EVIL, 'null', `${SITE}.evil.example`, SITE.replace('https:', 'http:'), `${SITE}:8443`]
      for (const [i, origin] of others.entries()) {
        const pre = await ctx.app.inject({
          method: 'OPTIONS', url: '/api/site/contato', headers: preflight(origin, 'POST', { 'access-control-request-headers': 'content-type' }),
        })
        assert.equal(pre.headers['access-control-allow-origin'], undefined, `preflight from ${origin}`)
        assert.notEqual(pre.headers['access-control-allow-origin'], '*')
        const post = await ctx.app.inject({
          method: 'POST', url: '/api/site/contato', headers: { origin }, payload: { nome: 'x' }, remoteAddress: `198.51.100.${20 + i}`,
        })
        assert.equal(post.statusCode, 422)
        assert.equal(post.headers['access-control-allow-origin'], undefined, `POST from ${origin}`)
      }
    })

    it('with SITE_ORIGINS unset, no origin may post cross-origin', async () => {
      const pre = await noOrigins.app.inject({ method: 'OPTIONS', url: '/api/site/contato', headers: preflight(SITE, 'POST') })
      assert.equal(pre.headers['access-control-allow-origin'], undefined)
      assert.notEqual(pre.statusCode, 204)
      const post = await noOrigins.app.inject({
        method: 'POST', url: '/api/site/contato', headers: { origin: SITE }, payload: { nome: 'x' }, remoteAddress: '198.51.100.12',
      })
      assert.equal(post.headers['access-control-allow-origin'], undefined)
    })
  })

  describe('the rest of /api', () => {
    const gated = ['/api/operacoes', '/api/financeiro/pagamentos', '/api/mcp', '/api', '/api/site/contato/x']

    it('answers readable from any origin without cookies (`*`), exposing the challenges and the DPoP nonce', async () => {
      for (const url of gated) {
        for (const origin of [SITE, OTHER]) {
          for (const method of ['GET', 'POST', 'DELETE'] as const) {
            const res = await ctx.app.inject({ method, url, headers: { origin } })
            assert.equal(res.statusCode, 401, `${method} ${url}`)
            assert.equal(res.headers['access-control-allow-origin'], '*', `${method} ${url} from ${origin}`)
            assert.equal(res.headers['access-control-allow-credentials'], undefined)
            const exposed = String(res.headers['access-control-expose-headers']).split(',').map((h) => h.trim())
            for (const h of ['www-authenticate', 'dpop-nonce', 'x-request-id']) assert.ok(exposed.includes(h), `${h} exposed`)
          }
        }
      }
    })

    it('the preflight allows Authorization and DPoP from any origin, and no credentials', async () => {
      for (const url of gated) {
        for (const origin of [SITE, OTHER]) {
          const headers = preflight(origin, 'DELETE', { 'access-control-request-headers': 'authorization, dpop' })
          const res = await ctx.app.inject({ method: 'OPTIONS', url, headers })
          assert.equal(res.statusCode, 204, url)
          assert.equal(res.headers['access-control-allow-origin'], '*')
          assert.equal(res.headers['access-control-allow-credentials'], undefined)
          assert.ok(methodsOf(res.headers['access-control-allow-methods']).includes('DELETE'))
          assert.match(String(res.headers['access-control-allow-headers']), /authorization/)
          assert.match(String(res.headers['access-control-allow-headers']), /\bdpop\b/)
        }
      }
    })
  })
})

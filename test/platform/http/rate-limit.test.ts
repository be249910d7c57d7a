// Per-IP rate limits as a client sees them: 429 {"detail":"limite_de_requisicoes"} with Retry-After in
// whole seconds and the RateLimit-* headers. Runs against the memory store, or Redis when REDIS_URL is set.
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import type { LightMyRequestResponse as Response } from 'fastify'
import { queryRows } from '../../../src/platform/db/database.ts'
import { contactBody, PATIENT, PUBLIC_READS, serviceConfigFile } from '../../helpers/app.ts'
import { useTestApp, useTestDatabase } from '../../helpers/fixture.ts'

/** Small budgets, so exhausting them is cheap. */
const SMALL = { leitura: { max: 3, windowSeconds: 60 }, contato: { max: 2, windowSeconds: 120 }, restrito: { max: 2, windowSeconds: 30 } }

function assertLimited(res: Response, limit: number, windowSeconds: number, what: string) {
  assert.equal(res.statusCode, 429, what)
  assert.deepEqual(res.json(), { detail: 'limite_de_requisicoes' }, what)
  const retryAfter = String(res.headers['retry-after'])
  assert.match(retryAfter, /^\d+$/, `${what}: Retry-After is whole seconds`)
  assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= windowSeconds, `${what}: Retry-After ${retryAfter} within the window`)
  assert.equal(res.headers['ratelimit-limit'], String(limit), what)
  assert.equal(res.headers['ratelimit-remaining'], '0', what)
  const reset = String(res.headers['ratelimit-reset'])
  assert.match(reset, /^\d+$/, what)
  assert.ok(Number(reset) <= windowSeconds, what)
}

describe('rate limits', () => {
  const tdb = useTestDatabase()
  let configFile: string
  before(() => { configFile = serviceConfigFile({ rateLimits: SMALL }) })

  describe('default budgets', () => {
    const ctx = useTestApp(() => ({ db: tdb.db, env: PATIENT }))

    const contacts = async () => (await queryRows<{ n: number }>(ctx.app.deps.db.orm, sql`SELECT count(*)::int AS n FROM contato`))[0]!.n

    it('the contact form takes 5 per IP per 10 minutes; the 6th is 429 with Retry-After and RateLimit-*', async () => {
      const ip = '203.0.113.1'
      for (let i = 1; i <= 5; i++) {
        const res = await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody(), remoteAddress: ip })
        assert.equal(res.statusCode, 202, `post ${i}`)
        assert.equal(res.headers['ratelimit-limit'], '5')
        assert.equal(res.headers['ratelimit-remaining'], String(5 - i))
        assert.match(String(res.headers['ratelimit-reset']), /^\d+$/)
      }
      const stored = await contacts()
      const sixth = await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody(), remoteAddress: ip })
      assertLimited(sixth, 5, 600, '6th post')
      assert.ok(Number(sixth.headers['retry-after']) > 60, 'the window is minutes long, not seconds')
      const seventh = await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody(), remoteAddress: ip })
      assertLimited(seventh, 5, 600, '7th post')
      assert.equal(await contacts(), stored, 'a refused post stores nothing')
    })

    it('another IP still has its own budget', async () => {
      for (const ip of ['203.0.113.2', '2001:db8:1::2']) {
        const res = await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody(), remoteAddress: ip })
        assert.equal(res.statusCode, 202, ip)
        assert.equal(res.headers['ratelimit-remaining'], '4', ip)
      }
    })

    it('reads are generous: 100 GETs of /api/health from one IP all answer 200', async () => {
      const ip = '203.0.113.3'
      let last: Response | undefined
      for (let i = 0; i < 100; i++) {
        last = await ctx.app.inject({ url: '/api/health', remoteAddress: ip })
        assert.equal(last.statusCode, 200, `GET ${i + 1}`)
      }
      assert.ok(Number(last!.headers['ratelimit-limit']) >= 100)
      assert.equal(Number(last!.headers['ratelimit-remaining']), Number(last!.headers['ratelimit-limit']) - 100)
    })

    it('reading does not spend the contact budget', async () => {
      const ip = '203.0.113.4'
      for (const url of PUBLIC_READS) assert.equal((await ctx.app.inject({ url, remoteAddress: ip })).statusCode, 200, url)
      const res = await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody(), remoteAddress: ip })
      assert.equal(res.statusCode, 202)
      assert.equal(res.headers['ratelimit-remaining'], '4')
    })
  })

  describe('small budgets (SERVICE_CONFIG_FILE)', () => {
    const ctx = useTestApp(() => ({ db: tdb.db, env: { ...PATIENT, SERVICE_CONFIG_FILE: configFile, RATE_LIMIT_ALLOWLIST: '10.0.0.0/8, 2001:db8:aaaa::/48' } }))

    it('every public read ends in 429 once its budget is spent', async () => {
      for (const [i, url] of PUBLIC_READS.entries()) {
        const ip = `198.51.100.${i + 1}`
        for (let n = 1; n <= 3; n++) assert.equal((await ctx.app.inject({ url, remoteAddress: ip })).statusCode, 200, `${url} #${n}`)
        assertLimited(await ctx.app.inject({ url, remoteAddress: ip }), 3, 60, url)
        // The budget is per IP: a neighbour is not affected.
        assert.equal((await ctx.app.inject({ url, remoteAddress: `198.51.101.${i + 1}` })).statusCode, 200, `${url} other IP`)
      }
    })

    it('the contact form ends in 429 once its budget is spent; invalid posts count too', async () => {
      const ip = '198.51.100.50'
      assert.equal((await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody(), remoteAddress: ip })).statusCode, 202)
      assert.equal((await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: { nome: 'x' }, remoteAddress: ip })).statusCode, 422)
      assertLimited(await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody(), remoteAddress: ip }), 2, 120, 'contact')
    })

    it('the 401 answers are rate limited too, whatever path is guessed', async () => {
      const ip = '198.51.100.60'
      for (const url of ['/api/cobranca/boletos', '/api/financeiro/pagamentos']) {
        const res = await ctx.app.inject({ url, remoteAddress: ip })
        assert.equal(res.statusCode, 401, url)
      }
      assertLimited(await ctx.app.inject({ url: '/api/registro/1', remoteAddress: ip }), 2, 30, 'third guessed path')
      // Another IP is still told 401.
      assert.equal((await ctx.app.inject({ url: '/api/operacoes', remoteAddress: '198.51.100.61' })).statusCode, 401)
    })

    it('a product route\'s 401 answers spend the same 401 budget, across routes, not the route\'s budget for reads (issue 31 item 14)', async () => {
      const ip = '198.51.100.64'
      for (const url of ['/api/cedentes', '/api/operacoes']) assert.equal((await ctx.app.inject({ url, remoteAddress: ip })).statusCode, 401, url)
      assertLimited(await ctx.app.inject({ url: '/api/sacados', remoteAddress: ip }), 2, 30, 'third 401 on product routes')
      assertLimited(await ctx.app.inject({ url: '/api/cobranca/boletos', remoteAddress: ip }), 2, 30, 'and on a guessed path')
      assert.equal((await ctx.app.inject({ url: '/api/sacados', remoteAddress: '198.51.100.65' })).statusCode, 401, 'another address')
    })

    it('methods the router does not know are rate limited too', async () => {
      const ip = '198.51.100.62'
      for (let n = 0; n < 2; n++) {
        assert.equal((await ctx.app.inject({ method: 'PROPFIND' as 'GET', url: '/api/operacoes', remoteAddress: ip })).statusCode, 401)
      }
      assertLimited(await ctx.app.inject({ method: 'PROPFIND' as 'GET', url: '/api/operacoes', remoteAddress: ip }), 2, 30, 'PROPFIND')
    })

    it('the 405 answers on public paths are rate limited too', async () => {
      const ip = '198.51.100.63'
      for (let n = 0; n < 2; n++) assert.equal((await ctx.app.inject({ method: 'DELETE', url: '/api/status', remoteAddress: ip })).statusCode, 405)
      assertLimited(await ctx.app.inject({ method: 'DELETE', url: '/api/status', remoteAddress: ip }), 2, 30, 'DELETE /api/status')
    })

    it('RATE_LIMIT_ALLOWLIST addresses are exempt', async () => {
      for (const ip of ['10.1.2.3', '10.255.0.1', '::ffff:10.9.8.7', '2001:db8:aaaa::5']) {
        for (let n = 0; n < 8; n++) {
          const res = await ctx.app.inject({ url: '/api/health', remoteAddress: ip })
          assert.equal(res.statusCode, 200, `${ip} GET ${n + 1}`)
        }
        for (let n = 0; n < 4; n++) {
          assert.equal(
            (await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody(), remoteAddress: ip })).statusCode,
            202,
            `${ip} POST ${n + 1}`,
          )
          assert.equal((await ctx.app.inject({ url: '/api/operacoes', remoteAddress: ip })).statusCode, 401, `${ip} gated ${n + 1}`)
        }
      }
    })

    it('addresses just outside the allowlist are limited', async () => {
      for (const ip of ['11.0.0.1', '9.255.255.255', '2001:db8:aaab::5']) {
        for (let n = 0; n < 3; n++) assert.equal((await ctx.app.inject({ url: '/api/version', remoteAddress: ip })).statusCode, 200, ip)
        assertLimited(await ctx.app.inject({ url: '/api/version', remoteAddress: ip }), 3, 60, ip)
      }
    })

    it('X-Forwarded-For is ignored when TRUST_PROXY is unset: the socket address is the client', async () => {
      const ip = '198.51.100.70'
      for (let n = 0; n < 3; n++) {
        assert.equal((await ctx.app.inject({ url: '/api/status', remoteAddress: ip, headers: { 'x-forwarded-for': `203.0.113.${100 + n}` } })).statusCode, 200)
      }
      assertLimited(
        await ctx.app.inject({ url: '/api/status', remoteAddress: ip, headers: { 'x-forwarded-for': '203.0.113.200' } }), 3, 60, 'forged X-Forwarded-For',
      )
      // Nor can a forged header claim an allowlisted address.
      assertLimited(
        await ctx.app.inject({ url: '/api/status', remoteAddress: ip, headers: { 'x-forwarded-for': '10.0.0.1' } }), 3, 60, 'forged allowlisted address',
      )
    })
  })

  describe('behind a trusted proxy (TRUST_PROXY)', () => {
    const PROXY = '192.0.2.10'
    const ctx = useTestApp(() => ({ db: tdb.db, env: { ...PATIENT, SERVICE_CONFIG_FILE: configFile, TRUST_PROXY: `${PROXY},192.0.2.64/26` } }))

    const viaProxy = (xff: string, proxy = PROXY) => ctx.app.inject({ url: '/api/health', remoteAddress: proxy, headers: { 'x-forwarded-for': xff } })

    it('each forwarded client gets its own budget', async () => {
      for (let n = 0; n < 3; n++) assert.equal((await viaProxy('203.0.113.10')).statusCode, 200)
      assertLimited(await viaProxy('203.0.113.10'), 3, 60, 'forwarded client')
      // Another client through the same proxy, and through another trusted proxy, still has its budget.
      assert.equal((await viaProxy('203.0.113.11')).statusCode, 200)
      assert.equal((await viaProxy('203.0.113.12', '192.0.2.70')).statusCode, 200)
      // The proxy itself is not the one limited.
      assert.equal((await ctx.app.inject({ url: '/api/health', remoteAddress: PROXY })).statusCode, 200)
    })

    it('an address the client prepends to X-Forwarded-For is not believed', async () => {
      for (let n = 0; n < 3; n++) assert.equal((await viaProxy(`198.18.0.${n}, 203.0.113.20`)).statusCode, 200)
      assertLimited(await viaProxy('198.18.0.99, 203.0.113.20'), 3, 60, 'prepended address')
    })

    it('X-Forwarded-For from a socket that is not a trusted proxy is ignored', async () => {
      const ip = '192.0.2.11'
      for (let n = 0; n < 3; n++) assert.equal((await viaProxy(`203.0.113.${30 + n}`, ip)).statusCode, 200)
      assertLimited(await viaProxy('203.0.113.40', ip), 3, 60, 'untrusted socket')
    })

    it('the forwarded client, not the proxy, is limited on the contact form', async () => {
      const post = (client: string) => ctx.app.inject({
        method: 'POST', url: '/api/site/contato', payload: contactBody(), remoteAddress: PROXY, headers: { 'x-forwarded-for': client },
      })
      for (let n = 0; n < 2; n++) assert.equal((await post('203.0.113.50')).statusCode, 202)
      assertLimited(await post('203.0.113.50'), 2, 120, 'forwarded contact')
      assert.equal((await post('203.0.113.51')).statusCode, 202)
    })
  })
})

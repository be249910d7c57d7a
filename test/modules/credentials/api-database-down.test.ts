// The credential lookup when the database does not answer: 503 banco_indisponivel with Retry-After (the client
// may retry), never a 500, and the log line names the failure's code, never the token it was looking up.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import Fastify from 'fastify'
import { makeCredentialGuard } from '../../../src/modules/credentials/http/guard.ts'
import { makeRefusals } from '../../../src/modules/credentials/http/refusals.ts'
import { DEFAULT_DPOP_ALGORITHMS } from '../../../src/modules/credentials/dpop/algorithms.ts'
import { makeDpopNonces } from '../../../src/modules/credentials/dpop/nonces.ts'
import { makeCsrfTokens } from '../../../src/modules/credentials/sessions/csrf.ts'
import { newToken } from '../../../src/modules/credentials/token-format.ts'
import { systemClock } from '../../../src/platform/lib/clock.ts'
import type { Orm } from '../../../src/platform/db/database.ts'

describe('the credential guard with the database down', () => {
  it('answers 503 banco_indisponivel with Retry-After, and logs no token', async (t) => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
    const orm = { execute: async () => { throw refused } } as unknown as Orm
    const lines: string[] = []
    const app = Fastify({ logger: { level: 'info', stream: { write: (l: string) => { lines.push(l) } } } })
    t.after(() => app.close())
    const guard = makeCredentialGuard({
      db: { orm }, clock: systemClock, publicUrl: 'https://api.fatorial.example', refusals: makeRefusals(DEFAULT_DPOP_ALGORITHMS),
      dpop: { clock: systemClock, nonces: makeDpopNonces({ key: Buffer.alloc(32, 1), clock: systemClock }), jtis: { remember: async () => true } as never },
      onStoreError: () => {}, cookieName: 'sessao', csrf: makeCsrfTokens('segredo'),
    })
    app.decorateRequest('credential', null)
    app.get('/api/conta', async (req, reply) => (await guard(req, reply)) ? { ok: true } : reply)
    const token = newToken('pat')
    for (const headers of [{ authorization: `Bearer ${token}` }, { cookie: `sessao=${newToken('sessao')}` }]) {
      const res = await app.inject({ url: '/api/conta', headers })
      assert.equal(res.statusCode, 503, JSON.stringify(headers))
      assert.deepEqual(res.json(), { detail: 'banco_indisponivel' })
      assert.equal(res.headers['retry-after'], '5')
    }
    assert.ok(lines.some((l) => l.includes('ECONNREFUSED')), 'the failure is logged')
    assert.ok(!lines.join('').includes(token), 'the token is never logged')
  })
})

// Fuzzing the credential gate (part of `npm run test:fuzz`): random Authorization, DPoP and Cookie headers, from
// noise to well-formed tokens (unknown, revoked, bound to a key) with proofs signed by the right key over random
// claims, at gated paths. Never a 5xx, never a success: every answer is a 401 refusal with its challenge.
// The seed is printed; FUZZ_SEED=<seed> replays a failure.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { withTenant } from '../../src/platform/tenancy/tenancy.ts'
import { newToken } from '../../src/modules/credentials/token-format.ts'
import { revokeToken } from '../../src/modules/credentials/tokens/store.ts'
import { API_ENV, issueToken, PUBLIC_URL } from '../helpers/api-credentials.ts'
import { customer, operatorNow } from '../helpers/credentials.ts'
import { useTestApp } from '../helpers/fixture.ts'
import { athOf, makeKey, makeProof, type TestKey } from '../modules/credentials/dpop-keys.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 9_2026)
const RUNS = Number(process.env.FUZZ_CREDENTIAL_RUNS ?? 1500)
console.log(`fuzz (credentials): seed ${SEED}, ${RUNS} requests (replay with FUZZ_SEED=${SEED})`)

const REFUSED = new Set(['nao_autenticado', 'token_invalido', 'dpop_obrigatorio', 'dpop_invalido', 'dpop_nonce_obrigatorio'])
const PATHS = ['/api/conta', '/api/conta/tokens', '/api/conta/auditoria', '/api/operacoes', '/api/conta/openapi.json', '/api']

describe('fuzz: random credentials at the gate', () => {
  const ctx = useTestApp({ env: { ...API_ENV, RATE_LIMIT_ALLOWLIST: '127.0.0.1', MAIL_WORKER: 'off' } })

  it(`${RUNS} requests: no 5xx, no success, every answer a 401 refusal with WWW-Authenticate`, async () => {
    const key = await makeKey('ES256')
    const c = await customer(ctx.db)
    const bound = await issueToken(ctx.db, c.id, { dpopJkt: key.jkt })
    const revoked = await issueToken(ctx.db, c.id)
    await withTenant(ctx.db, c.id, (tx) => revokeToken(tx, { clienteId: c.id, tokenId: revoked.id }, operatorNow()))
    const seen = new Map<string, number>()

    await fc.assert(fc.asyncProperty(request([bound.token, revoked.token]), async (r) => {
      const headers = await headersOf(r, key, bound.token)
      const res = await ctx.app.inject({ method: r.method, url: r.url, headers })
      const detail = res.statusCode < 500 ? (res.json() as { detail?: string }).detail : undefined
      seen.set(`${res.statusCode} ${detail}`, (seen.get(`${res.statusCode} ${detail}`) ?? 0) + 1)
      assert.ok(res.statusCode < 500, `${res.statusCode} ${res.body}`)
      assert.equal(res.statusCode, 401, `${res.statusCode} ${res.body} for ${JSON.stringify(headers)}`)
      assert.ok(REFUSED.has(String(detail)), res.body)
      assert.ok(res.headers['www-authenticate'])
    }), { seed: SEED, numRuns: RUNS })
    console.log(`fuzz (credentials): ${JSON.stringify(Object.fromEntries(seen))}`)
    for (const code of ['nao_autenticado', 'token_invalido', 'dpop_obrigatorio', 'dpop_invalido', 'dpop_nonce_obrigatorio']) {
      assert.ok([...seen.keys()].some((k) => k === `401 ${code}`), `the run reached ${code}`)
    }
  })
})

type Method = 'GET' | 'POST' | 'DELETE'
/** A proof: raw text, or claims the bound token's own key signs (so only the claims can be wrong). */
type ProofSpec = string | { claims: Record<string, unknown> }
/** `targeted`: the bound token under DPoP, its proofs good but for one of the generated claims (and the nonce). */
type FuzzRequest = {
  method: Method, url: string, targeted: boolean, authorization?: string | string[], dpop?: ProofSpec | ProofSpec[], cookie?: string
}

function request(tokens: string[]): fc.Arbitrary<FuzzRequest> {
  const token = fc.oneof(
    fc.constantFrom(...tokens),
    fc.constant(null).map(() => newToken('pat')),
    fc.constant(null).map(() => newToken('sessao')),
    fc.string({ maxLength: 60 }),
    fc.stringMatching(/^fct_pat_[0-9A-Za-z]{30,40}$/),
  )
  const scheme = fc.constantFrom('Bearer', 'DPoP', 'bearer', 'dpop', 'Basic', '', 'Bearer ', 'DPoP\t')
  const authorization = fc.oneof(fc.tuple(scheme, token).map(([s, t]) => `${s} ${t}`), fc.string({ maxLength: 80 }))
  const claims = fc.record({
    htm: fc.oneof(fc.constantFrom('GET', 'POST', 'DELETE'), fc.string({ maxLength: 8 })),
    htu: fc.oneof(fc.constantFrom(`${PUBLIC_URL}/api/conta`, `${PUBLIC_URL}/api/operacoes`, 'http://127.0.0.1/api/conta'), fc.webUrl()),
    iat: fc.oneof(fc.integer({ min: 0, max: 2 ** 32 }), fc.constant(Math.floor(Date.now() / 1000))),
    jti: fc.oneof(fc.uuid(), fc.string({ maxLength: 300 })),
    ath: fc.oneof(fc.string({ maxLength: 50 }), fc.base64String({ maxLength: 44 })),
    nonce: fc.string({ maxLength: 50 }),
  }, { requiredKeys: [] })
  const proof: fc.Arbitrary<ProofSpec> = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.tuple(fc.base64String({ maxLength: 60 }), fc.base64String({ maxLength: 60 }), fc.base64String({ maxLength: 60 })).map((p) => p.join('.')),
    claims.map((c) => ({ claims: c })),
  )
  return fc.record({
    method: fc.constantFrom<Method>('GET', 'POST', 'DELETE'),
    url: fc.constantFrom(...PATHS),
    targeted: fc.boolean(),
    authorization: fc.oneof(authorization, fc.array(authorization, { minLength: 2, maxLength: 3 })),
    dpop: fc.oneof(proof, fc.array(proof, { minLength: 2, maxLength: 2 })),
    cookie: fc.oneof(fc.string({ maxLength: 60 }), token.map((t) => `__Host-sessao=${t}`)),
  }, { requiredKeys: ['method', 'url', 'targeted'] })
}

async function headersOf(r: FuzzRequest, key: TestKey, bound: string): Promise<Record<string, string | string[]>> {
  const headers: Record<string, string | string[]> = {}
  if (r.targeted) headers.authorization = `DPoP ${bound}`
  else if (r.authorization !== undefined) headers.authorization = r.authorization
  if (r.cookie !== undefined) headers.cookie = r.cookie
  const claimsOf = (generated: Record<string, unknown>) => {
    if (!r.targeted) return generated
    const [one] = Object.entries(generated)
    const good = { htm: r.method, htu: PUBLIC_URL + r.url, iat: Math.floor(Date.now() / 1000), jti: randomUUID(), ath: athOf(bound) }
    return one ? { ...good, [one[0]]: one[1] } : good
  }
  if (r.dpop !== undefined) {
    const sign = (p: ProofSpec) => (typeof p === 'string' ? p : makeProof(key, claimsOf(p.claims)))
    headers.dpop = Array.isArray(r.dpop) ? await Promise.all(r.dpop.map(sign)) : await sign(r.dpop)
  }
  return headers
}

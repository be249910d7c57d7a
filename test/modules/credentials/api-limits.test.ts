// The credential's own rate budget, on top of the per-IP one; and a replay store that does not answer refuses
// DPoP proofs with 503 (fail closed) instead of accepting what it could not record.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { serviceConfigFile } from '../../helpers/app.ts'
import { API_ENV, bearer, currentNonce, issueToken, withProof } from '../../helpers/api-credentials.ts'
import { customer } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { createTestRedis, type TestRedis } from '../../helpers/redis.ts'
import { makeKey } from './dpop-keys.ts'

describe('per-credential rate limit', () => {
  const ctx = useTestApp(() => ({
    env: { ...API_ENV, SERVICE_CONFIG_FILE: serviceConfigFile({ rateLimits: { credencial: { max: 2, windowSeconds: 60 } } }) },
  }))

  it('a credential over its budget gets 429 limite_de_requisicoes with Retry-After; another credential from the same address does not', async () => {
    const c = await customer(ctx.db)
    const busy = await issueToken(ctx.db, c.id)
    const calm = await issueToken(ctx.db, c.id)
    for (let i = 0; i < 2; i++) assert.equal((await bearer(ctx.app, busy.token, 'GET', '/api/conta')).statusCode, 200)
    const over = await bearer(ctx.app, busy.token, 'GET', '/api/conta')
    assert.equal(over.statusCode, 429)
    assert.deepEqual(over.json(), { detail: 'limite_de_requisicoes' })
    assert.match(String(over.headers['retry-after']), /^\d+$/)
    assert.equal((await bearer(ctx.app, busy.token, 'GET', '/api/operacoes')).statusCode, 429, 'the budget covers every path')
    assert.equal((await bearer(ctx.app, calm.token, 'GET', '/api/conta')).statusCode, 200)
  })
})

describe('DPoP replay store unavailable', () => {
  let redis: TestRedis
  before(async () => {
    redis = await createTestRedis()
    await redis.start()
  })
  after(() => redis?.kill())
  const ctx = useTestApp(() => ({ env: { ...API_ENV, REDIS_URL: redis.url } }))

  it('a good proof is refused with 503 servico_indisponivel and Retry-After while Redis is down', async () => {
    const key = await makeKey('ES256')
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id, { dpopJkt: key.jkt })
    const nonce = await currentNonce(ctx.app, key, t.token)
    assert.equal((await withProof(ctx.app, key, t.token, 'GET', '/api/conta', { nonce })).statusCode, 200)
    await redis.kill()
    const res = await withProof(ctx.app, key, t.token, 'GET', '/api/conta', { nonce })
    assert.equal(res.statusCode, 503)
    assert.deepEqual(res.json(), { detail: 'servico_indisponivel' })
    assert.ok(res.headers['retry-after'])
  })
})

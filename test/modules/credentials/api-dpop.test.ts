// DPoP-bound tokens through the HTTP layer, with real keys (P-256 and Ed25519) and real proofs: the nonce round
// trip, no permissive fallback, each way a proof can be wrong refused alone (and audited for the token's
// customer), a replay refused on a second instance sharing the database.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { systemClock } from '../../../src/platform/lib/clock.ts'
import { API_ENV, bearer, currentNonce, dpopCall, issueToken, PUBLIC_URL, withProof } from '../../helpers/api-credentials.ts'
import { auditRows, customer } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { goodClaims, makeKey, makeProof } from './dpop-keys.ts'

describe('/api with a DPoP-bound personal access token', () => {
  const ctx = useTestApp({ env: API_ENV })
  const second = useTestApp(() => ({ db: ctx.db, env: API_ENV }))

  for (const alg of ['ES256', 'Ed25519']) {
    it(`${alg}: a first proof without a nonce gets 401 use_dpop_nonce and a DPoP-Nonce; with it, 200`, async () => {
      const key = await makeKey(alg)
      const c = await customer(ctx.db)
      const t = await issueToken(ctx.db, c.id, { dpopJkt: key.jkt })
      const first = await withProof(ctx.app, key, t.token, 'GET', '/api/conta')
      assert.equal(first.statusCode, 401)
      assert.deepEqual(first.json(), { detail: 'dpop_nonce_obrigatorio' })
      assert.match(String(first.headers['www-authenticate']), /DPoP realm="api", error="use_dpop_nonce"/)
      const nonce = String(first.headers['dpop-nonce'])
      assert.match(nonce, /^n[A-Za-z0-9_-]{43}$/)
      const res = await withProof(ctx.app, key, t.token, 'GET', '/api/conta', { nonce })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().credencial.dpop, true)
      assert.equal(res.json().credencial.id, t.id)
    })
  }

  it('reaches the product as any token does: a cedente registered with its key, read back, a simulation priced', async () => {
    const key = await makeKey('ES256')
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id, { dpopJkt: key.jkt, escopos: ['cadastro', 'operacoes'] })
    const made = await dpopCall(ctx.app, key, t.token, 'POST', '/api/cedentes', {
      payload: { documento: '11.222.333/0001-81', razao_social: 'Cedente Exemplo Ltda', perfil_iof: 'pj' },
      headers: { 'idempotency-key': 'dpop-cedente-1' },
    })
    assert.equal(made.statusCode, 201, made.body)
    const read = await dpopCall(ctx.app, key, t.token, 'GET', `/api/cedentes/${made.json().id}`)
    assert.equal(read.statusCode, 200, read.body)
    assert.equal(read.json().documento, '11222333000181')
    const sim = await dpopCall(ctx.app, key, t.token, 'POST', '/api/simulacoes', { payload: {
      data_operacao: '2026-10-05', perfil_iof: 'pj', base: 'simples_30', taxa_mensal: '0.035', taxa_ad_valorem: '0.003', tarifa_por_titulo_centavos: 800,
      tac_centavos: 15_000, dias_float: { cheque: 2 }, iof: 'calcular', titulos: [{ tipo: 'cheque', vencimento: '2026-12-04', valor_face_centavos: 1_500_000 }],
    } })
    assert.equal(sim.statusCode, 200, sim.body)
    assert.equal(sim.json().linhas[0].preco_compra_centavos, 1_374_066)
    // The same token as Bearer reaches none of it.
    assert.equal((await bearer(ctx.app, t.token, 'GET', `/api/cedentes/${made.json().id}`)).statusCode, 401)
  })

  it('no permissive fallback: the bound token as Bearer is 401 dpop_obrigatorio, and audited', async () => {
    const key = await makeKey('ES256')
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id, { dpopJkt: key.jkt })
    const res = await bearer(ctx.app, t.token, 'GET', '/api/conta', { headers: { 'x-request-id': 'req-bearer-vinculado' } })
    assert.equal(res.statusCode, 401)
    assert.deepEqual(res.json(), { detail: 'dpop_obrigatorio' })
    assert.match(String(res.headers['www-authenticate']), /^Bearer realm="api", error="invalid_token"/)
    const refused = (await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'token.recusado')
    assert.deepEqual(refused.map((r) => [r.motivo, r.request_id_cliente, r.alvo_id]), [['bearer_sem_dpop', 'req-bearer-vinculado', t.id]])
  })

  it('the DPoP scheme without a proof is 401 dpop_obrigatorio; an unbound token under DPoP is token_invalido', async () => {
    const key = await makeKey('ES256')
    const c = await customer(ctx.db)
    const bound = await issueToken(ctx.db, c.id, { dpopJkt: key.jkt })
    const noProof = await ctx.app.inject({ url: '/api/conta', headers: { authorization: `DPoP ${bound.token}` } })
    assert.equal(noProof.statusCode, 401)
    assert.deepEqual(noProof.json(), { detail: 'dpop_obrigatorio' })
    assert.match(String(noProof.headers['www-authenticate']), /DPoP realm="api", error="invalid_dpop_proof"/)
    assert.ok(noProof.headers['dpop-nonce'])
    const unbound = await issueToken(ctx.db, c.id)
    const res = await withProof(ctx.app, key, unbound.token, 'GET', '/api/conta', { nonce: await currentNonce(ctx.app, key, bound.token) })
    assert.equal(res.statusCode, 401)
    assert.deepEqual(res.json(), { detail: 'token_invalido' })
  })

  describe('each check of RFC 9449 section 4.3 violated alone: 401 dpop_invalido, a fresh nonce, audited', () => {
    const cases: [string, (k: Awaited<ReturnType<typeof makeKey>>, token: string, nonce: string) => Promise<Record<string, unknown>>][] = [
      ['dpop_htu', async () => ({ htu: `${PUBLIC_URL}/api/conta/tokens` })],
      ['dpop_htu', async () => ({ htu: 'https://outro.example/api/conta' })],
      ['dpop_htm', async () => ({ htm: 'POST' })],
      ['dpop_iat_too_old', async () => ({ iat: Math.floor(Date.now() / 1000) - 120 })],
      ['dpop_ath', async () => ({ ath: 'A'.repeat(43) })],
    ]
    for (const [motivo, claims] of cases) {
      it(`${motivo} ${motivo === 'dpop_htu' ? '(another URL)' : ''}`, async () => {
        const key = await makeKey('ES256')
        const c = await customer(ctx.db)
        const t = await issueToken(ctx.db, c.id, { dpopJkt: key.jkt })
        const nonce = await currentNonce(ctx.app, key, t.token)
        const res = await withProof(ctx.app, key, t.token, 'GET', '/api/conta', { nonce, ...await claims(key, t.token, nonce) })
        assertInvalidProof(res)
        const refused = (await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'token.recusado').map((r) => r.motivo)
        assert.deepEqual(refused, [motivo])
      })
    }

    it('dpop_jkt: a proof by another key', async () => {
      const key = await makeKey('ES256')
      const other = await makeKey('Ed25519')
      const c = await customer(ctx.db)
      const t = await issueToken(ctx.db, c.id, { dpopJkt: key.jkt })
      const res = await withProof(ctx.app, other, t.token, 'GET', '/api/conta', { nonce: await currentNonce(ctx.app, key, t.token) })
      assertInvalidProof(res)
    })

    it('dpop_signature: the header names the bound key, another key signed', async () => {
      const key = await makeKey('ES256')
      const other = await makeKey('ES256')
      const c = await customer(ctx.db)
      const t = await issueToken(ctx.db, c.id, { dpopJkt: key.jkt })
      const nonce = await currentNonce(ctx.app, key, t.token)
      const proof = await makeProof(key, goodClaims(systemClock, 'GET', `${PUBLIC_URL}/api/conta`, t.token, nonce), { signWith: other.privateKey })
      const res = await ctx.app.inject({ url: '/api/conta', headers: { authorization: `DPoP ${t.token}`, dpop: proof } })
      assertInvalidProof(res)
      assert.deepEqual((await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'token.recusado').map((r) => r.motivo), ['dpop_signature'])
    })

    it('dpop_multiple: two DPoP headers, each a good proof', async () => {
      const key = await makeKey('ES256')
      const c = await customer(ctx.db)
      const t = await issueToken(ctx.db, c.id, { dpopJkt: key.jkt })
      const nonce = await currentNonce(ctx.app, key, t.token)
      const proof = () => makeProof(key, goodClaims(systemClock, 'GET', `${PUBLIC_URL}/api/conta`, t.token, nonce))
      const res = await ctx.app.inject({ url: '/api/conta', headers: { authorization: `DPoP ${t.token}`, dpop: [await proof(), await proof()] } })
      assertInvalidProof(res)
    })
  })

  it('a proof is good once: replayed on the same instance or on a second one sharing the database, 401 jti_replayed', async () => {
    const key = await makeKey('ES256')
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id, { dpopJkt: key.jkt })
    const nonce = await currentNonce(ctx.app, key, t.token)
    const proof = await makeProof(key, goodClaims(systemClock, 'GET', `${PUBLIC_URL}/api/conta`, t.token, nonce))
    const headers = { authorization: `DPoP ${t.token}`, dpop: proof }
    assert.equal((await ctx.app.inject({ url: '/api/conta', headers })).statusCode, 200)
    assertInvalidProof(await second.app.inject({ url: '/api/conta', headers }))
    assertInvalidProof(await ctx.app.inject({ url: '/api/conta', headers }))
    const refused = (await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'token.recusado').map((r) => r.motivo)
    assert.deepEqual(refused, ['dpop_jti_replayed', 'dpop_jti_replayed'])
    // The second instance knows the first one's nonces (derived from the shared installation secret).
    assert.equal((await dpopCall(second.app, key, t.token, 'GET', '/api/conta')).statusCode, 200)
  })

  it('a stale nonce is 401 use_dpop_nonce with a fresh one, not audited', async () => {
    const key = await makeKey('Ed25519')
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id, { dpopJkt: key.jkt })
    const res = await withProof(ctx.app, key, t.token, 'GET', '/api/conta', { nonce: 'A'.repeat(43) })
    assert.equal(res.statusCode, 401)
    assert.deepEqual(res.json(), { detail: 'dpop_nonce_obrigatorio' })
    assert.match(String(res.headers['dpop-nonce']), /^n[A-Za-z0-9_-]{43}$/)
    assert.deepEqual((await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'token.recusado'), [])
  })

  it('the proof is for this method and URL: DELETE on a token path needs htm DELETE and that path', async () => {
    const key = await makeKey('ES256')
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id, { dpopJkt: key.jkt })
    const victim = await issueToken(ctx.db, c.id)
    const url = `/api/conta/tokens/${victim.id}`
    const nonce = await currentNonce(ctx.app, key, t.token)
    assertInvalidProof(await withProof(ctx.app, key, t.token, 'DELETE', url, { nonce, htm: 'GET' }))
    assertInvalidProof(await withProof(ctx.app, key, t.token, 'DELETE', url, { nonce, htu: `${PUBLIC_URL}/api/conta` }))
    assert.equal((await withProof(ctx.app, key, t.token, 'DELETE', `${url}?x=1`, { nonce })).statusCode, 204, 'the query is not part of htu')
    // HEAD is routed with GET's options: its proof is checked once, not twice (a second check would see a replay).
    assert.equal((await withProof(ctx.app, key, t.token, 'HEAD', '/api/conta', { nonce })).statusCode, 200)
  })
})

function assertInvalidProof(res: { statusCode: number, json(): unknown, headers: Record<string, unknown> }): void {
  assert.equal(res.statusCode, 401)
  assert.deepEqual(res.json(), { detail: 'dpop_invalido' })
  assert.match(String(res.headers['www-authenticate']), /DPoP realm="api", error="invalid_dpop_proof"/)
  assert.match(String(res.headers['dpop-nonce']), /^n[A-Za-z0-9_-]{43}$/)
}

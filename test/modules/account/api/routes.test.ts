// The credential layer's endpoints: the customer's tokens listed and revoked (audited, by the acting token),
// the audit trail a page at a time, and no customer reaching another's tokens or trail, even knowing their ids.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { API_ENV, bearer, issueToken } from '../../../helpers/api-credentials.ts'
import { auditRows, customer } from '../../../helpers/credentials.ts'
import { useTestApp } from '../../../helpers/fixture.ts'

describe('GET/DELETE /api/conta/tokens and GET /api/conta/auditoria', () => {
  const ctx = useTestApp({ env: API_ENV })

  it('lists the customer\'s tokens, newest first, without any secret or digest', async () => {
    const c = await customer(ctx.db)
    const a = await issueToken(ctx.db, c.id, { nome: 'primeiro' })
    const b = await issueToken(ctx.db, c.id, { nome: 'segundo', escopos: ['conta'] })
    const res = await bearer(ctx.app, a.token, 'GET', '/api/conta/tokens')
    assert.equal(res.statusCode, 200, res.body)
    const tokens = res.json().tokens as Record<string, unknown>[]
    assert.deepEqual(tokens.map((t) => t.nome).sort(), ['primeiro', 'segundo'])
    const listed = tokens.find((t) => t.id === b.id)!
    assert.deepEqual(listed.escopos, ['conta'])
    assert.equal(listed.estado, 'ativo')
    assert.equal(listed.dpop_jkt, null)
    for (const secret of [a.token, b.token]) assert.ok(!res.body.includes(secret))
    assert.ok(!/hash/.test(res.body))
  })

  it('revokes a token of the customer: 204, audited with the acting token and the request id; the revoked one is refused', async () => {
    const c = await customer(ctx.db)
    const actor = await issueToken(ctx.db, c.id)
    const victim = await issueToken(ctx.db, c.id)
    const res = await bearer(ctx.app, actor.token, 'DELETE', `/api/conta/tokens/${victim.id}`, { headers: { 'x-request-id': 'req-revogar-1' } })
    assert.equal(res.statusCode, 204, res.body)
    assert.equal((await bearer(ctx.app, victim.token, 'GET', '/api/conta')).statusCode, 401)
    const revoked = (await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'token.revogado')
    assert.deepEqual(revoked.map((r) => [r.alvo_id, r.ator_tipo, r.ator_id, r.request_id_cliente]), [[victim.id, 'token', actor.id, 'req-revogar-1']])
    // Again: nothing changes, nothing more is audited.
    assert.equal((await bearer(ctx.app, actor.token, 'DELETE', `/api/conta/tokens/${victim.id}`)).statusCode, 204)
    assert.equal((await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'token.revogado').length, 1)
  })

  it('an id that is no token of the customer answers 404 nao_encontrado', async () => {
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id)
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nao-e-um-uuid', '1']) {
      const res = await bearer(ctx.app, t.token, 'DELETE', `/api/conta/tokens/${id}`)
      assert.equal(res.statusCode, 404, id)
      assert.deepEqual(res.json(), { detail: 'nao_encontrado' })
    }
  })

  it('customer B cannot see or revoke A\'s tokens, nor read A\'s trail, even with A\'s ids', async () => {
    const a = await customer(ctx.db, 'Cliente A')
    const b = await customer(ctx.db, 'Cliente B')
    const aToken = await issueToken(ctx.db, a.id)
    const bToken = await issueToken(ctx.db, b.id)
    assert.equal((await bearer(ctx.app, aToken.token, 'GET', '/api/conta')).statusCode, 200)

    const list = await bearer(ctx.app, bToken.token, 'GET', '/api/conta/tokens')
    assert.deepEqual((list.json().tokens as { id: string }[]).map((t) => t.id), [bToken.id])
    const revoke = await bearer(ctx.app, bToken.token, 'DELETE', `/api/conta/tokens/${aToken.id}`)
    assert.equal(revoke.statusCode, 404)
    assert.equal((await bearer(ctx.app, aToken.token, 'GET', '/api/conta')).statusCode, 200, 'A\'s token still works')
    const trail = await bearer(ctx.app, bToken.token, 'GET', '/api/conta/auditoria?limite=200')
    const items = trail.json().itens as { alvo_id: string | null, ator_id: string | null }[]
    assert.ok(items.length > 0)
    for (const item of items) assert.ok(item.alvo_id !== aToken.id && item.ator_id !== aToken.id && item.alvo_id !== a.id, JSON.stringify(item))
    const me = await bearer(ctx.app, bToken.token, 'GET', '/api/conta')
    assert.deepEqual(me.json().cliente, { id: b.id, nome: 'Cliente B' })
  })

  it('pages the trail newest first; `proximo` leads to the older page and is null on the last', async () => {
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id, { escopos: ['conta'] })
    for (let i = 0; i < 3; i++) await issueToken(ctx.db, c.id)
    const all = (await auditRows(ctx.db, c.id)).map((r) => Number(r.numero)).reverse()
    const seen: number[] = []
    let url = '/api/conta/auditoria?limite=2'
    for (;;) {
      const res = await bearer(ctx.app, t.token, 'GET', url)
      assert.equal(res.statusCode, 200, res.body)
      const page = res.json() as { itens: { id: number, acao: string, ip_hash?: unknown }[], proximo: number | null }
      assert.ok(page.itens.length <= 2)
      for (const item of page.itens) assert.equal(item.ip_hash, undefined, 'the address hash is not shown')
      seen.push(...page.itens.map((i) => i.id))
      if (page.proximo === null) break
      url = `/api/conta/auditoria?limite=2&antes=${page.proximo}`
    }
    // The first use of the reading token is audited by its first call, so the trail grew by one since `all`.
    assert.deepEqual(seen.slice(1), all)
    assert.ok((await bearer(ctx.app, t.token, 'GET', '/api/conta/auditoria?limite=0')).statusCode === 422)
  })
})

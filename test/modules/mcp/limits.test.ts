// /api/mcp's budgets: each POST counts against the token's own budget (the guard's), whichever tool it calls;
// enviar_contato also against the contact budget, per token.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { API_ENV, issueToken } from '../../helpers/api-credentials.ts'
import { contactBody, serviceConfigFile } from '../../helpers/app.ts'
import { customer } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { resultJson, rpc, toolCall } from './helpers.ts'

describe('/api/mcp budgets', () => {
  const ctx = useTestApp(() => ({
    listen: true,
    env: {
      ...API_ENV,
      SERVICE_CONFIG_FILE: serviceConfigFile({
        rateLimits: { credencial: { max: 3, windowSeconds: 60 }, contato: { max: 1, windowSeconds: 600 } },
      }),
    },
  }))

  it('the fourth POST of a token within the window is 429 limite_de_requisicoes; another token is not held', async () => {
    const c = await customer(ctx.db)
    const a = await issueToken(ctx.db, c.id, { escopos: ['mcp'] })
    const b = await issueToken(ctx.db, c.id, { escopos: ['mcp'] })
    for (let i = 1; i <= 3; i++) assert.equal((await rpc(ctx.base, toolCall(i, 'versao'), { authorization: `Bearer ${a.token}` })).status, 200, `call ${i}`)
    const over = await rpc(ctx.base, toolCall(4, 'versao'), { authorization: `Bearer ${a.token}` })
    assert.equal(over.status, 429)
    assert.deepEqual(await over.json(), { detail: 'limite_de_requisicoes' })
    assert.match(over.headers.get('retry-after')!, /^\d+$/)
    assert.equal((await rpc(ctx.base, toolCall(1, 'versao'), { authorization: `Bearer ${b.token}` })).status, 200)
  })

  it('enviar_contato: a second message of the same token over the contact budget is refused as a tool error', async () => {
    const c = await customer(ctx.db)
    const { token } = await issueToken(ctx.db, c.id, { escopos: ['mcp'] })
    type Answer = { result: { isError?: boolean, content: unknown, structuredContent?: { protocolo: string } } }
    const send = async (id: number) =>
      (await (await rpc(ctx.base, toolCall(id, 'enviar_contato', contactBody()), { authorization: `Bearer ${token}` })).json()) as Answer
    const first = await send(1)
    assert.ok(!first.result.isError, JSON.stringify(first))
    const second = await send(2)
    assert.equal(second.result.isError, true)
    const refusal = resultJson(second.result)
    assert.equal(refusal.detail, 'limite_de_requisicoes')
    assert.ok(Number(refusal.retry_after) > 0, JSON.stringify(refusal))
  })
})

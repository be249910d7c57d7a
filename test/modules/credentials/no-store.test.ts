// Every answer behind a credential is `Cache-Control: no-store`, success and error alike: the operations are those
// the account's OpenAPI document lists (what a credential unlocks, the MCP server's included), each called without a
// credential, with a token lacking its scope, with one holding every scope, and with a bad query where it takes one.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { SCOPES } from '../../../src/modules/credentials/scopes.ts'
import { API_ENV, bearer, issueToken } from '../../helpers/api-credentials.ts'
import { customer } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { PROTOCOL_VERSION, toolCall } from '../mcp/helpers.ts'

type Operation = { parameters?: { name: string, in: string }[] }
type Method = 'GET' | 'POST' | 'DELETE'

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL_VERSION }

describe('Cache-Control: no-store on every credentialed answer', () => {
  const ctx = useTestApp({ env: API_ENV, contactBudget: 100 })

  it('each operation of the account document, answered 2xx, 4xx or by the guard, is no-store', async () => {
    const c = await customer(ctx.db)
    const all = await issueToken(ctx.db, c.id, { escopos: [...SCOPES] })
    const mcpOnly = await issueToken(ctx.db, c.id, { escopos: ['mcp'] })
    const noMcp = await issueToken(ctx.db, c.id, { escopos: ['conta', 'tokens'] })
    const document = (await bearer(ctx.app, all.token, 'GET', '/api/conta/openapi.json')).json() as { paths: Record<string, Record<string, Operation>> }

    const statuses = new Set<number>()
    let operations = 0
    for (const [path, byMethod] of Object.entries(document.paths)) {
      for (const [lower, operation] of Object.entries(byMethod)) {
        operations++
        const method = lower.toUpperCase() as Method
        const url = `/api${path.replace(/\{\w+\}/g, randomUUID())}`
        const extra = method === 'POST' ? { payload: toolCall(1, 'versao'), headers: MCP_HEADERS } : {}
        const answers: [string, LightMyRequestResponse][] = [
          ['no credential', await ctx.app.inject({ method, url, ...extra })],
          ['a malformed token', await bearer(ctx.app, 'fct_nao_existe', method, url, extra)],
          ['every scope', await bearer(ctx.app, all.token, method, url, extra)],
          ['only mcp', await bearer(ctx.app, mcpOnly.token, method, url, extra)],
          ['no mcp', await bearer(ctx.app, noMcp.token, method, url, extra)],
        ]
        for (const query of (operation.parameters ?? []).filter((p) => p.in === 'query')) {
          answers.push([`bad ${query.name}`, await bearer(ctx.app, all.token, method, `${url}?${query.name}=x`)])
        }
        for (const [what, res] of answers) {
          statuses.add(res.statusCode)
          assert.equal(res.headers['cache-control'], 'no-store', `${method} ${url}, ${what}: ${res.statusCode}`)
        }
      }
    }
    assert.ok(operations >= 6, 'the account routes and the MCP server')
    for (const status of [200, 401, 403, 404, 422]) assert.ok(statuses.has(status), `an answer ${status} was seen: ${[...statuses]}`)
  })

  it('a path no route serves, with a credential (404) or without (401), is no-store too', async () => {
    const c = await customer(ctx.db)
    const { token } = await issueToken(ctx.db, c.id)
    for (const res of [await bearer(ctx.app, token, 'GET', '/api/nada-aqui'), await ctx.app.inject({ url: '/api/nada-aqui' })]) {
      assert.equal(res.headers['cache-control'], 'no-store', String(res.statusCode))
    }
  })
})

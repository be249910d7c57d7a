// Huge numbers never reach the database: every numeric argument of every MCP tool (as tools/list declares them) and
// every query parameter of the credentialed API (as its OpenAPI document declares them) is bounded, and a number
// past the bound is answered with the 422 items, never the 503 of a failed query.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { SCOPES } from '../../../src/modules/credentials/scopes.ts'
import { API_ENV, bearer, issueToken } from '../../helpers/api-credentials.ts'
import { customer } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { unthrottledEnv } from '../../fuzz/kit.ts'
import { mcpClient, resultJson } from './helpers.ts'

type Property = { type?: string, minimum?: number, maximum?: number }
type Item = { loc: string[], type: string }

const HUGE = [1e300, -1e300, 1e15, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER]

describe('numbers past their bounds', () => {
  // Every tool's every bound is tried, over a hundred calls: the budgets are widened, this is about inputs, not rates.
  const ctx = useTestApp(() => ({ env: { ...API_ENV, ...unthrottledEnv() }, listen: true }))

  it('every numeric argument of every MCP tool has a maximum, and a number past it answers the 422 items', async (t) => {
    const c = await customer(ctx.db)
    const { token } = await issueToken(ctx.db, c.id, { escopos: [...SCOPES] })
    const client = await mcpClient(t, ctx.base, token)
    const { tools } = await client.listTools()
    let numeric = 0
    for (const tool of tools) {
      for (const [name, property] of Object.entries((tool.inputSchema.properties ?? {}) as Record<string, Property>)) {
        if (property.type !== 'integer' && property.type !== 'number') continue
        numeric++
        assert.equal(typeof property.maximum, 'number', `${tool.name}.${name} has a maximum`)
        assert.equal(typeof property.minimum, 'number', `${tool.name}.${name} has a minimum`)
        // Only what lies past this argument's own bounds (money's bound is 2^53 − 1 itself).
        for (const value of [...HUGE, property.maximum! + 1].filter((v) => v > property.maximum! || v < property.minimum!)) {
          const res = await client.callTool({ name: tool.name, arguments: { [name]: value } })
          assert.equal(res.isError, true, `${tool.name}.${name} = ${value}`)
          const detail = resultJson(res).detail
          assert.ok(Array.isArray(detail), `${tool.name}.${name} = ${value}: ${JSON.stringify(detail)}`)
          // A tool with required arguments also names those missing; the number is named among them.
          assert.ok((detail as Item[]).some((i) => i.loc.join('.') === `body.${name}`), `${tool.name}.${name} = ${value}: ${JSON.stringify(detail)}`)
        }
        const largest = await client.callTool({ name: tool.name, arguments: { [name]: property.maximum } })
        const items = largest.isError ? resultJson(largest).detail : []
        assert.ok(Array.isArray(items) && !(items as Item[]).some((i) => i.loc.join('.') === `body.${name}`),
          `${tool.name}.${name} = its maximum: ${JSON.stringify(largest.content)}`)
      }
    }
    assert.ok(numeric >= 2, 'the audit trail\'s page and cursor at least')
  })

  it('every query parameter of the credentialed API refuses a huge number with a 422', async () => {
    const c = await customer(ctx.db)
    const { token } = await issueToken(ctx.db, c.id, { escopos: [...SCOPES] })
    const document = (await bearer(ctx.app, token, 'GET', '/api/conta/openapi.json')).json() as {
      paths: Record<string, Record<string, { parameters?: { name: string, in: string, schema: { pattern?: string } }[] }>>
    }
    // A number in text: a pattern that takes digits and no letters (a page's size, a cursor). Filters by text or
    // day (a documento, an id_externo, a date) take their own shapes and are not numbers.
    const numeric = (pattern: string | undefined) => pattern !== undefined && new RegExp(pattern).test('12') && !new RegExp(pattern).test('ab')
    let queried = 0
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const p of (operation.parameters ?? []).filter((x) => x.in === 'query' && numeric(x.schema.pattern))) {
          queried++
          // A token of its own for each parameter: the lists' parameters together pass one credential's budget.
          const { token: own } = await issueToken(ctx.db, c.id, { escopos: [...SCOPES] })
          for (const value of ['1e300', '9'.repeat(400), '1000000000000000', '-1', '1.5']) {
            const res = await bearer(ctx.app, own, method.toUpperCase() as 'GET', `/api${path}?${p.name}=${value}`)
            assert.equal(res.statusCode, 422, `${method} ${path}?${p.name}=${value}: ${res.body}`)
            assert.deepEqual((res.json().detail as Item[]).map((i) => i.loc.join('.')), [`querystring.${p.name}`])
          }
        }
      }
    }
    assert.ok(queried >= 6, 'the audit trail\'s, the cedentes\' and the sacados\' limite and antes at least')
    assert.equal((await bearer(ctx.app, token, 'GET', '/api/conta/auditoria?antes=999999999999999')).statusCode, 200)
  })
})

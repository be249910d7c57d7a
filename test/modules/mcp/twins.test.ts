// Every MCP tool refuses what its REST twin refuses. The tools are those tools/list answers, each with the twin it
// declares in `_meta`; for every scope a twin needs, a token with every other scope (`mcp` included) is refused by
// the tool and by the route alike, with the catalogue's code; with the scope, neither refuses it for want of one.
// A tool whose twin is public needs nothing beyond `mcp`, and its route answers without any credential.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { SCOPES, type Scope } from '../../../src/modules/credentials/scopes.ts'
import { PROBLEMS } from '../../../src/platform/http/problem-catalogue.ts'
import { TWIN_META } from '../../../src/modules/mcp/twins.ts'
import { API_ENV, issueToken } from '../../helpers/api-credentials.ts'
import { customer } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { mcpClient, resultJson } from './helpers.ts'

type TwinMeta = { metodo: 'GET' | 'POST' | 'DELETE', rota: string, publica: boolean, escopos: string[] }

const REFUSED = { status: PROBLEMS.escopo_insuficiente.status, detail: 'escopo_insuficiente' }

describe('MCP tools and their REST twins', () => {
  const ctx = useTestApp({ env: API_ENV, listen: true, contactBudget: 100 })

  const rest = (twin: TwinMeta, token?: string): Promise<LightMyRequestResponse> => ctx.app.inject({
    method: twin.metodo,
    url: twin.rota.replace(/:\w+/g, randomUUID()),
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(twin.metodo === 'POST' ? { payload: {} } : {}),
  })

  it('a token lacking a twin\'s scope is refused by the tool and by the route, with the same code and scope', async (t) => {
    const c = await customer(ctx.db)
    const everything = await issueToken(ctx.db, c.id, { escopos: [...SCOPES] })
    const { tools } = await (await mcpClient(t, ctx.base, everything.token)).listTools()
    assert.ok(tools.length >= 8, 'the server lists its tools')

    let scoped = 0
    for (const tool of tools) {
      const twin = tool._meta?.[TWIN_META] as TwinMeta | undefined
      assert.ok(twin, `${tool.name} declares its REST twin`)
      assert.equal(twin.escopos[0], 'mcp', `${tool.name}: mcp opens the server`)
      const needed = twin.escopos.slice(1) as Scope[]
      assert.equal(needed.length > 0, !twin.publica, `${tool.name}: a private twin needs a scope, a public one none`)

      // With every scope, neither the tool nor the route refuses for want of one.
      const allowed = await (await mcpClient(t, ctx.base, everything.token)).callTool({ name: tool.name, arguments: {} })
      if (allowed.isError) assert.notEqual(resultJson(allowed).detail, REFUSED.detail, tool.name)
      assert.notEqual((await rest(twin, everything.token)).statusCode, REFUSED.status, `${twin.metodo} ${twin.rota}`)

      for (const scope of needed) {
        scoped++
        const lacking = await issueToken(ctx.db, c.id, { escopos: SCOPES.filter((s) => s !== scope) })
        const refused = await (await mcpClient(t, ctx.base, lacking.token)).callTool({ name: tool.name, arguments: {} })
        assert.equal(refused.isError, true, `${tool.name} without ${scope}`)
        assert.deepEqual(resultJson(refused), { detail: REFUSED.detail, escopo: scope }, `${tool.name} without ${scope}`)

        const twinAnswer = await rest(twin, lacking.token)
        assert.equal(twinAnswer.statusCode, REFUSED.status, `${twin.metodo} ${twin.rota} without ${scope}`)
        assert.equal(twinAnswer.json().detail, REFUSED.detail)
        assert.match(String(twinAnswer.headers['www-authenticate']), new RegExp(`scope="${scope}"`))
      }
    }
    assert.ok(scoped >= 4, 'the account tools are held to their scopes')
  })

  it('a twin declared public answers without a credential; every other twin needs one', async (t) => {
    const c = await customer(ctx.db)
    const { token } = await issueToken(ctx.db, c.id, { escopos: ['mcp'] })
    const { tools } = await (await mcpClient(t, ctx.base, token)).listTools()
    const publicOnes = []
    for (const tool of tools) {
      const twin = tool._meta?.[TWIN_META] as TwinMeta
      const anonymous = await rest(twin)
      if (twin.publica) {
        publicOnes.push(tool.name)
        assert.ok(![401, 403].includes(anonymous.statusCode), `${twin.metodo} ${twin.rota} is public: ${anonymous.statusCode}`)
      } else {
        assert.equal(anonymous.statusCode, 401, `${twin.metodo} ${twin.rota} needs a credential`)
      }
    }
    assert.deepEqual(publicOnes.sort(), ['assuntos_contato', 'enviar_contato', 'status_servicos', 'versao'])
  })
})

// A tool that fails (the database stops answering mid-call) or whose audit row cannot be written answers the
// agent `servico_indisponivel` as a tool error: never the exception's text (a query's message may quote the
// input), never a silent success. The server is driven in memory by the SDK's client.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import type { FastifyRequest } from 'fastify'
import type { Credential } from '../../../src/modules/credentials/http/credential.ts'
import { systemClock } from '../../../src/platform/lib/clock.ts'
import type { Database } from '../../../src/platform/db/database.ts'
import { mcpServerFor } from '../../../src/modules/mcp/server.ts'
import type { Tool } from '../../../src/modules/mcp/tool.ts'
import { publicTwin } from '../../../src/modules/mcp/twins.ts'
import { auditRows, customer } from '../../helpers/credentials.ts'
import { defer, useTestDatabase } from '../../helpers/fixture.ts'
import type { TestContext } from 'node:test'

const SECRET = 'SELECT * FROM contato WHERE email = maria@empresa.com.br'

const failing: Tool = {
  name: 'versao', title: 'versão', description: 'falha', output: { type: 'object' }, twin: publicTwin('GET', '/api/version'),
  run: async () => { throw new Error(SECRET) },
}

function request(clienteId: string, logged: unknown[]) {
  const credential: Credential = {
    kind: 'pat', id: '00000000-0000-4000-8000-000000000001', clienteId, usuarioId: null, papel: null, escopos: ['mcp'],
    expiraEm: new Date(Date.now() + 60_000), dpop: false,
  }
  const log = { error: (...args: unknown[]) => logged.push(args), info: () => {} }
  return { credential, by: { id: 'req-falha', ip: '127.0.0.1', log, raw: {} } as unknown as FastifyRequest }
}

async function connect(t: TestContext, db: Database, clienteId: string, logged: unknown[]): Promise<Client> {
  const server = mcpServerFor({
    db, clock: systemClock, version: '1', tools: [failing], resources: [],
  }, request(clienteId, logged))
  const [a, b] = InMemoryTransport.createLinkedPair()
  await server.connect(a)
  const client = new Client({ name: 'teste', version: '1' })
  await client.connect(b)
  defer(t, async () => { await client.close(); await server.close() })
  return client
}

describe('MCP tool failures', () => {
  const ctx = useTestDatabase()

  it('a tool that throws answers servico_indisponivel, audited with that motivo, the message only in no answer', async (t) => {
    const c = await customer(ctx.db)
    const logged: unknown[] = []
    const client = await connect(t, ctx.db, c.id, logged)
    const res = await client.callTool({ name: 'versao', arguments: {} })
    assert.equal(res.isError, true)
    assert.equal((res.content as { text: string }[])[0]!.text, '{"detail":"servico_indisponivel"}')
    const rows = (await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'mcp.versao')
    assert.deepEqual(rows.map((r) => [r.motivo, r.request_id]), [['servico_indisponivel', 'req-falha']])
    assert.equal(logged.length, 1)
    assert.ok(!JSON.stringify(logged).includes('maria@'), 'logged by its facts, not its message')
  })

  it('an audit row that cannot be written makes the call fail as servico_indisponivel', async (t) => {
    const c = await customer(ctx.db)
    const down = { orm: { transaction: async () => { throw Object.assign(new Error(SECRET), { code: '57P01' }) } } } as unknown as Database
    const logged: unknown[] = []
    const client = await connect(t, down, c.id, logged)
    const res = await client.callTool({ name: 'versao', arguments: {} })
    assert.equal(res.isError, true)
    assert.equal((res.content as { text: string }[])[0]!.text, '{"detail":"servico_indisponivel"}')
    assert.ok(!JSON.stringify(logged).includes('maria@'))
  })
})

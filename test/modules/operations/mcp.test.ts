// The product over MCP (produto.md §2.8): an agent finds a cedente, simulates, drafts an operation and quotes it,
// to the centavo of the REST answers; no tool moves money; a person who only reads may simulate but not draft;
// every call is audited, and a draft also as the route audits it.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createToken } from '../../../src/modules/credentials/tokens/store.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { auditRows } from '../../helpers/credentials.ts'
import { API_ENV } from '../../helpers/api-credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { mcpClient, resultJson } from '../mcp/helpers.ts'
import { backOffice, CEDENTE_DOC, EXAMPLE_NOW, EXAMPLE_PRODUCT, exampleRegisters, exampleTitles, person, settableClock } from './helpers.ts'

const mcpToken = async (db: Parameters<typeof withTenant>[0], clienteId: string, usuarioId: string) =>
  (await withTenant(db, clienteId, (tx) => createToken(tx, {
    clienteId, usuarioId, nome: 'agente', escopos: ['mcp', 'cadastro', 'operacoes'], expiraEm: new Date(Date.now() + 86_400_000), dpopJkt: null,
  }, { actor: { tipo: 'usuario', id: usuarioId }, now: new Date() }))).token

describe('the product over MCP', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { ...API_ENV, MAIL_WORKER: 'off' }, deps: { clock }, listen: true })

  it('finds the cedente, simulates, drafts and quotes the example to the centavo; no tool moves money', async (t) => {
    const { clienteId, operador } = await backOffice(ctx.db, ctx.app, clock)
    const { produto, sacados } = await exampleRegisters(operador.call)
    const agent = await mcpClient(t, ctx.base, await mcpToken(ctx.db, clienteId, operador.usuarioId))
    const names = (await agent.listTools()).tools.map((x) => x.name)
    for (const n of ['simular', 'listar_operacoes', 'ler_operacao', 'criar_operacao', 'cotar_operacao', 'listar_cedentes', 'listar_sacados',
      'listar_produtos']) {
      assert.ok(names.includes(n), n)
    }
    assert.deepEqual(names.filter((n) => /aceit|desembols|aprov|pagament|cancel/.test(n)), [], 'no tool moves money')

    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await agent.callTool({ name, arguments: args })
      assert.ok(!r.isError, `${name}: ${JSON.stringify(r.content)}`)
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tool's JSON, read field by field as the REST tests read theirs
      return r.structuredContent as Record<string, any>
    }
    const [cedente] = (await call('listar_cedentes', { documento: '11.222.333/0001-81' })).itens
    assert.equal(cedente.documento, CEDENTE_DOC)
    // The product the draft names, found as an agent finds it: it answers as its twin, GET /api/produtos.
    const products = await call('listar_produtos', {})
    assert.deepEqual(products.itens.map((p: { id: string }) => p.id), [produto.id])
    assert.deepEqual(products, (await operador.call('GET', '/api/produtos')).json())
    assert.equal(products.itens[0].versoes[0].taxa_mensal, EXAMPLE_PRODUCT.taxa_mensal)
    const { nome: _n, ...terms } = EXAMPLE_PRODUCT
    const sim = await call('simular', {
      data_operacao: '2026-10-05', perfil_iof: 'pj', ...terms,
      titulos: exampleTitles(sacados.map((s: { id: string }) => s.id)).map((x) => ({ tipo: x.tipo, vencimento: x.vencimento,
        valor_face_centavos: x.valor_face_centavos })),
    })
    assert.equal(sim.totais.valor_liquido_centavos, 4_637_053)
    const draft = await call('criar_operacao', { cedente_id: cedente.id, produto_id: products.itens[0].id,
      titulos: exampleTitles(sacados.map((s: { id: string }) => s.id)) })
    assert.equal(draft.estado, 'rascunho')
    const quote = await call('cotar_operacao', { id: draft.id })
    assert.equal(quote.totais.valor_liquido_centavos, 4_637_053)
    const read = await call('ler_operacao', { id: draft.id })
    assert.equal(read.estado, 'cotada')
    assert.deepEqual(read.cotacao.linhas, quote.linhas)
    const rest = (await operador.call('GET', `/api/operacoes/${draft.id}`)).json()
    assert.deepEqual(read, rest, 'the tool answers as its twin')
    // A page of the títulos, as the route's titulos_limite and titulos_apos: the second and third of three.
    const page = await call('ler_operacao', { id: draft.id, titulos_limite: 2, titulos_apos: 1 })
    assert.deepEqual(page.titulos.map((t: { numero: string }) => t.numero), ['T2', 'T3'])
    assert.deepEqual(page.cotacao.linhas, quote.linhas.slice(1))
    assert.equal(page.quantidade_titulos, 3)
    assert.equal((await call('listar_operacoes', { estado: 'cotada' })).itens[0].id, draft.id)

    const actions = (await auditRows(ctx.db, clienteId)).map((r) => r.acao)
    for (const a of ['mcp.listar_produtos', 'mcp.criar_operacao', 'operacao.criada', 'mcp.cotar_operacao', 'operacao.cotada', 'mcp.simular']) {
      assert.ok(actions.includes(a), a)
    }
  })

  it('a consulta may simulate but not draft (papel_insuficiente); an unknown id is nao_encontrado', async (t) => {
    const { clienteId } = await backOffice(ctx.db, ctx.app, clock)
    const reader = await person(ctx.db, clienteId, 'consulta', ctx.app, clock)
    const agent = await mcpClient(t, ctx.base, await mcpToken(ctx.db, clienteId, reader.usuarioId))
    const { nome: _n, ...terms } = EXAMPLE_PRODUCT
    const sim = await agent.callTool({ name: 'simular', arguments: {
      data_operacao: '2026-10-05', perfil_iof: 'pj', ...terms, titulos: [{ tipo: 'cheque', vencimento: '2026-12-04', valor_face_centavos: 1_500_000 }],
    } })
    assert.ok(!sim.isError, JSON.stringify(sim.content))
    const draft = await agent.callTool({ name: 'criar_operacao', arguments: { cedente_id: crypto.randomUUID(), produto_id: crypto.randomUUID() } })
    assert.deepEqual(resultJson(draft), { detail: 'papel_insuficiente' })
    const missing = await agent.callTool({ name: 'ler_operacao', arguments: { id: crypto.randomUUID() } })
    assert.deepEqual(resultJson(missing), { detail: 'nao_encontrado' })
  })
})

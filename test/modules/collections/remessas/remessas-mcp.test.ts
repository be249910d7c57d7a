// What went to the banks, read over MCP (issue 33): an agent with `cobranca` lists the remessas, reads one and a
// charge's instructions, each answered as its REST twin answers it; no tool makes a remessa or asks an instruction.
import { freshCnpj } from '../../../helpers/cnpj.ts'
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { mod10 } from '../../../../src/modules/collections/boleto/modulos.ts'
import { API_ENV, issueToken } from '../../../helpers/api-credentials.ts'
import { auditRows } from '../../../helpers/credentials.ts'
import { useTestApp } from '../../../helpers/fixture.ts'
import { mcpClient } from '../../mcp/helpers.ts'
import { backOffice, created, EXAMPLE_NOW, exampleRegisters, formalizedExample, key, settableClock } from '../../operations/helpers.ts'

const ENDERECO = { logradouro: 'Av. Brasil', numero: '1', bairro: 'Centro', cep: '01000000', cidade: 'São Paulo', uf: 'SP' }

describe('remessas and instructions over MCP', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { ...API_ENV, MAIL_WORKER: 'off' }, deps: { clock }, listen: true })

  it('lists and reads what went to the banks as the REST twins answer; makes nothing', async (t) => {
    clock.set(EXAMPLE_NOW)
    const office = await backOffice(ctx.db, ctx.app, clock)
    await ctx.db.ownerTransaction((tx) => tx.query('UPDATE clientes SET documento = $2 WHERE id = $1', [office.clienteId, freshCnpj()]))
    const regs = await exampleRegisters(office.admin.call, { sacado: ENDERECO })
    regs.sacados[1] = created(await office.admin.call('POST', '/api/sacados', { documento: '11222333000181', razao_social: 'Sacado', ...ENDERECO }))
    const { op } = await formalizedExample(office.admin.call, regs)
    const account = created(await office.operador.call('POST', '/api/contas-cobranca',
      { nome: 'Itaú', banco: '341', agencia: '1234', conta: '34567', conta_digito: String(mod10('123434567')), carteira: '109' }))
    created(await office.aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    const charge = created(await office.operador.call('POST', '/api/cobrancas', { titulo_id: op.titulos[0].id, conta_cobranca_id: account.id }, key()))
    const remessa = created(await office.operador.call('POST', '/api/cnab/remessas', { conta_cobranca_id: account.id }, key()))

    const { token } = await issueToken(ctx.db, office.clienteId, { escopos: ['mcp', 'cobranca'] })
    const agent = await mcpClient(t, ctx.base, token)
    const names = (await agent.listTools()).tools.map((x) => x.name)
    assert.deepEqual(names.filter((n) => /remessa|instru/.test(n)).sort(), ['ler_remessa', 'listar_instrucoes', 'listar_remessas'])
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await agent.callTool({ name, arguments: args })
      assert.ok(!r.isError, `${name}: ${JSON.stringify(r.content)}`)
      return r.structuredContent
    }
    assert.deepEqual(await call('listar_remessas', { conta_cobranca_id: account.id }),
      created(await office.aprovador.call('GET', `/api/cnab/remessas?conta_cobranca_id=${account.id}`), 200))
    const { fora: _fora, ...summary } = remessa
    assert.deepEqual(await call('ler_remessa', { id: remessa.id }), summary)
    assert.deepEqual(await call('listar_instrucoes', { id: charge.id }), { itens: [] })
    const missing = await agent.callTool({ name: 'ler_remessa', arguments: { id: charge.id } })
    assert.equal(missing.isError, true)
    const audit = (await auditRows(ctx.db, office.clienteId)).filter((r) => String(r.acao).startsWith('mcp.'))
    assert.deepEqual(audit.map((r) => r.acao), ['mcp.listar_remessas', 'mcp.ler_remessa', 'mcp.listar_instrucoes', 'mcp.ler_remessa'])
  })
})

// What came back from the banks and the buy-backs, read over MCP (issue 33): an agent with `cobranca` lists and reads
// the retornos and the buy-backs, each answered as its REST twin answers it, audited per call; no tool sends a file or
// makes a buy-back.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { retornoSandbox240 } from '../../../../src/modules/collections/sandbox/retorno240.ts'
import { API_ENV, issueToken } from '../../../helpers/api-credentials.ts'
import { auditRows } from '../../../helpers/credentials.ts'
import { useTestApp } from '../../../helpers/fixture.ts'
import { mcpClient } from '../../mcp/helpers.ts'
import { backOffice, created, EXAMPLE_NOW, formalizedExample, key, settableClock } from '../../operations/helpers.ts'

const BB = { nome: 'BB cobrança', banco: '001', agencia: '3064', conta: '123456', conta_digito: 'X', carteira: '17', convenio: '1234567' }
const CONTA = { banco: '001' as const, agencia: '3064', conta: '123456', contaDigito: 'X', convenio: '1234567', inscricao: '11444777000161',
  empresa: 'FACTORING EXEMPLO' }

describe('retornos and buy-backs over MCP', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { ...API_ENV, MAIL_WORKER: 'off' }, deps: { clock }, listen: true })

  it('lists and reads them as the REST twins answer; sends and makes nothing', async (t) => {
    const office = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await formalizedExample(office.admin.call)
    const account = created(await office.operador.call('POST', '/api/contas-cobranca', BB))
    created(await office.aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    const charge = created(await office.operador.call('POST', '/api/cobrancas', { titulo_id: op.titulos[0].id, conta_cobranca_id: account.id }, key()))
    const file = retornoSandbox240(CONTA, 5, '2026-10-06', [{ codigo: '02', sequencia: charge.nosso_numero_sequencia, seuNumero: 'T1',
      vencimento: charge.vencimento, valorCentavos: BigInt(charge.valor_centavos), dataOcorrencia: '2026-10-06' }])
    const { token } = await issueToken(ctx.db, office.clienteId, { escopos: ['mcp', 'cobranca'], clock })
    const sent = await ctx.app.inject({ method: 'POST', url: `/api/cnab/retornos?conta_cobranca_id=${account.id}`, payload: Buffer.from(file, 'latin1'),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' } })
    const retorno = created(sent)
    const recompra = created(await office.operador.call('POST', '/api/recompras', { titulo_ids: [op.titulos[2].id], motivo: 'vicio_de_origem',
      descricao: 'Cheque sem lastro', forma: 'compensacao' }, key()))

    const agent = await mcpClient(t, ctx.base, token)
    const names = (await agent.listTools()).tools.map((x) => x.name)
    assert.deepEqual(names.filter((n) => /retorno|recompra/.test(n)).sort(), ['ler_recompra', 'ler_retorno', 'listar_recompras', 'listar_retornos'])
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await agent.callTool({ name, arguments: args })
      assert.ok(!r.isError, `${name}: ${JSON.stringify(r.content)}`)
      return r.structuredContent
    }
    assert.deepEqual(await call('listar_retornos', { conta_cobranca_id: account.id }),
      created(await office.aprovador.call('GET', `/api/cnab/retornos?conta_cobranca_id=${account.id}`), 200))
    assert.deepEqual(await call('ler_retorno', { id: retorno.id }), created(await office.aprovador.call('GET', `/api/cnab/retornos/${retorno.id}`), 200))
    assert.deepEqual(await call('listar_recompras', { estado: 'aberta' }), created(await office.aprovador.call('GET', '/api/recompras?estado=aberta'), 200))
    assert.deepEqual(await call('ler_recompra', { id: recompra.id }), recompra)
    const missing = await agent.callTool({ name: 'ler_recompra', arguments: { id: retorno.id } })
    assert.equal(missing.isError, true)
    const audit = (await auditRows(ctx.db, office.clienteId)).filter((r) => String(r.acao).startsWith('mcp.'))
    assert.deepEqual(audit.map((r) => r.acao), ['mcp.listar_retornos', 'mcp.ler_retorno', 'mcp.listar_recompras', 'mcp.ler_recompra', 'mcp.ler_recompra'])
  })
})

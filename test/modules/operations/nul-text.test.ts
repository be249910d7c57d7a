// Text PostgreSQL cannot store (issue 31 item 11): a NUL in a cancellation's reason, a signatory's name, a título's
// number or a register's name answered 500 where the database refused it. Every free-text field of a customer's route
// refuses it as a 422 item on that field, and an agent's tool call refuses it the same way; nothing is stored.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createToken } from '../../../src/modules/credentials/tokens/store.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { API_ENV } from '../../helpers/api-credentials.ts'
import { rowsAs } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { mcpClient } from '../mcp/helpers.ts'
import { backOffice, created, EXAMPLE_NOW, exampleRegisters, exampleTitles, key, settableClock } from './helpers.ts'

const nulAt = (loc: (string | number)[], input: string) => ({
  detail: [{ type: 'string_nul', loc, msg: 'String should not contain the NUL character (U+0000)', input }],
})

describe('a NUL in free text', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { ...API_ENV, MAIL_WORKER: 'off' }, deps: { clock }, listen: true })

  it('is 422 on its field on every route that stores text, nothing stored; the same text without it is taken', async () => {
    const { clienteId, operador } = await backOffice(ctx.db, ctx.app, clock)
    const regs = await exampleRegisters(operador.call)
    const refused = async (method: 'POST', url: string, body: object, loc: (string | number)[], input: string, headers?: Record<string, string>) => {
      const res = await operador.call(method, url, body, headers)
      assert.equal(res.statusCode, 422, `${url}: ${res.body}`)
      assert.deepEqual(res.json(), nulAt(loc, input), url)
    }
    await refused('POST', '/api/sacados', { documento: '39053344705', razao_social: 'Sacado\u0000 Ltda' }, ['body', 'razao_social'], 'Sacado\u0000 Ltda')
    const titulos = exampleTitles(regs.sacados.map((s: { id: string }) => s.id))
    const withNul = titulos.map((t, i) => (i === 1 ? { ...t, numero: 'NF\u00001' } : t))
    await refused('POST', '/api/operacoes', { cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-05', titulos: withNul },
      ['body', 'titulos', 1, 'numero'], 'NF\u00001')
    const stored = await rowsAs<{ n: number }>(ctx.db, clienteId, 'SELECT count(*)::int AS n FROM operacoes')
    assert.equal(stored[0]!.n, 0)

    const op = created(await operador.call('POST', '/api/operacoes', {
      cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-05', titulos,
    }))
    created(await operador.call('POST', `/api/operacoes/${op.id}/cotacao`))
    created(await operador.call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key()), 200)
    const term = { termo_sha256: 'c'.repeat(64), assinado_em: '2026-10-05T14:00:00Z', signatarios: [{ nome: 'Sócia\u0000', documento: '111.444.777-35' }] }
    await refused('POST', `/api/operacoes/${op.id}/formalizacao`, term, ['body', 'signatarios', 0, 'nome'], 'Sócia\u0000')
    await refused('POST', `/api/operacoes/${op.id}/cancelamento`, { motivo: 'desistência\u0000' }, ['body', 'motivo'], 'desistência\u0000', key())
    assert.equal(created(await operador.call('GET', `/api/operacoes/${op.id}`), 200).estado, 'aceita')
    created(await operador.call('POST', `/api/operacoes/${op.id}/cancelamento`, { motivo: 'desistência' }, key()), 200)
  })

  it('in an agent\'s tool call: refused with the same item, and the tool does nothing', async (t) => {
    const { clienteId, operador } = await backOffice(ctx.db, ctx.app, clock)
    const token = (await withTenant(ctx.db, clienteId, (tx) => createToken(tx, {
      clienteId, usuarioId: operador.usuarioId, nome: 'agente', escopos: ['mcp', 'cadastro', 'operacoes'],
      expiraEm: new Date(clock.now().getTime() + 86_400_000), dpopJkt: null,
    }, { actor: { tipo: 'usuario', id: operador.usuarioId }, now: clock.now() }))).token
    const agent = await mcpClient(t, ctx.base, token)
    const r = await agent.callTool({ name: 'listar_cedentes', arguments: { documento: '11.222\u0000' } })
    assert.equal(r.isError, true, JSON.stringify(r.content))
    const [content] = r.content as { text: string }[]
    assert.deepEqual(JSON.parse(content!.text), nulAt(['body', 'documento'], '11.222\u0000'))
  })
})

// One customer must not starve the others (issue 31 item 9): 50 requests of 1,000 títulos once made one operation of
// 50,000, whose every read answered 40 MB. An operation holds at most OPERACAO_MAX_TITULOS títulos (5,000 unless set):
// a draft or an addition past it is 409 limite_de_titulos, naming the limit and the setting; nothing is added.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { loadConfig } from '../../../src/config.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { backOffice, created, exampleRegisters, exampleTitles, settableClock } from './helpers.ts'

describe('the títulos an operation may hold', () => {
  const clock = settableClock('2026-10-05T15:00:00Z')
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off', OPERACAO_MAX_TITULOS: '4' }, deps: { clock } })

  it('5,000 unless set; the setting\'s bounds are told by name', () => {
    assert.equal(loadConfig({}).maxTitulosPorOperacao, 5000)
    assert.throws(() => loadConfig({ OPERACAO_MAX_TITULOS: '0' }), /OPERACAO_MAX_TITULOS/)
  })

  it('past OPERACAO_MAX_TITULOS a draft and an addition are 409 limite_de_titulos, and nothing is added; up to it, taken', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const regs = await exampleRegisters(operador.call)
    const sacados = regs.sacados.map((s: { id: string }) => s.id)
    const titulos = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ ...exampleTitles(sacados)[i % 3]!, numero: `N${from + i}` }))
    const draft = (list: object[]) => operador.call('POST', '/api/operacoes', { cedente_id: regs.cedente.id, produto_id: regs.produto.id, titulos: list })

    const tooMany = await draft(titulos(5))
    assert.equal(tooMany.statusCode, 409, tooMany.body)
    assert.deepEqual(tooMany.json(),
      { detail: 'limite_de_titulos', limite: 4, titulos_na_operacao: 0, titulos_enviados: 5, configuracao: 'OPERACAO_MAX_TITULOS' })

    const op = created(await draft(titulos(3)))
    const over = await operador.call('POST', `/api/operacoes/${op.id}/titulos`, { titulos: titulos(2, 3) })
    assert.equal(over.statusCode, 409, over.body)
    assert.deepEqual(over.json(), { detail: 'limite_de_titulos', limite: 4, titulos_na_operacao: 3, titulos_enviados: 2, configuracao: 'OPERACAO_MAX_TITULOS' })
    assert.equal(created(await operador.call('GET', `/api/operacoes/${op.id}`), 200).titulos.length, 3, 'nothing added')
    // The addition answers what it added and the new totals, not the whole operation (no large answer kept under a key).
    const added = created(await operador.call('POST', `/api/operacoes/${op.id}/titulos`, { titulos: titulos(1, 3) }))
    assert.deepEqual(Object.keys(added).sort(), ['adicionados', 'operacao'])
    assert.deepEqual(added.adicionados.map((t: { numero: string }) => t.numero), ['N3'])
    assert.equal(added.operacao.quantidade_titulos, 4)
    assert.equal(added.operacao.valor_face_centavos, 1_000_000 + 2_500_000 + 1_500_000 + 1_000_000)
  })
})

// POST /api/simulacoes: the quote's pricing on títulos and terms given inline or by product, for any date, storing
// nothing; a person who only reads operations (consulta) may simulate.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'
import { rowsAs } from '../../helpers/credentials.ts'
import { backOffice, created, EXAMPLE_NOW, EXAMPLE_PRODUCT, person, SAO_PAULO, settableClock } from './helpers.ts'

const TITULOS = [
  { tipo: 'duplicata_mercantil', vencimento: '2026-11-04', valor_face_centavos: 1_000_000, municipio_ibge: SAO_PAULO },
  { tipo: 'duplicata_servico', vencimento: '2026-11-20', valor_face_centavos: 2_500_000, municipio_ibge: SAO_PAULO },
  { tipo: 'cheque', vencimento: '2026-12-04', valor_face_centavos: 1_500_000, uf: 'SP' },
]
const { nome: _nome, ...TERMS } = EXAMPLE_PRODUCT

describe('POST /api/simulacoes', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('prices the acceptance example inline and by product to the same centavo, and stores nothing', async () => {
    const { clienteId, operador } = await backOffice(ctx.db, ctx.app)
    const consulta = await person(ctx.db, clienteId, 'consulta', ctx.app)
    const inline = created(await consulta.call('POST', '/api/simulacoes', { data_operacao: '2026-10-05', perfil_iof: 'pj', ...TERMS, titulos: TITULOS }), 200)
    assert.equal(inline.totais.valor_liquido_centavos, 4_637_053)
    assert.equal(inline.produto, null)
    assert.deepEqual(inline.linhas.map((l: { preco_compra_centavos: number }) => l.preco_compra_centavos), [952_841, 2_325_146, 1_374_066])
    const produto = created(await operador.call('POST', '/api/produtos', EXAMPLE_PRODUCT))
    const byProduct = created(await consulta.call('POST', '/api/simulacoes', { data_operacao: '2026-10-05', perfil_iof: 'pj', produto_id: produto.id,
      titulos: TITULOS }), 200)
    assert.deepEqual(byProduct.produto, { id: produto.id, versao: 1 })
    assert.deepEqual(byProduct.linhas, inline.linhas)
    assert.deepEqual(byProduct.totais, inline.totais)
    const stored = await rowsAs<{ n: number }>(ctx.db, clienteId, 'SELECT (SELECT count(*) FROM operacoes) + (SELECT count(*) FROM cotacoes) AS n')
    assert.equal(Number(stored[0]!.n), 0)
  })

  it('a past date prices with the IOF rules then in force; the customer\'s state holiday moves a due date', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app)
    const past = created(await operador.call('POST', '/api/simulacoes', {
      data_operacao: '2025-05-02', perfil_iof: 'pj', ...TERMS, titulos: [{ tipo: 'cheque', vencimento: '2025-06-02', valor_face_centavos: 1_000_000 }],
    }), 200)
    assert.equal(past.iof_aliquotas[0].taxa_diaria, '0.000041')
    assert.equal(past.iof_aliquotas[0].vigencia_fim, '2025-05-22')
    created(await operador.call('POST', '/api/feriados', { data: '2026-11-04', descricao: 'Feriado estadual de teste', uf: 'SP' }))
    const moved = created(await operador.call('POST', '/api/simulacoes', { data_operacao: '2026-10-05', perfil_iof: 'pj', ...TERMS, titulos: TITULOS }), 200)
    assert.equal(moved.linhas[0].vencimento_util, '2026-11-05')
    assert.ok(moved.feriados.some((h: { data: string, descricao: string }) => h.data === '2026-11-04' && h.descricao === 'Feriado estadual de teste'))
  })

  it('terms both by product and inline, or neither, and a due date not after the date: 422 with every item', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app)
    const res = await operador.call('POST', '/api/simulacoes', {
      data_operacao: '2026-10-05', perfil_iof: 'pj', taxa_mensal: '0.03', titulos: [{ tipo: 'cheque', vencimento: '2026-10-05', valor_face_centavos: 1 }],
    })
    assert.equal(res.statusCode, 422)
    const locs = res.json().detail.map((i: { loc: unknown[] }) => i.loc.join('.'))
    for (const l of ['body.base', 'body.taxa_ad_valorem', 'body.iof', 'body.titulos.0.vencimento']) assert.ok(locs.includes(l), `${l} in ${locs}`)
  })

  it('a date before the IOF table is 422 iof_sem_aliquota, never priced with a guess; an exempt profile needs no rate', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app)
    const titulos = [{ tipo: 'cheque', vencimento: '2022-01-31', valor_face_centavos: 1_000_000 }]
    const body = { data_operacao: '2021-12-30', perfil_iof: 'pj', ...TERMS, titulos }
    const res = await operador.call('POST', '/api/simulacoes', body)
    assert.equal(res.statusCode, 422, res.body)
    assert.equal(res.json().detail, 'iof_sem_aliquota')
    created(await operador.call('POST', '/api/simulacoes', { ...body, perfil_iof: 'isento' }), 200)
  })
})

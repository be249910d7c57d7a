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
    const { clienteId, operador } = await backOffice(ctx.db, ctx.app, clock)
    const consulta = await person(ctx.db, clienteId, 'consulta', ctx.app, clock)
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
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
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
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const res = await operador.call('POST', '/api/simulacoes', {
      data_operacao: '2026-10-05', perfil_iof: 'pj', taxa_mensal: '0.03', titulos: [{ tipo: 'cheque', vencimento: '2026-10-05', valor_face_centavos: 1 }],
    })
    assert.equal(res.statusCode, 422)
    const locs = res.json().detail.map((i: { loc: unknown[] }) => i.loc.join('.'))
    for (const l of ['body.base', 'body.taxa_ad_valorem', 'body.iof', 'body.titulos.0.vencimento']) assert.ok(locs.includes(l), `${l} in ${locs}`)
  })

  it('a date before the IOF table is 422 iof_sem_aliquota, never priced with a guess; an exempt profile needs no rate', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const titulos = [{ tipo: 'cheque', vencimento: '2022-01-31', valor_face_centavos: 1_000_000 }]
    const body = { data_operacao: '2021-12-30', perfil_iof: 'pj', ...TERMS, titulos }
    const res = await operador.call('POST', '/api/simulacoes', body)
    assert.equal(res.statusCode, 422, res.body)
    assert.equal(res.json().detail, 'iof_sem_aliquota')
    created(await operador.call('POST', '/api/simulacoes', { ...body, perfil_iof: 'isento' }), 200)
  })

  it('terms that price to nothing are 422 cotacao_inviavel, as a quote answers, never negative money (issue 31 item 2)', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    // The reported case: 99 % a month over 191 days on R$ 1,000 once answered a purchase price of −R$ 5,199.79.
    const titulos = [{ tipo: 'duplicata_mercantil', vencimento: '2027-04-14', valor_face_centavos: 100_000 }]
    const body = { data_operacao: '2026-10-05', perfil_iof: 'pj', ...TERMS, taxa_mensal: '0.99', titulos }
    const price = await operador.call('POST', '/api/simulacoes', body)
    assert.equal(price.statusCode, 422, price.body)
    assert.deepEqual(price.json(), { detail: 'cotacao_inviavel', motivo: 'preco_nao_positivo', indice: 0 })
    // Each line priced above zero, but a tarifa de cadastro larger than them all.
    const net = await operador.call('POST', '/api/simulacoes', { ...body, taxa_mensal: TERMS.taxa_mensal, tac_centavos: 99_999_999 })
    assert.equal(net.statusCode, 422, net.body)
    assert.deepEqual(net.json(), { detail: 'cotacao_inviavel', motivo: 'liquido_nao_positivo' })
    created(await operador.call('POST', '/api/simulacoes', { ...body, taxa_mensal: TERMS.taxa_mensal }), 200)
  })

  it('the customers\' page of /docs explains the pricing with the example: its every amount is what the service answers', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const md = (await ctx.app.inject({ url: '/docs', headers: { accept: 'text/markdown' } })).body
    const section = md.slice(md.indexOf('## Precificação'), md.indexOf('## Endpoints'))
    assert.ok(section.length > 1000, 'the section is on the page')
    // "R$ 9.528,41" is 952841 centavos.
    const centavos = (reais: string) => Number(reais.replace(/^R\$\s*/, '').replaceAll('.', '').replace(',', ''))
    const rows = section.split('\n').filter((l) => /^\| (Duplicata|Cheque)/.test(l)).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()))
    assert.equal(rows.length, 3)
    const sim = created(await operador.call('POST', '/api/simulacoes', { data_operacao: '2026-10-05', perfil_iof: 'pj', ...TERMS, titulos: TITULOS }), 200)
    rows.forEach(([, face, dates, dias, desagio, adValorem, tarifa, iof, preco], k) => {
      const l = sim.linhas[k]
      assert.equal(centavos(face!), l.valor_face_centavos, `line ${k + 1} face`)
      assert.equal(dates!.split('→')[1]!.trim(), `${l.vencimento_util.slice(8, 10)}/${l.vencimento_util.slice(5, 7)}`, `line ${k + 1} due`)
      assert.equal(Number(dias), l.dias_desconto)
      assert.equal(centavos(desagio!), l.desagio_centavos)
      assert.equal(centavos(adValorem!), l.ad_valorem_centavos)
      assert.equal(centavos(tarifa!), l.tarifa_centavos)
      assert.deepEqual(iof!.split('+').map((x) => centavos(x.trim())), [l.iof_diario_centavos, l.iof_adicional_centavos])
      assert.equal(centavos(preco!), l.preco_compra_centavos)
    })
    const totals = section.slice(section.indexOf('Totais:'))
    const said = (label: string) => centavos(new RegExp(`${label} (R\\$ [0-9.,]+)`).exec(totals)![1]!)
    assert.equal(said('face'), sim.totais.valor_face_centavos)
    assert.equal(said('deságio'), sim.totais.desagio_centavos)
    assert.equal(said('tarifas'), sim.totais.tarifas_centavos)
    assert.equal(said('tarifa de cadastro'), sim.totais.tac_centavos)
    assert.equal(said('IOF'), sim.totais.iof_centavos)
    assert.equal(said('valor líquido'), sim.totais.valor_liquido_centavos)
    assert.match(totals, new RegExp(`prazo médio ${sim.prazo_medio_dias.replace('.', ',')} dias`))
    const composta = created(await operador.call('POST', '/api/simulacoes', { data_operacao: '2026-10-05', perfil_iof: 'pj', ...TERMS, base: 'composta_30',
      titulos: TITULOS.slice(0, 1) }), 200)
    assert.equal(said('primeiro título seria'), composta.linhas[0].desagio_centavos)
  })
})

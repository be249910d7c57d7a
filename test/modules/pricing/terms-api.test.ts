// /api/produtos: pricing terms kept exactly (rates as decimal strings, money as integers), versioned (a version
// never changes, the next is numbered under a lock), each rule refused with its 422 item, another customer's
// product not found; and the stored terms price the acceptance example to the centavo.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { price, type Terms } from '../../../src/modules/pricing/engine.ts'
import { iofTable } from '../../../src/modules/pricing/iof/store.ts'
import { bearer, issueToken } from '../../helpers/api-credentials.ts'
import { auditRows, customer } from '../../helpers/credentials.ts'
import { asOwner } from '../../helpers/database.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { exampleInput } from './example.ts'

/** The acceptance example's terms (produto.md §2.6), as a customer posts them. */
const EXAMPLE = {
  nome: 'Duplicatas 3,5%', base: 'simples_30', taxa_mensal: '0.035', taxa_ad_valorem: '0.003', tarifa_por_titulo_centavos: 800, tac_centavos: 15_000,
  dias_float: { duplicata_mercantil: 2, duplicata_servico: 2, cheque: 2, nota_promissoria: 2, ccb: 2, cte: 2 }, iof: 'calcular',
}

describe('/api/produtos', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' } })
  const setup = async () => {
    const c = await customer(ctx.db)
    const { token } = await issueToken(ctx.db, c.id, { escopos: ['cadastro'] })
    return {
      c,
      post: (url: string, payload: object) => bearer(ctx.app, token, 'POST', url, { payload }),
      get: (url: string) => bearer(ctx.app, token, 'GET', url),
    }
  }

  it('keeps the terms exactly, and they price the acceptance example to the centavo', async () => {
    const { post } = await setup()
    const res = await post('/api/produtos', EXAMPLE)
    assert.equal(res.statusCode, 201, res.body)
    const [v] = res.json().versoes
    assert.equal(res.json().versao, 1)
    assert.deepEqual([v.taxa_mensal, v.taxa_ad_valorem, v.tarifa_por_titulo_centavos, v.tac_centavos, v.iof], ['0.035', '0.003', 800, 15_000, 'calcular'])
    const terms: Terms = {
      base: v.base, taxaMensal: v.taxa_mensal, taxaAdValorem: v.taxa_ad_valorem, tarifaPorTituloCentavos: BigInt(v.tarifa_por_titulo_centavos),
      tacCentavos: BigInt(v.tac_centavos), diasFloat: v.dias_float, iof: v.iof,
    }
    const quote = price({ ...exampleInput(), terms, iofTable: await iofTable(ctx.db.orm) })
    assert.equal(quote.totais.valorLiquido, 4_637_053n)
  })

  it('a type of título left out of dias_float is 0', async () => {
    const { post } = await setup()
    const res = await post('/api/produtos', { ...EXAMPLE, dias_float: { cheque: 3 } })
    assert.deepEqual(res.json().versoes[0].dias_float,
      { duplicata_mercantil: 0, duplicata_servico: 0, cheque: 3, nota_promissoria: 0, ccb: 0, cte: 0 })
  })

  it('versions: the next one numbered once each, even at once; read newest first; a list shows the latest', async () => {
    const { post, get } = await setup()
    const id = (await post('/api/produtos', EXAMPLE)).json().id
    const { nome: _n, ...terms } = EXAMPLE
    const made = await Promise.all([0.04, 0.041, 0.042, 0.043, 0.044].map((r) => post(`/api/produtos/${id}/versoes`, { ...terms, taxa_mensal: String(r) })))
    assert.deepEqual(made.map((m) => m.statusCode), [201, 201, 201, 201, 201])
    const read = (await get(`/api/produtos/${id}`)).json()
    assert.deepEqual(read.versoes.map((v: { versao: number }) => v.versao), [6, 5, 4, 3, 2, 1])
    assert.equal(read.versao, 6)
    const listed = (await get('/api/produtos')).json().itens
    assert.deepEqual(listed.map((p: { versoes: unknown[], versao: number }) => [p.versoes.length, p.versao]), [[1, 6]])
  })

  it('each rule is a 422 item: rates as decimal strings in range, float days 0–10 of known types, an exemption with its reason', async () => {
    const { post } = await setup()
    const bad: [Record<string, unknown>, string][] = [
      [{ taxa_mensal: '0' }, 'body.taxa_mensal'], [{ taxa_mensal: '1' }, 'body.taxa_mensal'], [{ taxa_mensal: 0.035 }, 'body.taxa_mensal'],
      [{ taxa_mensal: '0.0350000000001' }, 'body.taxa_mensal'], [{ taxa_ad_valorem: '-0.01' }, 'body.taxa_ad_valorem'],
      [{ tac_centavos: 150.5 }, 'body.tac_centavos'], [{ dias_float: { cheque: 11 } }, 'body.dias_float.cheque'],
      [{ dias_float: { boleto: 1 } }, 'body.dias_float.boleto'], [{ iof: 'isento' }, 'body.motivo_isencao'], [{ base: 'composta_360' }, 'body.base'],
    ]
    for (const [change, loc] of bad) {
      const res = await post('/api/produtos', { ...EXAMPLE, ...change })
      assert.equal(res.statusCode, 422, JSON.stringify(change))
      assert.ok((res.json().detail as { loc: string[] }[]).some((i) => i.loc.join('.') === loc), `${JSON.stringify(change)}: ${res.body}`)
    }
    const exempt = await post('/api/produtos', { ...EXAMPLE, iof: 'isento', motivo_isencao: 'FIDC comprador' })
    assert.equal(exempt.json().versoes[0].motivo_isencao, 'FIDC comprador')
  })

  it('an id_externo held is 409 with its id; another customer\'s product is not found; both audited for their own', async () => {
    const mine = await setup()
    const theirs = await setup()
    const first = (await mine.post('/api/produtos', { ...EXAMPLE, id_externo: 'P-1' })).json()
    assert.deepEqual((await mine.post('/api/produtos', { ...EXAMPLE, id_externo: 'P-1' })).json(), { detail: 'id_externo_em_uso', id: first.id })
    assert.equal((await theirs.get(`/api/produtos/${first.id}`)).statusCode, 404)
    const { nome: _n, ...terms } = EXAMPLE
    assert.equal((await theirs.post(`/api/produtos/${first.id}/versoes`, terms)).statusCode, 404)
    assert.equal((await mine.post(`/api/produtos/${first.id}/versoes`, terms)).statusCode, 201)
    const audit = (await auditRows(ctx.db, mine.c.id)).filter((r) => String(r.acao).startsWith('produto.')).map((r) => r.acao).sort()
    assert.deepEqual(audit, ['produto.criado', 'produto.versao_criada'])
  })

  it('a version never changes: no grant for the service, a trigger for the owner', async () => {
    const { post } = await setup()
    await post('/api/produtos', EXAMPLE)
    for (const statement of ["UPDATE produto_versoes SET taxa_mensal = 0.5", 'DELETE FROM produto_versoes', 'TRUNCATE produto_versoes']) {
      await assert.rejects(ctx.db.orm.execute(sql.raw(statement)), (err: Error & { cause?: { code?: string } }) => err.cause?.code === '42501', statement)
      await assert.rejects(asOwner(ctx.db, statement), /never changes/, statement)
    }
  })
})

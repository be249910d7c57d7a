// The IOF table shipped with the service (migration 0016): the 2025 changes of the rules row by row as the acts
// published them, each row's end the day before the next, the acceptance example priced with it to the centavo,
// no row ever changed (the owner included), and the operator's `iof adicionar` only ever appending.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { price } from '../../../src/modules/pricing/engine.ts'
import { rateOn } from '../../../src/modules/pricing/iof-rates.ts'
import { iofTable } from '../../../src/modules/pricing/iof/store.ts'
import { bearer, issueToken } from '../../helpers/api-credentials.ts'
import { cliRunner } from '../../helpers/cli.ts'
import { customer } from '../../helpers/credentials.ts'
import { asOwner } from '../../helpers/database.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { exampleInput } from './example.ts'

/** What each act set for an ordinary company's credit (the rows' facts, as published): start, end, daily, additional. */
const PJ = [
  ['2022-01-01', '2025-05-22', '0.000041', '0.0038'], // Decreto 6.306/2007 as in force before 2025
  ['2025-05-23', '2025-06-10', '0.000082', '0.0095'], // Decreto 12.466/2025
  ['2025-06-11', '2025-06-26', '0.000082', '0.0038'], // Decreto 12.499/2025
  ['2025-06-27', '2025-07-15', '0.000041', '0.0038'], // Decreto Legislativo 176/2025
  ['2025-07-16', null, '0.000082', '0.0038'], // STF, 16/07/2025: Decreto 12.499 restored
]

describe('the IOF table', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' } })

  it('answers every row with its source, each ending the day before the next of its profile', async () => {
    const c = await customer(ctx.db)
    const { token } = await issueToken(ctx.db, c.id, { escopos: ['conta'] })
    const res = await bearer(ctx.app, token, 'GET', '/api/iof/aliquotas')
    assert.equal(res.statusCode, 200, res.body)
    type Row = { perfil: string, vigencia_inicio: string, vigencia_fim: string | null, taxa_diaria: string, taxa_adicional: string, fonte: string }
    const rows = res.json().itens as Row[]
    assert.deepEqual(rows.filter((r) => r.perfil === 'pj').map((r) => [r.vigencia_inicio, r.vigencia_fim, r.taxa_diaria, r.taxa_adicional]), PJ)
    assert.deepEqual(rows.filter((r) => r.perfil === 'pj_simples').map((r) => [r.vigencia_inicio, r.taxa_diaria, r.taxa_adicional]), [
      ['2022-01-01', '0.0000137', '0.0038'], ['2025-05-23', '0.0000274', '0.0095'], ['2025-06-11', '0.0000274', '0.0038'],
      ['2025-06-27', '0.0000137', '0.0038'], ['2025-07-16', '0.0000274', '0.0038'],
    ])
    assert.deepEqual(rows.filter((r) => r.perfil === 'pf').map((r) => [r.vigencia_inicio, r.vigencia_fim, r.taxa_diaria]), [['2022-01-01', null, '0.000082']])
    for (const r of rows) assert.ok(r.fonte.length > 20 && /Decreto|STF/.test(r.fonte), r.fonte)
    assert.equal((await ctx.app.inject({ url: '/api/iof/aliquotas' })).statusCode, 401)
  })

  it('prices the acceptance example to the centavo with the shipped table; a day before the table is refused', async () => {
    const table = await iofTable(ctx.db.orm)
    const quote = price({ ...exampleInput(), iofTable: table })
    assert.equal(quote.totais.valorLiquido, 4_637_053n)
    assert.equal(quote.totais.iof, 35_964n)
    assert.equal(rateOn(table, 'pj', '2025-06-11')?.taxaAdicional, '0.0038')
    assert.equal(rateOn(table, 'pj', '2025-06-10')?.taxaAdicional, '0.0095')
    assert.equal(rateOn(table, 'pj', '2021-12-31'), undefined)
    assert.throws(() => price({ ...exampleInput(), dataOperacao: '2021-12-30', iofTable: table }), { code: 'iof_sem_aliquota' })
  })

  it('no row is ever changed or removed: the service has no grant, and the owner meets a trigger', async () => {
    const statements = [
      "UPDATE iof_aliquotas SET taxa_adicional = 0 WHERE perfil = 'pf'", "DELETE FROM iof_aliquotas WHERE perfil = 'pf'", 'TRUNCATE iof_aliquotas',
    ]
    for (const statement of statements) {
      await assert.rejects(ctx.db.orm.execute(sql.raw(statement)), (err: Error & { cause?: { code?: string } }) => err.cause?.code === '42501', statement)
      await assert.rejects(asOwner(ctx.db, statement), /never changed or removed/, statement)
    }
  })

  it('the operator appends a row for new rules; one that does not start after the latest is refused, nothing changed', async () => {
    const { lines, cli } = cliRunner(() => ctx.db)
    const add = (inicio: string) => cli('iof', 'adicionar', '--perfil', 'pf', '--inicio', inicio, '--taxa-diaria', '0.0001', '--taxa-adicional', '0.0038',
      '--fonte', 'Decreto hipotético de teste')
    assert.equal(await add('2030-01-01'), 0, lines.join('\n'))
    const pf = (await iofTable(ctx.db.orm)).filter((r) => r.perfil === 'pf')
    assert.deepEqual(pf.map((r) => [r.vigenciaInicio, r.vigenciaFim, r.taxaDiaria]), [['2022-01-01', '2029-12-31', '0.000082'], ['2030-01-01', null, '0.0001']])
    assert.equal(await add('2029-06-01'), 1)
    assert.match(lines.join('\n'), /pf's latest row starts on 2030-01-01/)
    assert.equal(await cli('iof', 'adicionar', '--perfil', 'isento', '--inicio', '2031-01-01'), 2)
    const row = (inicio: string, diaria: string) => ['iof', 'adicionar', '--perfil', 'pf', '--inicio', inicio, '--taxa-diaria', diaria,
      '--taxa-adicional', '0', '--fonte', 'Decreto X']
    assert.equal(await cli(...row('2031-02-30', '0.1')), 2, 'no such day')
    assert.equal(await cli(...row('2031-01-01', '1.5')), 2, 'not a fraction')
    assert.equal(await cli('iof', 'listar'), 0)
    assert.match(lines.join('\n'), /^pf\t2030-01-01\t-\t0\.0001\t0\.0038\tDecreto hipotético de teste$/m)
  })
})

// A quote reads its registers through fixed statements in its transaction (readInTransaction); each read's answer
// is compared with the ORM's own read of the same rows, the independent check of every column: days, numeric
// rates, bigint money, JSON, instants. On both databases; and on PostgreSQL, that an acceptance's reads take the row
// locks a limit check needs.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import pg from 'pg'
import { asc, eq, inArray } from 'drizzle-orm'
import { readInTransaction } from '../../../src/platform/db/in-transaction.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { ownHolidays, ownHolidaysRead } from '../../../src/modules/calendar/index.ts'
import { cedenteOf, cedenteRead, sacadosOf, sacadosRead } from '../../../src/modules/operations/flow/registers.ts'
import { cedentes, sacados as sacadosTable } from '../../../src/modules/origination/index.ts'
import { titlesRead } from '../../../src/modules/operations/store.ts'
import { titulos } from '../../../src/modules/operations/tables.ts'
import { getProduct, iofTable, iofTableRead, latestVersionRead } from '../../../src/modules/pricing/index.ts'
import { onPostgresOnly } from '../../helpers/database.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, exampleRegisters, exampleTitles, settableClock } from './helpers.ts'

describe("a quote's reads", () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('answer exactly what the ORM reads for the same rows', async () => {
    const { operador, clienteId } = await backOffice(ctx.db, ctx.app, clock)
    const { produto, cedente, sacados } = await exampleRegisters(operador.call)
    // A second version, so "latest" has one to skip; a holiday of the customer's, so the window has a row.
    created(await operador.call('POST', `/api/produtos/${produto.id}/versoes`, {
      base: 'composta_30', taxa_mensal: '0.012345678901', taxa_ad_valorem: '0.000000000001', tarifa_por_titulo_centavos: 9_007_199_254_740_991,
      tac_centavos: 0, dias_float: { cheque: 3 }, iof: 'isento', motivo_isencao: 'FIDC',
    }))
    created(await operador.call('POST', '/api/feriados', { data: '2026-11-19', descricao: 'Feriado do cliente "teste" ç', uf: 'SP' }))
    const ids: string[] = sacados.map((s: { id: string }) => s.id)
    const op = created(await operador.call('POST', '/api/operacoes', {
      cedente_id: cedente.id, produto_id: produto.id, data_operacao: '2026-10-05', titulos: exampleTitles(ids),
    }))
    const range = { de: '2026-10-05', ate: '2027-01-13' }
    await withTenant(ctx.db, clienteId, async (tx) => {
      const [titles, version, cedenteRow, iof, sacadoRows, own] = await readInTransaction(tx, [
        titlesRead(op.id), latestVersionRead(produto.id), cedenteRead(cedente.id), iofTableRead(), sacadosRead([...ids, ids[0]!]), ownHolidaysRead(range),
      ] as const)
      assert.equal(titles.length, 3)
      assert.deepEqual(titles, await tx.select().from(titulos).where(eq(titulos.operacaoId, op.id)).orderBy(asc(titulos.seq)))
      const product = await getProduct(tx, produto.id, 'latest')
      assert.equal(version!.versao, 2)
      assert.deepEqual(version, product!.versoes[0])
      assert.equal(version!.tarifaPorTituloCentavos, 9_007_199_254_740_991n)
      const [ormCedente] = await tx.select().from(cedentes).where(eq(cedentes.id, cedente.id))
      assert.deepEqual(cedenteRow, ormCedente)
      assert.deepEqual(iof, await iofTable(tx))
      const ormSacados = await tx.select().from(sacadosTable).where(inArray(sacadosTable.id, ids)).orderBy(asc(sacadosTable.id))
      assert.deepEqual([...sacadoRows.values()], ormSacados)
      // Read on their own, and locked as an acceptance reads them: the same rows.
      assert.deepEqual(await cedenteOf(tx, cedente.id, true), ormCedente)
      assert.deepEqual([...(await sacadosOf(tx, ids, true)).values()], ormSacados)
      assert.deepEqual(await sacadosOf(tx, [], true), new Map())
      assert.equal(own.length, 1)
      assert.deepEqual(own, await ownHolidays(tx, range))
      const [missing] = await readInTransaction(tx, [latestVersionRead('00000000-0000-4000-8000-000000000000')] as const)
      assert.equal(missing, undefined)
    })
  })

  const lockSkip = { skip: onPostgresOnly('row locks between sessions') }
  it('an acceptance\'s reads lock the cedente and its sacados until its transaction ends; a quote\'s lock nothing', lockSkip, async (t) => {
    const { operador, clienteId } = await backOffice(ctx.db, ctx.app, clock)
    const { cedente, sacados } = await exampleRegisters(operador.call)
    const ids: string[] = sacados.map((s: { id: string }) => s.id)
    const other = new pg.Client({ connectionString: ctx.url })
    await other.connect()
    t.after(() => other.end())
    const taken = async () => {
      const tries = [['cedentes', [cedente.id]], ['sacados', ids]] as const
      return Promise.all(tries.map(([table, list]) => other.query(`SELECT id FROM ${table} WHERE id = ANY($1::uuid[]) FOR UPDATE NOWAIT`, [list])
        .then(() => false, (err: { code?: string }) => { if (err.code === '55P03') return true; throw err })))
    }
    await withTenant(ctx.db, clienteId, async (tx) => {
      await cedenteOf(tx, cedente.id)
      await sacadosOf(tx, ids)
      assert.deepEqual(await taken(), [false, false], 'a quote\'s reads')
      await cedenteOf(tx, cedente.id, true)
      await sacadosOf(tx, ids, true)
      assert.deepEqual(await taken(), [true, true], 'an acceptance\'s reads')
    })
    assert.deepEqual(await taken(), [false, false], 'released with the transaction')
  })
})

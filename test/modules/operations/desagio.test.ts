// The deságio earned day by day (issue 33): each título's share of its quote's deságio over the line's days, one
// entry a customer's day, a day once however often it runs (at once too), missed days caught up each on its own
// date, and, run past every due date, exactly the quote's deságio moved from "a apropriar" to income with the trial
// balance closed after every run.
import assert from 'node:assert/strict'
import { sql } from 'drizzle-orm'
import { describe, it } from 'node:test'
import { appropriateDay, appropriateUntil, desagioJob } from '../../../src/modules/operations/desagio.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, formalizedExample, settableClock } from './helpers.ts'

type Line = { titulo_id: string, desagio_centavos: number, dias_desconto: number }

describe('the deságio earned day by day', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ deps: { clock } })

  async function accepted() {
    const office = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await formalizedExample(office.operador.call)
    const read = created(await office.operador.call('GET', `/api/operacoes/${op.id}`), 200)
    const lines = read.cotacao.linhas as Line[]
    return { office, op, lines, total: BigInt(read.cotacao.totais.desagio_centavos) }
  }
  const entries = (clienteId: string) => withTenant(ctx.db, clienteId, (tx) => queryRows<{ data: string, debito: string, historico: string }>(tx, sql`
    SELECT l.data::text AS data, sum(ll.debito_centavos)::text AS debito, l.historico FROM lancamentos l JOIN lancamento_linhas ll ON ll.lancamento_id = l.id
     WHERE l.origem_tipo = 'apropriacao_desagio' GROUP BY l.id, l.data, l.historico ORDER BY l.data`))
  const balance = (clienteId: string, conta: string) => withTenant(ctx.db, clienteId, async (tx) => BigInt((await queryRows<{ s: string }>(tx, sql`
    SELECT coalesce(sum(credito_centavos - debito_centavos), 0)::text AS s FROM lancamento_linhas WHERE conta = ${conta}`))[0]!.s))

  it('keeps each título\'s deságio and days from the accepted quote, and earns each day its share, in one entry', async () => {
    const { office, lines } = await accepted()
    const rows = await withTenant(ctx.db, office.clienteId, (tx) => queryRows<{ id: string, desagio_centavos: string, desagio_dias: number }>(tx,
      sql`SELECT id, desagio_centavos::text AS desagio_centavos, desagio_dias FROM titulos ORDER BY seq`))
    assert.deepEqual(rows.map((r) => [r.id, Number(r.desagio_centavos), r.desagio_dias]), lines.map((l) => [l.titulo_id, l.desagio_centavos, l.dias_desconto]))

    const day = await appropriateDay(ctx.db, office.clienteId, '2026-10-06', clock.now())
    // One day of each: floor(deságio ÷ days), reckoned here from the quote's own lines.
    const expected = lines.reduce((s, l) => s + BigInt(Math.floor(l.desagio_centavos / l.dias_desconto)), 0n)
    assert.deepEqual(day, { dia: '2026-10-06', centavos: expected, titulos: 3 })
    assert.deepEqual(await entries(office.clienteId), [{ data: '2026-10-06', debito: String(expected), historico: 'Apropriação do deságio de 06/10/2026' }])
    assert.equal(await balance(office.clienteId, 'receita_desagio'), expected)
  })

  it('appropriates a day once, however often and however many at once', async () => {
    const { office } = await accepted()
    const runs = await Promise.all([1, 2, 3, 4].map(() => appropriateDay(ctx.db, office.clienteId, '2026-10-07', clock.now())))
    assert.equal(runs.filter(Boolean).length, 1, 'one of four concurrent runs did the day')
    assert.equal(await appropriateDay(ctx.db, office.clienteId, '2026-10-07', clock.now()), undefined)
    assert.equal((await entries(office.clienteId)).length, 1)
  })

  it('catches up missed days one by one, each dated as its own, and earns exactly the quote\'s deságio by the last due date', async () => {
    const { office, total, lines } = await accepted()
    const acquired = await balance(office.clienteId, 'desagio_a_apropriar')
    assert.equal(acquired, total, 'the acquisition credited the whole deságio to "a apropriar"')
    await appropriateUntil(ctx.db, '2026-10-10', clock.now())
    assert.deepEqual((await entries(office.clienteId)).map((e) => e.data), ['2026-10-06', '2026-10-07', '2026-10-08', '2026-10-09', '2026-10-10'])

    await appropriateUntil(ctx.db, '2027-02-01', clock.now())
    assert.equal(await balance(office.clienteId, 'receita_desagio'), total, 'all of it, to the centavo')
    assert.equal(await balance(office.clienteId, 'desagio_a_apropriar'), 0n)
    const last = Math.max(...lines.map((l) => l.dias_desconto))
    assert.equal((await entries(office.clienteId)).length, last, 'a day each, up to the longest line\'s last')
    const before = (await entries(office.clienteId)).length
    assert.equal(await appropriateUntil(ctx.db, '2027-02-01', clock.now()), 0, 'nothing left: nothing done')
    assert.equal((await entries(office.clienteId)).length, before)
    // The trial balance closes: every customer's debits equal its credits.
    const [tb] = await withTenant(ctx.db, office.clienteId, (tx) => queryRows<{ d: string, c: string }>(tx,
      sql`SELECT sum(debito_centavos)::text AS d, sum(credito_centavos)::text AS c FROM lancamento_linhas`))
    assert.equal(tb!.d, tb!.c)
  })

  it('gives back what was earned when the operation is cancelled: "a apropriar" and the income both end at zero', async () => {
    const { office, op } = await accepted()
    await appropriateUntil(ctx.db, '2026-10-20', clock.now())
    const earned = await balance(office.clienteId, 'receita_desagio')
    assert.ok(earned > 0n)
    created(await office.operador.call('POST', `/api/operacoes/${op.id}/cancelamento`, { motivo: 'cedente desistiu da operação' }), 200)
    assert.equal(await balance(office.clienteId, 'receita_desagio'), 0n)
    assert.equal(await balance(office.clienteId, 'desagio_a_apropriar'), 0n)
    await appropriateUntil(ctx.db, '2026-10-25', clock.now())
    assert.equal(await balance(office.clienteId, 'receita_desagio'), 0n, 'a cancelled operation earns nothing more')
  })

  it('is a daily job at 00:30 in Brasília that appropriates the day that ended', async () => {
    const job = desagioJob(ctx.db)
    assert.deepEqual([job.name, job.schedule], ['desagio-apropriacao', { dailyAt: '00:30' }])
    const { office } = await accepted()
    // 2026-10-09 00:30 in Brasília is 03:30 UTC: the 6th, 7th and 8th are appropriated, not the 9th.
    await job.run(new Date('2026-10-09T03:30:00Z'))
    assert.deepEqual((await entries(office.clienteId)).map((e) => e.data), ['2026-10-06', '2026-10-07', '2026-10-08'])
  })
})

// The ledger's entries as a list (issue 32 items 2 and 3): a search in the history or by number, the period, an
// order, a page with the count, never another customer's entry, bad values refused; and CSV with a row a line.
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'
import { readExport } from '../../helpers/csv.ts'
import { backOffice, created, EXAMPLE_NOW, exampleRegisters, exampleTitles, key, settableClock } from '../operations/helpers.ts'

type Office = Awaited<ReturnType<typeof backOffice>>

describe('the ledger\'s entries as a list', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })
  let a: Office
  let b: Office

  before(async () => {
    a = await backOffice(ctx.db, ctx.app, clock)
    b = await backOffice(ctx.db, ctx.app, clock)
    const regs = await exampleRegisters(a.operador.call)
    for (const [i, day] of ['2026-10-05', '2026-10-06', '2026-10-07'].entries()) {
      clock.set(`${day}T15:00:00Z`)
      const op = created(await a.operador.call('POST', '/api/operacoes', {
        cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: day,
        titulos: exampleTitles(regs.sacados.map((s: { id: string }) => s.id)).map((t) => ({ ...t, numero: `${t.numero}-${i}` })),
      }))
      created(await a.operador.call('POST', `/api/operacoes/${op.id}/cotacao`))
      created(await a.operador.call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key()), 200)
    }
    clock.set(EXAMPLE_NOW)
  })

  const list = async (url: string, who: Office = a) => created(await who.admin.call('GET', url), 200)
  const numbers = (body: { itens: { numero: number }[] }) => body.itens.map((e) => e.numero)

  it('searches, filters by period, sorts and pages, with the count', async () => {
    const all = await list('/api/lancamentos?limite=2')
    assert.deepEqual([numbers(all), all.total, all.proximo], [[3, 2], 3, 2])
    assert.deepEqual(numbers(await list('/api/lancamentos?limite=2&antes=2')), [1])
    const history = await list('/api/lancamentos?busca=OPERACAO%20n%C2%BA%202')
    assert.deepEqual(history.itens.map((e: { historico: string }) => e.historico), ['Aquisição da operação nº 2'], 'the history, case and accents aside')
    assert.deepEqual(numbers(await list('/api/lancamentos?busca=3')), [3], 'the entry\'s number')
    const period = await list('/api/lancamentos?de=2026-10-06&ate=2026-10-07&ordem=data')
    assert.deepEqual([numbers(period), period.total], [[2, 3], 2])
    const paged = await list('/api/lancamentos?ordem=numero&limite=2&pagina=2')
    assert.deepEqual([numbers(paged), paged.total, paged.pagina, paged.proximo], [[3], 3, 2, null])
    assert.equal((await list('/api/lancamentos', b)).total, 0)
    for (const q of ['ordem=historico', 'pagina=0', 'de=2026-10-07&ate=2026-10-06', 'antes=2&pagina=1']) {
      assert.equal((await a.admin.call('GET', `/api/lancamentos?${q}`)).statusCode, 422, q)
    }
  })

  it('exports a row per line, with the entry\'s number, day and history', async () => {
    const res = await a.admin.call('GET', '/api/lancamentos?de=2026-10-06&ordem=data', undefined, { accept: 'text/csv' })
    assert.equal(res.statusCode, 200)
    const { rows } = readExport(res.body)
    const json = await list('/api/lancamentos?de=2026-10-06&ordem=data')
    const lines = json.itens.flatMap((e: { numero: number, linhas: unknown[] }) => e.linhas.map(() => String(e.numero)))
    assert.deepEqual(rows.map((r) => r['Lançamento nº']), lines)
    assert.equal(rows[0]!['Data'], '06/10/2026')
    const sum = (k: string) => rows.reduce((s, r) => s + BigInt(r[k]!.replace(',', '')), 0n)
    assert.equal(sum('Débito (R$)'), sum('Crédito (R$)'), 'the lines balance')
    assert.ok(sum('Débito (R$)') > 0n)
  })
})

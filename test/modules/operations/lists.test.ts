// The operations', títulos' and payments' lists as a back office works from them (issue 32 items 2 and 3): a
// search, each filter, an order, a page with the count of all the filtered rows, never another customer's row,
// bad values refused with 422; and the same rows as CSV with Accept: text/csv.
import assert from 'node:assert/strict'
import { describe, it, before } from 'node:test'
import { inBatches, keyOf } from '../../../src/platform/db/list-sql.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { operationRows, operationSort, titleRows, titleSort } from '../../../src/modules/operations/lists.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { readExport } from '../../helpers/csv.ts'
import { backOffice, created, EXAMPLE_NOW, exampleRegisters, exampleTitles, key, settableClock } from './helpers.ts'

type Office = Awaited<ReturnType<typeof backOffice>>
type Op = { id: string, numero: number, data_operacao: string, estado: string }

describe('the operations\', títulos\' and payments\' lists', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })
  let a: Office
  let b: Office
  let regs: Awaited<ReturnType<typeof exampleRegisters>>
  let other: { id: string }
  const ops: Op[] = []

  before(async () => {
    a = await backOffice(ctx.db, ctx.app, clock)
    b = await backOffice(ctx.db, ctx.app, clock)
    regs = await exampleRegisters(a.operador.call)
    other = created(await a.operador.call('POST', '/api/cedentes', {
      documento: '04252011000110', razao_social: 'Fábrica de Ação Ltda', perfil_iof: 'pj', municipio_ibge: '3550308', uf: 'SP',
    }))
    const sacadoIds = regs.sacados.map((s: { id: string }) => s.id)
    const days = ['2026-10-05', '2026-10-06', '2026-10-07', '2026-10-08']
    for (const [i, day] of days.entries()) {
      const titulos = exampleTitles(sacadoIds).map((t) => ({ ...t, numero: `${t.numero}-${i + 1}`, emissao: '2026-10-01',
        vencimento: `2026-${11 + (i % 2)}-${String(4 + i).padStart(2, '0')}` }))
      ops.push(created(await a.operador.call('POST', '/api/operacoes', {
        cedente_id: i === 3 ? other.id : regs.cedente.id, produto_id: regs.produto.id, data_operacao: day, titulos: titulos.slice(0, 1 + (i % 3)),
        ...(i === 2 ? { id_externo: 'ERP-77' } : {}),
      })))
    }
    created(await a.operador.call('POST', `/api/operacoes/${ops[0]!.id}/cotacao`))
    created(await a.operador.call('POST', `/api/operacoes/${ops[0]!.id}/aceite`, { cotacao_versao: 1 }, key()), 200)
    // Customer B's operation, with a cedente named like A's: never in A's lists.
    const regsB = await exampleRegisters(b.operador.call)
    created(await b.operador.call('POST', '/api/operacoes', {
      cedente_id: regsB.cedente.id, produto_id: regsB.produto.id, data_operacao: '2026-10-05',
      titulos: exampleTitles(regsB.sacados.map((s: { id: string }) => s.id)),
    }))
  })

  const list = async (url: string, who: Office = a) => created(await who.operador.call('GET', url), 200)
  const numbers = (body: { itens: { numero: number }[] }) => body.itens.map((o) => o.numero)

  it('operations: the default order with its count, a page, each filter, a search, an order', async () => {
    const all = await list('/api/operacoes?limite=2')
    assert.deepEqual(numbers(all), [4, 3])
    assert.equal(all.total, 4)
    assert.equal(all.proximo, 3, 'antes still pages the default order')
    assert.deepEqual(numbers(await list(`/api/operacoes?limite=2&antes=${all.proximo}`)), [2, 1])
    const second = await list('/api/operacoes?limite=3&pagina=2')
    assert.deepEqual([numbers(second), second.total, second.pagina], [[1], 4, 2])

    assert.deepEqual(numbers(await list(`/api/operacoes?cedente_id=${other.id}`)), [4])
    assert.deepEqual(numbers(await list('/api/operacoes?estado=aceita')), [1])
    const period = await list('/api/operacoes?data_operacao_de=2026-10-06&data_operacao_ate=2026-10-07')
    assert.deepEqual([numbers(period), period.total], [[3, 2], 2])
    assert.deepEqual(numbers(await list('/api/operacoes?busca=acao')), [4], 'the cedente\'s name, case and accents aside')
    assert.deepEqual(numbers(await list('/api/operacoes?busca=04.252.011')), [4], 'the cedente\'s document with its dots')
    assert.deepEqual(numbers(await list('/api/operacoes?busca=erp-77')), [3], 'the id_externo')
    assert.deepEqual(numbers(await list('/api/operacoes?busca=2')), [2], 'the number')
    assert.deepEqual(numbers(await list('/api/operacoes?busca=Ex%25mplo')), [], 'a % typed is looked for, not a wildcard')

    const sorted = await list('/api/operacoes?ordem=data_operacao&limite=3')
    assert.deepEqual([numbers(sorted), sorted.proximo, sorted.total], [[1, 2, 3], null, 4])
    assert.deepEqual(numbers(await list('/api/operacoes?ordem=-data_operacao&pagina=2&limite=3')), [1])
    const combined = await list(`/api/operacoes?cedente_id=${regs.cedente.id}&data_operacao_de=2026-10-06&busca=cedente&ordem=numero`)
    assert.deepEqual([numbers(combined), combined.total], [[2, 3], 2])

    const theirs = await list('/api/operacoes', b)
    assert.deepEqual([numbers(theirs), theirs.total], [[1], 1], 'another customer sees only its own')
    assert.deepEqual(numbers(await list('/api/operacoes?busca=cedente', b)), [1])
  })

  it('títulos across operations: by sacado, due date, estado, search and order, with the count', async () => {
    const all = await list('/api/titulos?limite=200')
    assert.equal(all.total, 1 + 2 + 3 + 1)
    assert.equal(all.itens.length, 7)
    const bySacado = await list(`/api/titulos?sacado_id=${regs.sacados[0].id}`)
    assert.equal(bySacado.total, 4)
    assert.ok(bySacado.itens.every((t: { sacado_id: string }) => t.sacado_id === regs.sacados[0].id))
    const due = await list('/api/titulos?vencimento_de=2026-12-01&vencimento_ate=2026-12-31&ordem=vencimento')
    // December's: the second operation's two (the 5th) and the fourth's one (the 7th), by due day, then as added.
    assert.deepEqual(due.itens.map((t: { numero: string }) => t.numero), ['T1-2', 'T2-2', 'T1-4'])
    assert.equal(due.total, 3)
    assert.ok(due.itens.every((t: { vencimento: string }) => t.vencimento >= '2026-12-01' && t.vencimento <= '2026-12-31'))
    const sortedDue = due.itens.map((t: { vencimento: string }) => t.vencimento)
    assert.deepEqual(sortedDue, [...sortedDue].sort())
    assert.deepEqual((await list('/api/titulos?estado=adquirido')).itens.map((t: { numero: string }) => t.numero), ['T1-1'])
    assert.deepEqual((await list('/api/titulos?busca=t2-3')).itens.map((t: { numero: string }) => t.numero), ['T2-3'])
    const bySacadoName = await list('/api/titulos?busca=Sacado%2052998224725')
    assert.ok(bySacadoName.total > 0 && bySacadoName.itens.every((t: { sacado_id: string }) => t.sacado_id === regs.sacados[2].id))
    const byFace = await list('/api/titulos?ordem=-valor_face&limite=2&pagina=1')
    assert.deepEqual(byFace.itens.map((t: { valor_face_centavos: number }) => t.valor_face_centavos), [2_500_000, 2_500_000])
    assert.equal(byFace.total, 7)
    assert.equal((await list('/api/titulos', b)).total, 3)
    // Each names its operation by the customer's number.
    const numbers = new Map(ops.map((o) => [o.id, o.numero]))
    const numbered = await list('/api/titulos?limite=200')
    assert.ok(numbered.itens.every((t: { operacao_id: string, operacao_numero: number }) => t.operacao_numero === numbers.get(t.operacao_id)))
  })

  it('payments: by estado and search, with the count', async () => {
    created(await a.operador.call('POST', `/api/operacoes/${ops[0]!.id}/formalizacao`, {
      termo_sha256: 'c'.repeat(64), assinado_em: '2026-10-05T14:00:00Z', signatarios: [{ nome: 'Sócia', documento: '111.444.777-35' }],
    }), 200)
    created(await a.operador.call('POST', `/api/operacoes/${ops[0]!.id}/desembolso`, {}, key()))
    const waiting = await list('/api/desembolsos?estado=aguardando_aprovacao')
    assert.equal(waiting.total, 1)
    assert.equal((await list('/api/desembolsos?estado=pago')).total, 0)
    assert.equal((await list('/api/desembolsos?busca=Cedente%20Exemplo')).total, 1)
    assert.equal((await list('/api/desembolsos?busca=1')).total, 1, 'the operation\'s number')
    assert.equal((await list('/api/desembolsos?criado_de=2026-10-05&criado_ate=2026-10-05')).total, 1, 'a day in Brasília')
    assert.equal((await list('/api/desembolsos?criado_de=2026-10-06')).total, 0)
    assert.equal((await list('/api/desembolsos', b)).total, 0)
  })

  it('reads a sorted list in batches after the last row, ties and all, as one read does (the export\'s path)', async () => {
    for (const asked of [{ key: 'valor_face', desc: true }, { key: 'vencimento', desc: false }, { key: 'numero', desc: false }, undefined]) {
      const sort = titleSort(asked)
      const whole = await withTenant(ctx.db, a.clienteId, (tx) => titleRows(tx, {}, sort, { limit: 1000 }))
      const batched: string[] = []
      const read = (after: unknown[] | undefined) =>
        withTenant(ctx.db, a.clienteId, (tx) => titleRows(tx, {}, sort, { limit: 2, ...(after ? { after } : {}) }))
      for await (const rows of inBatches(read, (t) => keyOf(sort, t), 2)) batched.push(...rows.map((t) => t.id))
      assert.deepEqual(batched, whole.map((t) => t.id), JSON.stringify(asked))
      assert.equal(whole.length, 7)
    }
    const sort = operationSort({ key: 'data_operacao', desc: true })
    const ops2: number[] = []
    const readOps = (after: unknown[] | undefined) =>
      withTenant(ctx.db, a.clienteId, (tx) => operationRows(tx, {}, sort, { limit: 3, ...(after ? { after } : {}) }))
    for await (const rows of inBatches(readOps, (o) => keyOf(sort, o), 3)) ops2.push(...rows.map((o) => o.numero))
    assert.deepEqual(ops2, [4, 3, 2, 1])
  })

  it('refuses a bad order, page, period or search with 422, and antes with an order', async () => {
    for (const q of ['ordem=cedente_id', 'pagina=0', 'pagina=x', 'data_operacao_de=2026-02-30', 'data_operacao_de=2026-10-07&data_operacao_ate=2026-10-06',
      'busca=', 'busca=%20%20', `busca=${'x'.repeat(101)}`, 'antes=3&ordem=numero', 'antes=3&pagina=2']) {
      const res = await a.operador.call('GET', `/api/operacoes?${q}`)
      assert.equal(res.statusCode, 422, `${q}: ${res.body}`)
      assert.ok(Array.isArray(res.json().detail), q)
    }
    for (const q of ['ordem=sacado', 'vencimento_ate=2026-13-01', 'vencimento_de=2026-12-02&vencimento_ate=2026-12-01']) {
      assert.equal((await a.operador.call('GET', `/api/titulos?${q}`)).statusCode, 422, q)
    }
    assert.equal((await a.operador.call('GET', '/api/desembolsos?ordem=-banco')).statusCode, 422)
    // A NUL or another control character searched, and the year 0 (no day PostgreSQL stores): 422 on every list, never a 500.
    for (const list of ['operacoes', 'titulos', 'cedentes', 'sacados', 'desembolsos', 'lancamentos']) {
      for (const q of ['busca=a%00b', 'busca=a%1Bb']) assert.equal((await a.admin.call('GET', `/api/${list}?${q}`)).statusCode, 422, `${list} ${q}`)
    }
    for (const q of ['titulos?vencimento_de=0000-01-01', 'operacoes?data_operacao_de=0000-01-01', 'desembolsos?criado_ate=0099-12-31']) {
      assert.equal((await a.operador.call('GET', `/api/${q}`)).statusCode, 422, q)
    }
  })

  it('exports the filtered, sorted rows, every page, as CSV for Brazilian Excel', async () => {
    const res = await a.operador.call('GET', `/api/operacoes?cedente_id=${regs.cedente.id}&ordem=data_operacao&limite=1`, undefined, { accept: 'text/csv' })
    assert.equal(res.statusCode, 200, res.body)
    assert.match(String(res.headers['content-type']), /^text\/csv; charset=utf-8/)
    assert.match(String(res.headers['content-disposition']), /^attachment; filename="operacoes-2026-10-05\.csv"$/)
    const { header, rows } = readExport(res.body)
    assert.equal(header[0], 'Operação nº')
    assert.deepEqual(rows.map((r) => r['Operação nº']), ['1', '2', '3'], 'every page, in the order asked, only the filter\'s')
    assert.deepEqual(rows.map((r) => r['Data da operação']), ['05/10/2026', '06/10/2026', '07/10/2026'])
    assert.equal(rows[0]!['Cedente'], 'Cedente Exemplo Ltda')
    assert.equal(rows[0]!['Valor de face (R$)'], '10000,00')
    assert.equal(rows[1]!['Valor de face (R$)'], '35000,00')
    assert.equal(rows[2]!['ID externo'], 'ERP-77')

    const titles = await a.operador.call('GET', '/api/titulos?vencimento_de=2026-12-01&ordem=vencimento', undefined, { accept: 'text/csv' })
    const json = await list('/api/titulos?vencimento_de=2026-12-01&ordem=vencimento&limite=200')
    const t = readExport(titles.body)
    assert.deepEqual(t.rows.map((r) => r['Número']), json.itens.map((x: { numero: string }) => x.numero))
    assert.ok(t.rows.some((r) => r['Tipo'] === 'duplicata de serviço'))
    assert.ok(t.rows.every((r) => /^\d{2}\/\d{2}\/\d{4}$/.test(r['Vencimento']!) && /^\d+,\d{2}$/.test(r['Valor de face (R$)']!)))

    const none = readExport((await a.operador.call('GET', '/api/desembolsos?estado=pago', undefined, { accept: 'text/csv' })).body)
    assert.deepEqual(none.rows, [], 'a header alone when nothing matches')
    const refused = await a.operador.call('GET', '/api/titulos?ordem=x', undefined, { accept: 'text/csv' })
    assert.equal(refused.statusCode, 422, 'a bad query is refused before any CSV')
    const theirs = readExport((await b.operador.call('GET', '/api/titulos', undefined, { accept: 'text/csv' })).body)
    assert.equal(theirs.rows.length, 3)
  })
})

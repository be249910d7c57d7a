// The back office's lists (issue 32 items 2 and 3) as a browser without JavaScript reads them: the search and
// the filters in a GET form whose URL keeps them, sortable heads, "Página X de Y · N itens", the títulos across
// operations, and "Exportar CSV", which answers the API's CSV of the same rows.
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { bearer, issueToken } from '../../helpers/api-credentials.ts'
import { personWithPassword } from '../../helpers/account-web.ts'
import { readExport } from '../../helpers/csv.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { created, EXAMPLE_NOW, exampleRegisters, exampleTitles, settableClock, type Caller } from '../operations/helpers.ts'
import { signIn, type Browser } from './steps.ts'

const unescape = (s: string) => s.replaceAll('&amp;', '&')

describe('the back office\'s lists', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })
  let web: Browser
  let regs: Awaited<ReturnType<typeof exampleRegisters>>

  before(async () => {
    const admin = await personWithPassword(ctx.db)
    web = await signIn(ctx.app, admin.email)
    const { token } = await issueToken(ctx.db, admin.clienteId, { escopos: ['cadastro', 'operacoes'], clock })
    const call: Caller = (method, url, payload) => bearer(ctx.app, token, method as 'GET', url, payload ? { payload } : {})
    regs = await exampleRegisters(call)
    const sacadoIds = regs.sacados.map((s: { id: string }) => s.id)
    for (let i = 0; i < 60; i++) {
      created(await call('POST', '/api/operacoes', {
        cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: i < 55 ? '2026-10-05' : '2026-10-09',
        titulos: exampleTitles(sacadoIds).map((t) => ({ ...t, numero: `${t.numero}-${i + 1}` })).slice(0, 1 + (i % 3)),
      }))
    }
  })

  it('pages the operations with the count, sorts by a head, and keeps a filter in the URL', async () => {
    const first = (await web.get('/conta/operacoes')).body
    assert.match(first, /Página 1 de 2 · 60 itens/)
    assert.equal([...first.matchAll(/<tr data-operacao=/g)].length, 50)
    const next = /<a href="([^"]+)" rel="next">/.exec(first)?.[1]
    assert.equal(unescape(next!), '/conta/operacoes?pagina=2')
    const second = (await web.get(unescape(next!))).body
    assert.match(second, /Página 2 de 2 · 60 itens/)
    assert.equal([...second.matchAll(/<tr data-operacao=/g)].length, 10)
    assert.match(second, /rel="prev"/)
    // A bookmark past the last page: the list has rows, so not "none yet".
    const past = (await web.get('/conta/operacoes?pagina=5')).body
    assert.match(past, /Esta página passa da última: a lista tem 60 itens\./)
    assert.ok(!past.includes('Nenhuma operação ainda'))

    const sortLink = /<a href="([^"]+)" data-ordem="numero">/.exec(first)?.[1]
    assert.equal(unescape(sortLink!), '/conta/operacoes?ordem=numero')
    const sorted = (await web.get(unescape(sortLink!))).body
    assert.match(sorted, /aria-sort="ascending"/)
    assert.deepEqual([...sorted.matchAll(/">nº (\d+)<\/a><\/th>/g)].slice(0, 3).map((m) => m[1]), ['1', '2', '3'])

    const filtered = (await web.get('/conta/operacoes?data_operacao_de=2026-10-09&busca=Exemplo&ordem=-numero')).body
    assert.match(filtered, /Página 1 de 1 · 5 itens/)
    assert.match(filtered, /<input id="filtro-data_operacao_de" name="data_operacao_de" type="date" value="2026-10-09">/, 'the filter kept in the form')
    assert.match(filtered, /<input id="filtro-busca" name="busca" type="search" value="Exemplo"/)
    assert.match(filtered, /<option value="-numero" selected>Operação \(decrescente\)<\/option>/, 'the order kept, as a select a phone can use')
    const exportHref = unescape(/<a href="([^"]+)" id="operacoes-exportar"/.exec(filtered)![1]!)
    assert.equal(exportHref, '/conta/operacoes?busca=Exemplo&data_operacao_de=2026-10-09&ordem=-numero&formato=csv')

    const csv = await web.get(exportHref)
    assert.equal(csv.statusCode, 200)
    assert.match(String(csv.headers['content-disposition']), /attachment; filename="operacoes-/)
    const { rows } = readExport(csv.body)
    assert.deepEqual(rows.map((r) => r['Operação nº']), ['60', '59', '58', '57', '56'], 'exactly the filtered rows, in the order shown')
  })

  it('shows the títulos across operations, filtered by sacado and due date', async () => {
    const sacado = regs.sacados[1].id
    const page = (await web.get(`/conta/titulos?sacado_id=${sacado}&vencimento_ate=2026-11-30&ordem=vencimento`)).body
    assert.match(page, /<h1[^>]*>Títulos<\/h1>/)
    assert.match(page, /Página 1 de 1 · 40 itens/, 'the second título of the operations that have two or three')
    assert.match(page, /duplicata de serviço/)
    assert.match(page, new RegExp(`<option value="${sacado}" selected>`))
    assert.match(page, /<td data-rotulo="Valor de face" class="num">R\$ 25\.000,00<\/td>/)
    assert.match(page, /<td data-rotulo="Operação"><a href="\/conta\/operacoes\/[0-9a-f-]{36}">nº \d+<\/a><\/td>/, 'each título names its operation by number')
    assert.ok(!page.includes('ver operação'))
    const csv = readExport((await web.get(`/conta/titulos?sacado_id=${sacado}&formato=csv`)).body)
    assert.equal(csv.rows.length, 40)
    assert.ok(csv.rows.every((r) => r['Sacado'] === 'Sacado 12ABC34501DE35' && r['Valor de face (R$)'] === '25000,00'))
  })

  it('searches the registers and tells a refused filter in words', async () => {
    const found = (await web.get('/conta/sacados?busca=529.982')).body
    assert.match(found, /Página 1 de 1 · 1 item</)
    assert.match(found, /Sacado 52998224725/)
    const none = (await web.get('/conta/cedentes?busca=ninguem')).body
    assert.match(none, /Nenhum cedente com estes filtros\./)
    const refused = await web.get('/conta/operacoes?data_operacao_de=2026-02-30')
    assert.equal(refused.statusCode, 422)
    assert.match(refused.body, /data_operacao_de/)
    const csvRefused = await web.get('/conta/titulos?vencimento_de=2026-13-01&formato=csv')
    assert.equal(csvRefused.statusCode, 422)
    assert.match(String(csvRefused.headers['content-type']), /text\/html/)
  })
})

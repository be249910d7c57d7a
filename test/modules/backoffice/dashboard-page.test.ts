// The back office's shell and its dashboard (issue 32, items 1 and 6), as a browser without JavaScript reads them:
// the person lands on /conta, the dashboard, whose tables say what GET /api/painel answers, figure by figure
// (read back from "R$ 12.345,67"); each chart an SVG with a title and a description; the shell names the customer
// and the person as GET /api/conta does, with their role in words, and leads to every section; the page of people
// and tokens, moved to /conta/pessoas, is drawn in the same shell.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { bearer, issueToken } from '../../helpers/api-credentials.ts'
import { login, personWithPassword } from '../../helpers/account-web.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { created, EXAMPLE_NOW, formalizedExample, key, settableClock, type Caller } from '../operations/helpers.ts'
import { signIn } from './steps.ts'

/** "R$ 1.234,56" (or "−R$ …") back to centavos, from the text alone. */
const centavos = (text: string) => {
  const m = /^(−)?R\$ ([\d.]+),(\d{2})$/.exec(text.replace(/\u00a0/g, ' ').trim())
  assert.ok(m, `not an amount: ${text}`)
  return (m[1] ? -1 : 1) * Number(`${m[2]!.replaceAll('.', '')}${m[3]}`)
}

/** The cells of the row that carries `attr` in table `id`, by their data-rotulo, as text. */
function row(html: string, id: string, attr: string): Record<string, string> {
  const table = html.slice(html.indexOf(`<table id="${id}"`), html.indexOf('</table>', html.indexOf(`<table id="${id}"`)))
  const start = table.indexOf(attr)
  assert.ok(start >= 0, `no row ${attr} in ${id}`)
  const markup = table.slice(start, table.indexOf('</tr>', start))
  const cells = Object.fromEntries([...markup.matchAll(/<td data-rotulo="([^"]+)"[^>]*>([\s\S]*?)<\/td>/g)].map((m) => [m[1]!, m[2]!.replace(/<[^>]+>/g, '').trim()]))
  cells.nome = /<th scope="row">([\s\S]*?)<\/th>/.exec(markup)![1]!.replace(/<[^>]+>/g, '').trim()
  return cells
}

describe('the back office\'s shell and dashboard', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('lands on /conta, whose tables hold the API\'s numbers, in the shell that names the customer and the person', async () => {
    const admin = await personWithPassword(ctx.db, undefined, undefined, { nome: 'Beatriz Lima', cliente: 'Fomento Exemplo S.A.' })
    const { token } = await issueToken(ctx.db, admin.clienteId, { escopos: ['conta', 'cadastro', 'operacoes', 'financeiro'], clock })
    const call: Caller = (method, url, payload, headers) => bearer(ctx.app, token, method as 'GET', url, { ...(payload ? { payload } : {}),
      ...(headers ? { headers } : {}) })
    const { op, cedente } = await formalizedExample(call)
    created(await call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
    // Another customer's operation: neither its cedente's name nor its figures reach this dashboard.
    const other = await personWithPassword(ctx.db, undefined, undefined, { cliente: 'Outra Factoring Ltda' })
    const otherToken = (await issueToken(ctx.db, other.clienteId, { escopos: ['cadastro', 'operacoes'], clock })).token
    await formalizedExample((method, url, payload, headers) => bearer(ctx.app, otherToken, method as 'GET', url, { ...(payload ? { payload } : {}),
      ...(headers ? { headers } : {}) }))

    const cookie = await login(ctx.app, admin.email)
    const landed = await ctx.app.inject({ method: 'GET', url: '/conta/entrar', headers: { cookie } })
    assert.equal(landed.statusCode, 303)
    assert.equal(landed.headers.location, '/conta', 'a signed-in person is sent to the dashboard')

    const web = await signIn(ctx.app, admin.email)
    const res = await web.get('/conta')
    assert.equal(res.statusCode, 200)
    const page = res.body
    const painel = created(await call('GET', '/api/painel'), 200)

    // The shell.
    const conta = created(await call('GET', '/api/conta'), 200)
    assert.match(page, new RegExp(`<p class="app-cliente" id="shell-cliente">${conta.cliente.nome}</p>`))
    assert.match(page, /<span id="shell-pessoa">Beatriz Lima<\/span> <span class="selo app-papel" id="shell-papel">administrador<\/span>/)
    assert.match(page, /<body class="app">/)
    assert.doesNotMatch(page, /<header class="topo">/, 'not the public site\'s header')
    const nav = /<nav aria-label="Retaguarda" class="app-menu" id="menu-retaguarda"><ul>([\s\S]*?)<\/ul><\/nav>/.exec(page)![1]!
    assert.deepEqual([...nav.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => `${m[2]} ${m[1]}`), [
      'Painel /conta', 'Operações /conta/operacoes', 'Títulos /conta/titulos', 'Cobrança /conta/cobrancas', 'Cedentes /conta/cedentes',
      'Sacados /conta/sacados',
      'Produtos /conta/produtos', 'Desembolsos /conta/desembolsos', 'Razão /conta/razao', 'Auditoria /conta/auditoria', 'Webhooks /conta/webhooks',
      'Feriados /conta/feriados',
      'Pessoas e tokens /conta/pessoas',
    ])
    assert.match(nav, /<a href="\/conta" aria-current="page">Painel<\/a>/)
    assert.match(page, /id="form-sair-shell"/)

    // The dashboard's tables, figure by figure.
    assert.equal(painel.exposicao_cedentes.length, 1)
    const exposed = row(page, 'painel-cedentes', `data-id="${cedente.id}"`)
    assert.equal(exposed.nome, cedente.razao_social)
    assert.equal(exposed.Documento, '11.222.333/0001-81')
    assert.equal(centavos(exposed['Exposição']!), painel.exposicao_cedentes[0].exposicao_centavos)
    assert.equal(exposed.Limite, 'sem limite')
    for (const s of painel.exposicao_sacados) {
      assert.equal(centavos(row(page, 'painel-sacados', `data-id="${s.id}"`)['Exposição']!), s.exposicao_centavos)
    }
    assert.equal([...page.matchAll(/<tr data-id=/g)].length, painel.exposicao_cedentes.length + painel.exposicao_sacados.length)
    for (const v of painel.vencimentos) {
      const r = row(page, 'painel-vencimentos', `data-prazo="${v.dias}"`)
      assert.deepEqual([Number(r['Títulos']), centavos(r['Valor em aberto']!)], [v.quantidade, v.valor_centavos])
    }
    const waiting = row(page, 'painel-desembolsos', 'data-desembolsos="aguardando"')
    assert.deepEqual([Number(waiting.Desembolsos), centavos(waiting.Valor!)],
      [painel.desembolsos_aguardando_aprovacao.quantidade, painel.desembolsos_aguardando_aprovacao.valor_centavos])
    assert.equal(painel.desembolsos_aguardando_aprovacao.quantidade, 1, 'the payment asked above')
    // Each line leads to its own filter of the list, as the list's form names it (estado=…), not to the whole list.
    for (const [line, estado] of [['aguardando', 'aguardando_aprovacao'], ['aprovados', 'aprovado'], ['pagos-hoje', 'pago']]) {
      assert.match(page, new RegExp(`<tr data-desembolsos="${line}"><th scope="row"><a href="/conta/desembolsos\\?estado=${estado}">`), line)
    }
    // The collections' block, as GET /api/cobrancas/painel answers (issue 33): the three títulos acquired, none charged yet.
    const cobranca = created(await bearer(ctx.app, (await issueToken(ctx.db, admin.clienteId, { escopos: ['cobranca'], clock })).token, 'GET',
      '/api/cobrancas/painel'), 200)
    const toRegister = row(page, 'painel-cobranca', 'data-cobrancas="a-registrar"')
    assert.deepEqual([Number(toRegister['Cobranças']), centavos(toRegister.Valor!)], [cobranca.a_registrar.quantidade, cobranca.a_registrar.valor_centavos])
    assert.match(page, /<tr data-cobrancas="vencidas"><th scope="row">Registradas e vencidas<\/th>/, 'no list filters the overdue alone: no link')
    assert.match(page, /<dd id="painel-valores-a-identificar"><a href="\/conta\/razao">R\$ 0,00<\/a><\/dd>/)
    const waitingList = (await web.get('/conta/desembolsos?estado=aguardando_aprovacao')).body
    assert.match(waitingList, /<option value="aguardando_aprovacao" selected>aguardando aprovação<\/option>/)
    assert.match(waitingList, /Página 1 de 1 · 1 item</)
    // A sacado leads to its títulos, as a cedente to its conta gráfica.
    assert.ok(painel.exposicao_sacados.length > 0)
    for (const s of painel.exposicao_sacados) {
      assert.match(page, new RegExp(`<tr data-id="${s.id}"><th scope="row"><a href="/conta/titulos\\?sacado_id=${s.id}">${s.razao_social}</a></th>`))
    }
    for (const e of painel.operacoes_por_estado) assert.equal(Number(row(page, 'painel-estados', `data-estado="${e.estado}"`)['Operações']), e.quantidade)
    assert.match(row(page, 'painel-estados', 'data-estado="em_desembolso"').nome!, /^em desembolso$/)
    assert.doesNotMatch(page, /Outra Factoring|em_desembolso</)

    // Each chart: an SVG image named by its title and description.
    for (const id of ['painel-cedentes', 'painel-sacados', 'painel-vencimentos', 'painel-desembolsos', 'painel-estados']) {
      assert.match(page, new RegExp(`<svg [^>]*role="img" aria-labelledby="${id}-svg-titulo ${id}-svg-desc"`), id)
      assert.match(page, new RegExp(`<title id="${id}-svg-titulo">[^<]+</title>\\n<desc id="${id}-svg-desc">[^<]+</desc>`), id)
    }
    assert.match(page, /class="num">R\$ 50\.000,00</, 'amounts in their right-aligned, unbroken cells')

    // People and tokens: moved, in the same shell, the section marked.
    const people = (await web.get('/conta/pessoas')).body
    assert.match(people, /<a href="\/conta\/pessoas" aria-current="page">Pessoas e tokens<\/a>/)
    assert.match(people, /id="shell-cliente">Fomento Exemplo S\.A\.</)
    assert.match(people, /action="\/conta\/tokens"/)
    // A section's own pages mark it too.
    assert.match((await web.get(`/conta/operacoes/${op.id}`)).body, /<a href="\/conta\/operacoes" aria-current="page">Operações<\/a>/)
  })
})

// The public site leads to the back office (issue 32, item 11): an "Entrar" link in every public page's header;
// the home page says what the product does today and marks what comes next as "em breve"; the company that runs
// the service is named from EMPRESA_* in every public page's footer, and unset each is a placeholder that says so.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { loadConfig } from '../../../src/config.ts'
import { useTestApp, useTestDatabase } from '../../helpers/fixture.ts'
import { PAGES } from '../../helpers/site-pages.ts'

const tdb = useTestDatabase()
const EMPRESA = { EMPRESA_NOME: 'Factoring Exemplar S.A.', EMPRESA_CNPJ: '11.222.333/0001-81', EMPRESA_ENDERECO: 'Av. Paulista, 1000, São Paulo, SP' }

describe('the public site with the company set', () => {
  const ctx = useTestApp(() => ({ db: tdb.db, env: { ...EMPRESA } }))

  it('every public page has "Entrar" in its header and the company in its footer', async () => {
    for (const { path } of PAGES) {
      const html = (await ctx.app.inject({ url: path, headers: { accept: 'text/html' } })).body
      const header = html.slice(html.indexOf('<header class="topo">'), html.indexOf('</header>'))
      assert.match(header, /<li><a class="entrar" href="\/conta\/entrar">Entrar<\/a><\/li>/, path)
      const footer = html.slice(html.indexOf('<footer class="rodape">'))
      assert.match(footer, /Operada por <span id="empresa-nome">Factoring Exemplar S\.A\.<\/span>, CNPJ <span id="empresa-cnpj">11\.222\.333\/0001-81<\/span>/, path)
      assert.match(footer, /<span id="empresa-endereco">Av\. Paulista, 1000, São Paulo, SP<\/span>/, path)
    }
    // The login page itself: its link marked as the current page.
    const login = (await ctx.app.inject({ url: '/conta/entrar' })).body
    assert.match(login, /<a class="entrar" href="\/conta\/entrar" aria-current="page">Entrar<\/a>/)
    assert.match(login, /id="empresa-nome">Factoring Exemplar S\.A\.</)
  })

  it('the home page says what the product does today and marks what comes next', async () => {
    const md = (await ctx.app.inject({ url: '/', headers: { accept: 'text/markdown' } })).body
    const today = md.slice(md.indexOf('## O que a plataforma faz hoje'), md.indexOf('## Em breve'))
    for (const what of ['Cadastros', 'Precificação exata', 'Pagamentos com duas pessoas', 'Razão contábil', 'A retaguarda', 'Cobrança', 'CNAB',
      'Webhooks']) {
      assert.match(today, new RegExp(what))
    }
    assert.ok(today.includes('](/conta/entrar)'), 'the back office is one link away')
    const next = md.slice(md.indexOf('## Em breve'), md.indexOf('## O que é público'))
    for (const what of ['registradora', 'Relatórios']) assert.match(next, new RegExp(what))
    assert.equal([...next.matchAll(/\*Em breve\.\*/g)].length, 2, 'each item marked')
    assert.doesNotMatch(today, /registradora|relatório/i, 'nothing to come is told as done')
  })
})

describe('the public site without the company set', () => {
  const ctx = useTestApp(() => ({ db: tdb.db }))

  it('shows placeholders that name their variables', async () => {
    const html = (await ctx.app.inject({ url: '/', headers: { accept: 'text/html' } })).body
    assert.match(html, /<span id="empresa-nome">\[nome de exemplo: defina EMPRESA_NOME\]<\/span>/)
    assert.match(html, /<span id="empresa-cnpj">\[CNPJ de exemplo: defina EMPRESA_CNPJ\]<\/span>/)
    assert.match(html, /<span id="empresa-endereco">\[endereço de exemplo: defina EMPRESA_ENDERECO\]<\/span>/)
  })

  it('reads the settings as given, a placeholder only for what is unset or blank', () => {
    assert.deepEqual(loadConfig(EMPRESA).empresa,
      { nome: EMPRESA.EMPRESA_NOME, cnpj: EMPRESA.EMPRESA_CNPJ, endereco: EMPRESA.EMPRESA_ENDERECO, exemplo: false })
    const partly = loadConfig({ EMPRESA_NOME: 'Só o Nome Ltda', EMPRESA_CNPJ: '  ' }).empresa
    assert.deepEqual(partly, {
      nome: 'Só o Nome Ltda', cnpj: '[CNPJ de exemplo: defina EMPRESA_CNPJ]', endereco: '[endereço de exemplo: defina EMPRESA_ENDERECO]', exemplo: true,
    })
  })
})

// GET /api/operacoes/{id}/bordero: the borderô as a document a person files, HTML to print (under the site's
// security headers) or Markdown on Accept: text/markdown, with the quote's amounts as a Brazilian reads them and
// every value of the customer's escaped.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, exampleRegisters, exampleTitles, settableClock } from './helpers.ts'

describe('the borderô as a document', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('Markdown and HTML: the títulos priced, the totals in reais, hostile names escaped; another customer gets 404', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const { produto, cedente, sacados } = await exampleRegisters(operador.call, { sacado: { razao_social: 'Sacado *negrito* <b>x</b> | pipe' } })
    const op = created(await operador.call('POST', '/api/operacoes', {
      cedente_id: cedente.id, produto_id: produto.id, titulos: exampleTitles(sacados.map((s: { id: string }) => s.id)),
    }))
    created(await operador.call('POST', `/api/operacoes/${op.id}/cotacao`))

    const md = await operador.call('GET', `/api/operacoes/${op.id}/bordero`, undefined, { accept: 'text/markdown' })
    assert.equal(md.statusCode, 200)
    assert.match(String(md.headers['content-type']), /^text\/markdown/)
    assert.match(md.body, /^# Borderô da operação nº \d+$/m)
    assert.match(md.body, /\*\*Cedente:\*\* Cedente Exemplo Ltda$/m)
    assert.match(md.body, /\*\*CNPJ do cedente:\*\* 11\.222\.333\/0001-81$/m)
    assert.match(md.body, /\*\*Valor de face:\*\* R\$ 50\.000,00/)
    assert.match(md.body, /\*\*Valor líquido:\*\* R\$ 46\.370,53/)
    assert.match(md.body, /\*\*Prazo médio:\*\* 50,50 dias/)
    // The spec's "about 0.04586" a month, as a percentage with four places.
    assert.match(md.body, /\*\*Taxa efetiva mensal:\*\* 4,58[5-7]\d % a\.m\./)
    assert.match(md.body, /\| T2 \| Duplicata de serviço \| Sacado \\\*negrito\\\* \\<b\\>x\\<\/b\\> \\\| pipe \(CNPJ 12\.ABC\.345\/01DE-35\) \| 20\/11\/2026 \| 23\/11\/2026 \| 51 \| R\$ 25\.000,00 \| R\$ 1\.487,50 \|/)
    // Every row of the table has the header's thirteen pipes: no value broke out of its cell.
    for (const row of md.body.split('\n').filter((l) => l.startsWith('| T'))) assert.equal(row.replace(/\\\|/g, '').split('|').length, 14, row)

    const page = await operador.call('GET', `/api/operacoes/${op.id}/bordero`, undefined, { accept: 'text/html' })
    assert.equal(page.statusCode, 200)
    assert.match(String(page.headers['content-type']), /^text\/html/)
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/)
    assert.ok(page.body.includes('Sacado *negrito* &lt;b&gt;x&lt;/b&gt; | pipe'))
    assert.ok(!page.body.includes('<b>x</b>'))
    assert.match(page.body, /<td class="num">R\$ 23\.251,46<\/td>/)
    // The títulos scroll sideways in a region of their own that a keyboard reaches; documents and amounts stay whole.
    assert.match(page.body, /<div class="bordero-titulos" role="region" aria-label="Títulos da operação" tabindex="0">\n<table>/)
    assert.match(page.body, /\(CNPJ <span class="inteiro">12\.ABC\.345\/01DE-35<\/span>\)<\/td>/)
    assert.match(page.body, /<dd><span class="inteiro">11\.222\.333\/0001-81<\/span><\/dd>/)
    assert.match(page.body, /<dd><span class="inteiro">R\$ 46\.370,53<\/span><\/dd>/)

    const other = await backOffice(ctx.db, ctx.app, clock)
    const hidden = await other.operador.call('GET', `/api/operacoes/${op.id}/bordero`)
    assert.deepEqual([hidden.statusCode, hidden.json()], [404, { detail: 'nao_encontrado' }])
  })
})

// The manual entries' page without JavaScript (issue 32 item 10): an administrador proposes an entry with the form's
// fixed rows (the empty ones ignored), sees it wait without a confirm button of their own; an unbalanced form is
// told why, beside the rows, with what was typed; an aprovador reads the lines and amounts and confirms it, and the
// razão's trial balance shows it; another is refused with a reason; an operador is offered no form.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { colleagueWithPassword, personWithPassword } from '../../helpers/account-web.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { EXAMPLE_NOW, settableClock } from '../operations/helpers.ts'
import { refusalsOn, rowCells, signIn } from './steps.ts'

/** rowCells, for rows whose cells carry a class too (amounts: td.num). */
function cellsOf(html: string, attr: string): Record<string, string> {
  const start = html.indexOf(attr)
  assert.ok(start >= 0, `no row ${attr}`)
  const row = html.slice(start, html.indexOf('</tr>', start))
  return Object.fromEntries([...row.matchAll(/<td data-rotulo="([^"]+)"[^>]*>([\s\S]*?)<\/td>/g)].map((m) => [m[1]!, m[2]!.replace(/<[^>]+>/g, '').trim()]))
}

const PAGE = '/conta/razao/lancamentos-manuais'
const APORTE = {
  data: '2026-10-05', motivo: 'aporte_capital', historico: 'Aporte de capital dos sócios', justificativa: 'TED dos sócios de 05/10',
  conta_1: 'banco', debito_1: '100.000,00', conta_3: 'capital_social', credito_3: '100000',
}

describe('the manual entries\' page, without JavaScript', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('an administrador proposes, an aprovador reads the lines and confirms, and the razão shows it', async () => {
    clock.set(EXAMPLE_NOW)
    const admin = await personWithPassword(ctx.db)
    const aprovador = await colleagueWithPassword(ctx.db, admin.clienteId, 'aprovador')
    const operador = await colleagueWithPassword(ctx.db, admin.clienteId, 'operador')
    const [ad, ap, op] = [await signIn(ctx.app, admin.email), await signIn(ctx.app, aprovador.email), await signIn(ctx.app, operador.email)]

    assert.match((await ad.get('/conta/razao')).body, new RegExp(`<a href="${PAGE}" id="link-lancamentos-manuais">`))

    // Unbalanced: refused on the page, in words, with what was typed kept.
    const unbalanced = await ad.submit(PAGE, 'form-lancamento-manual', { ...APORTE, credito_3: '99.999,99' })
    assert.equal(unbalanced.statusCode, 422)
    assert.match(refusalsOn(unbalanced.body), /os débitos \(R\$ 100\.000,00\) e os créditos \(R\$ 99\.999,99\) não fecham/)
    assert.match(unbalanced.body, /name="credito_3" [^>]*value="99\.999,99"/)
    const noAccount = await ad.submit(PAGE, 'form-lancamento-manual', { ...APORTE, conta_3: '' })
    assert.match(refusalsOn(noAccount.body), /Linha 3, conta: escolha a conta/)

    let page = await ad.done(PAGE, 'form-lancamento-manual', APORTE)
    assert.match(page.body, /Lançamento proposto/)
    const id = /<li data-lancamento-manual="([0-9a-f-]{36})">/.exec(page.body)?.[1] ?? ''
    assert.ok(id, 'the entry waits on the page')
    assert.match(page.body, /Aguardando a confirmação de outra pessoa/)
    assert.doesNotMatch(page.body, new RegExp(`id="confirmar-${id}"`), 'the proposer is never offered the confirmation')

    page = await ap.get(PAGE)
    assert.deepEqual(cellsOf(page.body, 'Banco (conta movimento)</th>'), { 'Débito': 'R$ 100.000,00', 'Crédito': '' })
    assert.deepEqual(cellsOf(page.body, 'Capital social</th>'), { 'Débito': '', 'Crédito': 'R$ 100.000,00' })
    assert.doesNotMatch(page.body, /id="form-lancamento-manual"/, 'only an administrador proposes')
    page = await ap.done(PAGE, `confirmar-${id}`)
    assert.match(page.body, /Lançamento confirmado/)
    assert.deepEqual(cellsOf(page.body, `data-lancamento-manual="${id}"`).Situação, 'confirmado e lançado')
    assert.match(page.body, /<caption>O mais recente, confirmado ou recusado<\/caption>/, 'not "Os 1 mais recentes"')

    const razao = await ad.get('/conta/razao')
    assert.deepEqual(rowCells(razao.body, 'data-conta="capital_social"')['Saldo credor'], 'R$ 100.000,00')
    assert.deepEqual(rowCells(razao.body, 'data-conta="banco"')['Saldo devedor'], 'R$ 100.000,00')
    // Accounts by name, never their codes: in the balancete and in the entry's lines.
    assert.match(razao.body, /<tr data-conta="capital_social"><th scope="row">Capital social<\/th>/)
    assert.match(razao.body, /<li>Capital social: C R\$ 100\.000,00<\/li>/)
    assert.doesNotMatch(razao.body, /capital_social:|<th scope="row">capital_social</)

    // A tarifa, refused by the aprovador with a reason: nothing posted.
    page = await ad.done(PAGE, 'form-lancamento-manual', { data: '2026-10-05', motivo: 'tarifa_bancaria', historico: 'Tarifa de TED',
      justificativa: 'Extrato', conta_1: 'despesas_bancarias', debito_1: '10,90', conta_2: 'banco', credito_2: '10,90' })
    const fee = /<li data-lancamento-manual="([0-9a-f-]{36})">/.exec(page.body)?.[1] ?? ''
    page = await ap.done(PAGE, `recusar-${fee}`, { motivo: 'Estornada pelo banco' })
    assert.match(page.body, /Lançamento recusado/)
    assert.equal(cellsOf(page.body, `data-lancamento-manual="${fee}"`).Situação, 'recusado: Estornada pelo banco')
    assert.match(page.body, /<caption>Os 2 mais recentes, confirmados ou recusados<\/caption>/)
    assert.equal(rowCells((await ad.get('/conta/razao')).body, 'data-conta="despesas_bancarias"').Débitos, 'R$ 0,00')

    const seen = await op.get(PAGE)
    assert.equal(seen.statusCode, 200)
    assert.doesNotMatch(seen.body, /id="form-lancamento-manual"/)
  })
})

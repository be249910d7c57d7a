// The cedentes' and sacados' lists (issue 32 items 2 and 3): a search by name (case and accents aside), document
// (with or without its dots) or id_externo, each filter, an order, a page with the count, never another customer's
// row, bad values refused with 422; and the same rows as CSV.
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'
import { readExport } from '../../helpers/csv.ts'
import { backOffice, created, EXAMPLE_NOW, settableClock } from '../operations/helpers.ts'

type Office = Awaited<ReturnType<typeof backOffice>>

describe('the registers\' lists', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })
  let a: Office
  let b: Office
  const SACADOS = [
    { documento: '11144477735', razao_social: 'Zélia Araújo', id_externo: 'S-1' },
    { documento: '52998224725', razao_social: 'Mercado Ação Ltda', nome_fantasia: 'Açãozinha' },
    { documento: '04252011000110', razao_social: 'Bazar =SOMA(1;2)', limite_centavos: 123_456_78 },
  ]

  before(async () => {
    a = await backOffice(ctx.db, ctx.app, clock)
    b = await backOffice(ctx.db, ctx.app, clock)
    for (const s of SACADOS) created(await a.admin.call('POST', '/api/sacados', s))
    created(await a.admin.call('PATCH', `/api/sacados/${(await list('/api/sacados?busca=Zélia')).itens[0].id}`, { estado: 'bloqueado' }), 200)
    created(await b.admin.call('POST', '/api/sacados', { documento: '11144477735', razao_social: 'Zélia de B' }))
  })

  const list = async (url: string, who: Office = a) => created(await who.admin.call('GET', url), 200)
  const names = (body: { itens: { razao_social: string }[] }) => body.itens.map((p) => p.razao_social)

  it('searches, filters, sorts and pages at the database, with the count', async () => {
    const all = await list('/api/sacados?limite=2')
    assert.deepEqual([names(all), all.total], [['Bazar =SOMA(1;2)', 'Mercado Ação Ltda'], 3])
    assert.ok(all.proximo !== null)
    assert.deepEqual(names(await list(`/api/sacados?limite=2&antes=${all.proximo}`)), ['Zélia Araújo'])
    assert.deepEqual(names(await list('/api/sacados?busca=ZELIA')), ['Zélia Araújo'], 'case and accents aside')
    assert.deepEqual(names(await list('/api/sacados?busca=acaozinha')), ['Mercado Ação Ltda'], 'the nome fantasia')
    assert.deepEqual(names(await list('/api/sacados?busca=529.982.247-25')), ['Mercado Ação Ltda'], 'the document with its marks')
    assert.deepEqual(names(await list('/api/sacados?busca=0425201')), ['Bazar =SOMA(1;2)'], 'part of the document')
    assert.deepEqual(names(await list('/api/sacados?busca=s-1')), ['Zélia Araújo'], 'the id_externo')
    assert.deepEqual(names(await list('/api/sacados?estado=bloqueado')), ['Zélia Araújo'])
    assert.deepEqual(names(await list('/api/sacados?ordem=razao_social')), ['Bazar =SOMA(1;2)', 'Mercado Ação Ltda', 'Zélia Araújo'])
    const byDoc = await list('/api/sacados?ordem=-documento&limite=1&pagina=2')
    assert.deepEqual([names(byDoc), byDoc.total, byDoc.pagina, byDoc.proximo], [['Zélia Araújo'], 3, 2, null])
    const theirs = await list('/api/sacados', b)
    assert.deepEqual([names(theirs), theirs.total], [['Zélia de B'], 1])
    assert.deepEqual(names(await list('/api/sacados?busca=Araújo', b)), [])
    assert.equal((await list('/api/cedentes')).total, 0)
  })

  it('refuses a bad order, page or search with 422', async () => {
    for (const q of ['ordem=limite', 'pagina=0', 'busca=', 'antes=9&ordem=documento', 'limite=201']) {
      const res = await a.admin.call('GET', `/api/sacados?${q}`)
      assert.equal(res.statusCode, 422, `${q}: ${res.body}`)
    }
  })

  it('exports them as CSV, a formula typed as a name defused', async () => {
    const res = await a.admin.call('GET', '/api/sacados?ordem=razao_social', undefined, { accept: 'text/csv' })
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['content-disposition']), /filename="sacados-2026-10-05\.csv"/)
    const { rows } = readExport(res.body)
    assert.deepEqual(rows.map((r) => r['Razão social']), ['Bazar =SOMA(1;2)', 'Mercado Ação Ltda', 'Zélia Araújo'])
    assert.equal(rows[0]!['Limite (R$)'], '123456,78')
    assert.equal(rows[1]!['Limite (R$)'], 'sem limite')
    assert.equal(rows[2]!['Situação'], 'bloqueado')
    // Documents as people read them, so a spreadsheet keeps them as text (a leading zero, no E notation).
    assert.deepEqual(rows.map((r) => r['Documento']), ['04.252.011/0001-10', '529.982.247-25', '111.444.777-35'])
    const evil = await a.admin.call('POST', '/api/sacados', { documento: '12ABC34501DE35', razao_social: '=HYPERLINK("http://x";"y")' })
    assert.equal(evil.statusCode, 201, evil.body)
    const again = readExport((await a.admin.call('GET', '/api/sacados?busca=hyperlink', undefined, { accept: 'text/csv' })).body)
    assert.deepEqual(again.rows.map((r) => r['Razão social']), ['\'=HYPERLINK("http://x";"y")'])
  })
})

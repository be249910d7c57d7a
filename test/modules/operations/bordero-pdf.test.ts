// The borderô ready to sign (issue 32 item 4): GET /api/operacoes/{id}/bordero answers a PDF (Accept:
// application/pdf, or formato=pdf for a link) whose text, read back with a PDF reader, names the cessionária and its
// CNPJ, the cedente, each título with its amount, the net amount, the account to be paid and the signing time in
// Brasília time (a signature at 21:30 of the 4th is the 4th, never the 5th in UTC), with Portuguese letters
// intact; the HTML and Markdown say the same; an operation of hundreds of títulos is drawn whole, page after page.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createCustomer } from '../../../src/modules/credentials/customers/store.ts'
import { instantBr } from '../../../src/modules/operations/bordero.ts'
import { winAnsi } from '../../../src/platform/lib/win-ansi.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { operatorNow } from '../../helpers/credentials.ts'
import { isPdf, pdfText } from '../../helpers/pdf-text.ts'
import { created, EXAMPLE_NOW, exampleRegisters, exampleTitles, key, person, settableClock } from './helpers.ts'

const CNPJ = '11444777000161'
// 04/10/2026 at 21:30 in Brasília; already the 5th in UTC.
const SIGNED_AT = '2026-10-05T00:30:00Z'

// As many pages as the content needs: each carries its own number in the footer and something besides it (the
// footer, written in the bottom margin, once made PDFKit start a blank page for itself after every page).
function numberedPages(pages: string[], numero: number) {
  pages.forEach((text, i) => {
    const footer = `Borderô da operação nº ${numero} — página ${i + 1}`
    assert.ok(text.includes(footer), `page ${i + 1} says ${footer}: …${text.slice(-100)}`)
    assert.ok(text.replace(footer, '').trim().length > 0, `page ${i + 1} has more than its footer`)
  })
}

describe('the borderô as a PDF to sign', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  async function formalized(titles?: object[]) {
    const c = await createCustomer(ctx.db, { nome: 'Fomento Ação & Cia', documento: CNPJ }, operatorNow(clock.now()))
    await person(ctx.db, c.id, 'administrador', ctx.app, clock)
    const { call } = await person(ctx.db, c.id, 'operador', ctx.app, clock)
    const regs = await exampleRegisters(call, { cedente: { razao_social: 'Confecções São João Ltda' } })
    const op = created(await call('POST', '/api/operacoes', {
      cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-05',
      titulos: titles ?? exampleTitles(regs.sacados.map((s: { id: string }) => s.id)),
    }))
    created(await call('POST', `/api/operacoes/${op.id}/cotacao`))
    created(await call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key()), 200)
    created(await call('POST', `/api/operacoes/${op.id}/formalizacao`, {
      termo_sha256: 'c'.repeat(64), assinado_em: SIGNED_AT, signatarios: [{ nome: 'Conceição Araújo', documento: '111.444.777-35' }],
    }), 200)
    return { call, op, regs }
  }

  it('the PDF holds the cessionária\'s CNPJ, each título and amount, the net amount, Brasília times; HTML and Markdown say the same', async () => {
    const { call, op } = await formalized()
    const res = await call('GET', `/api/operacoes/${op.id}/bordero`, undefined, { accept: 'application/pdf' })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'application/pdf')
    assert.equal(res.headers['content-disposition'], `inline; filename="bordero-operacao-${op.numero}.pdf"`)
    assert.ok(isPdf(res.rawPayload))
    const pages = await pdfText(res.rawPayload)
    assert.equal(pages.length, 2, `${pages.length} pages`)
    numberedPages(pages, op.numero)
    const text = pages.join('\n')
    for (const expected of [
      `Borderô da operação nº ${op.numero}`, 'Fomento Ação & Cia', '11.444.777/0001-61', 'Confecções São João Ltda', '11.222.333/0001-81',
      'Duplicata de serviço', 'R$ 10.000,00', 'R$ 25.000,00', 'R$ 15.000,00', 'R$ 23.251,46', 'R$ 46.370,53', '3,5000 % ao mês', 'R$ 150,00',
      'Banco 341, agência 1234, conta 567890-1', '04/10/2026, 21:30:00 (horário de Brasília)', 'Conceição Araújo (CPF 111.444.777-35)',
      'Local e data',
    ]) assert.ok(text.includes(expected), `the PDF says ${expected}`)
    for (const numero of ['T1', 'T2', 'T3']) assert.match(text, new RegExp(`\\b${numero}\\b`))
    assert.ok(!text.includes('05/10/2026, 00:30'), 'the signature is not printed on the UTC day')
    assert.ok(!/\d{4}-\d{2}-\d{2}T/.test(text), 'no raw UTC instant')

    // The same through a link (the back office's), and the same facts in the two other forms.
    const linked = await call('GET', `/api/operacoes/${op.id}/bordero?formato=pdf`)
    assert.equal(linked.headers['content-type'], 'application/pdf')
    const md = (await call('GET', `/api/operacoes/${op.id}/bordero`, undefined, { accept: 'text/markdown' })).body
    const page = (await call('GET', `/api/operacoes/${op.id}/bordero`, undefined, { accept: 'text/html' })).body
    for (const doc of [md, page]) {
      for (const expected of ['11.444.777/0001-61', 'Confecções São João Ltda', 'R$ 46.370,53', '04/10/2026, 21:30:00 (horário de Brasília)',
        'Banco 341, agência 1234, conta 567890-1', 'Assinaturas']) assert.ok(doc.includes(expected), expected)
      assert.ok(!doc.includes('2026-10-05T00:30'), 'no raw UTC instant')
    }
    assert.equal((await call('GET', `/api/operacoes/${op.id}/bordero?formato=xls`)).statusCode, 422)
  })

  it('21:30 in Brasília on the 28th is the 28th; letters the standard fonts lack are replaced, Portuguese ones kept', () => {
    assert.equal(instantBr(new Date('2026-11-29T00:30:00.000Z')), '28/11/2026, 21:30:00 (horário de Brasília)')
    assert.equal(winAnsi('Ação, ç, é, nº 1ª — R$ −5 中'), 'Ação, ç, é, nº 1ª — R$ -5 ?')
  })

  it('an operation of 620 títulos: every one in the PDF and the Markdown, read a page at a time', async () => {
    const c = await createCustomer(ctx.db, { nome: 'Fomento Grande' }, operatorNow(clock.now()))
    await person(ctx.db, c.id, 'administrador', ctx.app, clock)
    const { call } = await person(ctx.db, c.id, 'operador', ctx.app, clock)
    const regs = await exampleRegisters(call)
    const titles = Array.from({ length: 620 }, (_, i) => ({
      tipo: 'duplicata_mercantil', numero: `D${String(i + 1).padStart(4, '0')}`, sacado_id: regs.sacados[i % 3].id, emissao: '2026-10-01',
      vencimento: '2026-11-04', valor_face_centavos: 100_000 + i,
    }))
    const op = created(await call('POST', '/api/operacoes', {
      cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-05', titulos: titles,
    }))
    created(await call('POST', `/api/operacoes/${op.id}/cotacao`))
    const md = (await call('GET', `/api/operacoes/${op.id}/bordero`, undefined, { accept: 'text/markdown' })).body
    assert.equal(md.split('\n').filter((l: string) => l.startsWith('| D')).length, 620)
    const pdf = await call('GET', `/api/operacoes/${op.id}/bordero`, undefined, { accept: 'application/pdf' })
    const pages = await pdfText(pdf.rawPayload)
    assert.ok(pages.length > 10, `${pages.length} pages`)
    numberedPages(pages, op.numero)
    const text = pages.join('\n')
    for (const i of [1, 500, 501, 620]) assert.ok(text.includes(`D${String(i).padStart(4, '0')}`), `título ${i}`)
    assert.ok(text.includes('R$ 1.006,19'), 'the last título\'s face value')
    // The cessionária without a CNPJ says so rather than printing nothing.
    assert.ok(text.includes('CNPJ da cessionária: não cadastrado'))
  })
})

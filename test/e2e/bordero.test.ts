// The borderô ready to sign in a real browser (Debian's Chromium; issue 32 items 4 and 5): the operador opens an
// accepted operation, named by its number, downloads the borderô's PDF from the page's link (its text read back:
// the cessionária, each título and amount, the net amount, a Brasília date), uploads the signed file at
// formalization and sees the SHA-256 this test computes, then downloads the same bytes. With JavaScript and
// without; axe-core in light and dark mode on the page with the form; screenshots at 1,366 px and 390 px.
import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { brasiliaDay } from '../../src/platform/lib/brasilia-time.ts'
import { brl, dataBr } from '../../src/platform/lib/brl.ts'
import { colleagueWithPassword, personWithPassword } from '../helpers/account-web.ts'
import { isPdf, pdfText } from '../helpers/pdf-text.ts'
import { callerFor, created, EXAMPLE_PRODUCT, key } from '../modules/operations/helpers.ts'
import { noBrowser, openPage, screenshot, useBrowser, useServer } from './browser.ts'
import { axeChecked, dayPlus, signIn } from './backoffice-steps.ts'

describe('the borderô to sign and its signed term, in the browser', () => {
  const chrome = useBrowser()
  const server = useServer()

  type Sacado = { documento: string, razao_social: string }
  type Titulo = { tipo: string, numero: string, valor_face_centavos: number, vencimento: string }
  /** An operation of two títulos (or those given, of the sacado given), quoted and accepted through the API, as the operador. */
  async function acceptedOperation(given: { sacado?: Sacado, titulos?: Titulo[] } = {}) {
    const admin = await personWithPassword(server.db)
    const operador = await colleagueWithPassword(server.db, admin.clienteId, 'operador')
    const call = await callerFor(server.db, server.app, admin.clienteId, operador.usuarioId)
    const produto = created(await call('POST', '/api/produtos', EXAMPLE_PRODUCT))
    const cedente = created(await call('POST', '/api/cedentes', {
      documento: '11222333000181', razao_social: 'Confecções Ação Ltda', perfil_iof: 'pj', municipio_ibge: '3550308', uf: 'SP',
      contas_bancarias: [{ banco: '341', agencia: '1234', conta: '567890', digito: '1', titular_documento: '11222333000181' }],
    }))
    const sacado = created(await call('POST', '/api/sacados', given.sacado ?? { documento: '11144477735', razao_social: 'João Sacado' }))
    const titles = (given.titulos ?? [
      { tipo: 'duplicata_servico', numero: 'NF-101', valor_face_centavos: 1_234_567, vencimento: dayPlus(40) },
      { tipo: 'duplicata_mercantil', numero: 'NF-102', valor_face_centavos: 2_000_000, vencimento: dayPlus(70) },
    ]).map((t) => ({ ...t, sacado_id: sacado.id, emissao: dayPlus(-3) }))
    const op = created(await call('POST', '/api/operacoes', { cedente_id: cedente.id, produto_id: produto.id, titulos: titles }))
    const quote = created(await call('POST', `/api/operacoes/${op.id}/cotacao`))
    created(await call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: quote.versao }, key()), 200)
    return { op, net: quote.totais.valor_liquido_centavos as number, operador, call }
  }

  /**
   * The borderô's page as laid out at the viewport's width: the document no wider than the window, and each
   * amount, date, título number and document on one line (the box of its text no taller than one line, its text
   * in one line box).
   */
  const layoutOf = (page: Page) => page.evaluate(() => {
    const oneLine = (el: Element) => {
      const range = document.createRange()
      range.selectNodeContents(el)
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)))
      const lineHeight = Number.parseFloat(getComputedStyle(el).lineHeight)
      return tops.size === 1 && range.getBoundingClientRect().height <= lineHeight + 0.5
    }
    const region = document.querySelector('.bordero-titulos')!
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      region: { scrollWidth: region.scrollWidth, clientWidth: region.clientWidth },
      amounts: document.querySelectorAll('.bordero td.num').length,
      broken: [...document.querySelectorAll('.bordero td.num, .bordero td.inteiro, .bordero .inteiro')]
        .filter((el) => !oneLine(el)).map((el) => el.textContent),
    }
  })

  it('the borderô to print fits the screen at 1,366 px and 390 px: the títulos scroll in their own region, amounts and documents whole',
    { skip: noBrowser, timeout: 120_000 }, async () => {
      const sacado = { documento: '33000167000101', razao_social: 'Petróleo Brasileiro S.A. Distribuidora de Combustíveis e Lubrificantes' }
      const titulos = [1001, 1002, 1003].map((n, i) => (
        { tipo: 'duplicata_mercantil', numero: `NF-${n}`, valor_face_centavos: 123_456_789 + i, vencimento: dayPlus(40 + 30 * i) }))
      const { op, operador, call } = await acceptedOperation({ sacado, titulos })
      // Formalized, so the page carries the term's SHA-256 (64 characters without a space) and a signatory's CPF.
      created(await call('POST', `/api/operacoes/${op.id}/formalizacao`, {
        termo_sha256: 'c'.repeat(64), assinado_em: new Date().toISOString(), signatarios: [{ nome: 'Conceição Araújo', documento: '529.982.247-25' }],
      }), 200)
      const w = await openPage(chrome.browser, { viewport: { width: 1366, height: 900 } })
      try {
        const { page } = w
        await signIn(w.page, server.base, operador.email)
        await page.goto(`${server.base}/conta/operacoes/${op.id}`)
        await Promise.all([page.waitForNavigation(), page.click('#bordero')])
        assert.equal(new URL(page.url()).pathname, `/api/operacoes/${op.id}/bordero`)
        const text = await page.locator('main').innerText()
        for (const expected of ['NF-1001', '33.000.167/0001-01', 'R$ 1.234.567,89', 'IOF', 'Preço de compra', '529.982.247-25']) {
          assert.ok(text.includes(expected), `the borderô says ${expected}`)
        }
        const region = page.getByRole('region', { name: 'Títulos da operação' })
        assert.equal(await region.getAttribute('tabindex'), '0')
        for (const [width, height] of [[1366, 900], [390, 844]] as const) {
          await page.setViewportSize({ width, height })
          const l = await layoutOf(page)
          assert.ok(l.scrollWidth <= l.innerWidth, `at ${width} px the page is ${l.scrollWidth} px wide`)
          assert.equal(l.amounts, 3 * 7, 'seven figures a título')
          assert.deepEqual(l.broken, [], `at ${width} px, broken across lines`)
          if (width === 1366) assert.ok(l.region.scrollWidth <= l.region.clientWidth, `at 1,366 px the whole table shows: ${JSON.stringify(l.region)}`)
          else assert.ok(l.region.scrollWidth > l.region.clientWidth, 'at 390 px the table scrolls in its region')
          await screenshot(page, `bordero-documento-${width}`)
          await axeChecked(page, `the borderô at ${width} px`)
        }
        // The keyboard reaches the region and scrolls it.
        await region.focus()
        await page.keyboard.press('ArrowRight')
        await page.waitForFunction(() => document.querySelector('.bordero-titulos')!.scrollLeft > 0)

        // On paper: an A4 page in landscape (842 × 595 points), the table not wider than the page.
        await page.emulateMedia({ media: 'print' })
        await page.setViewportSize({ width: 1047, height: 740 })
        const printed = await layoutOf(page)
        assert.ok(printed.region.scrollWidth <= printed.region.clientWidth, `printed, the table fits: ${JSON.stringify(printed.region)}`)
        assert.deepEqual(printed.broken, [], 'printed, broken across lines')
        await page.emulateMedia({ media: null }) // the PDF is printed with the print media
        const pdf = Buffer.from(await page.pdf({ preferCSSPageSize: true, printBackground: false }))
        assert.ok(isPdf(pdf))
        const boxes = [...pdf.toString('latin1').matchAll(/\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/g)].map((m) => [Number(m[1]), Number(m[2])])
        assert.ok(boxes.length > 0 && boxes.every(([x, y]) => Math.round(x!) === 842 && Math.round(y!) === 595), `pages ${JSON.stringify(boxes)}`)
        const pdfPages = await pdfText(pdf)
        const all = pdfPages.join('\n')
        for (const expected of [/Preço de\s+compra/, /\bIOF\b/, /NF-1003/, /R\$ 1\.234\.567,91/]) assert.match(all, expected, 'the printed page')
        assert.deepEqual(w.errors(), [])
      } finally {
        await w.close()
      }
    })

  for (const javaScriptEnabled of [true, false]) {
    it(`${javaScriptEnabled ? 'with' : 'without'} JavaScript: the borderô's PDF from the page, the signed file uploaded, its hash shown and its bytes back`,
      { skip: noBrowser, timeout: 120_000 }, async () => {
        const { op, net, operador } = await acceptedOperation()
        const w = await openPage(chrome.browser, { javaScriptEnabled, viewport: { width: 1366, height: 900 } })
        const suffix = javaScriptEnabled ? '' : '-sem-js'
        try {
          const { page } = w
          await signIn(w.page, server.base, operador.email)
          await page.goto(`${server.base}/conta/operacoes/${op.id}`)
          // Item 5: the operation is its number on the page, never its id.
          assert.match(await page.locator('h1').innerText(), new RegExp(`^Operação nº ${op.numero}\\b`))
          assert.ok(!(await page.locator('main').innerText()).includes(op.id.slice(0, 8)), 'no id on the page')
          if (javaScriptEnabled) await axeChecked(page, 'the operation with the formalization form')
          await screenshot(page, `bordero-operacao-1366${suffix}`)

          // The borderô's PDF, by the page's link, with the page's session.
          const href = await page.locator('#bordero-pdf').getAttribute('href')
          const pdf = await page.context().request.get(`${server.base}${href}`)
          assert.equal(pdf.status(), 200)
          assert.equal(pdf.headers()['content-type'], 'application/pdf')
          const bytes = await pdf.body()
          assert.ok(isPdf(bytes))
          const text = (await pdfText(bytes)).join('\n')
          for (const expected of [`Borderô da operação nº ${op.numero}`, 'Confecções Ação Ltda', '11.222.333/0001-81', 'NF-101', 'NF-102',
            'R$ 12.345,67', 'R$ 20.000,00', brl(net), 'João Sacado', dataBr(dayPlus(40)), 'horário de Brasília']) {
            assert.ok(text.includes(expected), `the PDF says ${expected}`)
          }

          // The signed file, uploaded with the formalization.
          const signedFile = Buffer.concat([Buffer.from('%PDF-1.7\n% assinado\n'), randomBytes(5000)])
          const sha = createHash('sha256').update(signedFile).digest('hex')
          const form = page.locator('#form-formalizacao')
          await form.locator('input[name="termo_arquivo"]').setInputFiles({ name: 'termo assinado.pdf', mimeType: 'application/pdf', buffer: signedFile })
          await form.locator('[name="assinado_em"]').fill(`${brasiliaDay(new Date())}T00:00`)
          await form.locator('[name="signatario_nome"]').fill('Conceição Araújo')
          await form.locator('[name="signatario_documento"]').fill('529.982.247-25')
          await Promise.all([page.waitForNavigation(), form.locator('button[type="submit"]').click()])
          assert.equal(await page.locator('#resumo-erros').count(), 0, await page.locator('main').innerText())
          assert.equal(await page.locator('#estado').innerText(), 'formalizada')
          assert.equal(await page.locator('#termo-sha256').innerText(), sha)
          await screenshot(page, `bordero-formalizada-1366${suffix}`)
          await page.setViewportSize({ width: 390, height: 844 })
          await screenshot(page, `bordero-formalizada-390${suffix}`)
          if (javaScriptEnabled) await axeChecked(page, 'the operation formalized, with the term')

          const back = await page.context().request.get(`${server.base}${await page.locator('#termo-download').getAttribute('href')}`)
          assert.equal(back.status(), 200)
          assert.ok((await back.body()).equals(signedFile), 'the same bytes back')
          assert.deepEqual(w.errors(), [])
        } finally {
          await w.close()
        }
      })
  }
})

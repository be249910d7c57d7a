// The back office's lists in a real browser (issue 32 items 2 and 3), with JavaScript and without: on the títulos
// across operations a search and two filters narrow the list and survive a reload (they are in the URL); the CSV
// downloaded from the filtered list holds exactly those rows, parsed as `;`-separated UTF-8 with its BOM; a head
// sorts. axe-core in light and dark; screenshots at 1,366 px and 390 px kept under test-results/.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it, before } from 'node:test'
import type { Page } from 'playwright-core'
import { bearer, issueToken } from '../helpers/api-credentials.ts'
import { personWithPassword } from '../helpers/account-web.ts'
import { readExport } from '../helpers/csv.ts'
import { axeViolations, noBrowser, openPage, screenshot, serious, useBrowser, useServer } from './browser.ts'
import { dayPlus, signIn } from './backoffice-steps.ts'

describe('the back office\'s lists in the browser', () => {
  const chrome = useBrowser()
  const server = useServer()
  let email = ''
  let sacadoId = ''

  before(async () => {
    if (noBrowser) return
    const admin = await personWithPassword(server.db)
    email = admin.email
    const { token } = await issueToken(server.db, admin.clienteId, { escopos: ['cadastro', 'operacoes'] })
    const call = async (url: string, payload: object) => {
      const res = await bearer(server.app, token, 'POST', url, { payload })
      assert.equal(res.statusCode, 201, res.body)
      return res.json() as { id: string }
    }
    const produto = await call('/api/produtos', {
      nome: 'Duplicatas', base: 'simples_30', taxa_mensal: '0.035', taxa_ad_valorem: '0.003', tarifa_por_titulo_centavos: 800, tac_centavos: 15_000,
      dias_float: { duplicata_mercantil: 2, duplicata_servico: 2, cheque: 2, nota_promissoria: 2, ccb: 2, cte: 2 }, iof: 'calcular',
    })
    const cedente = await call('/api/cedentes', { documento: '11222333000181', razao_social: 'Cedente Exemplo Ltda', perfil_iof: 'pj' })
    const sacados: { id: string }[] = []
    for (const documento of ['11144477735', '52998224725']) sacados.push(await call('/api/sacados', { documento, razao_social: `Sacado ${documento}` }))
    sacadoId = sacados[0]!.id
    for (let i = 0; i < 12; i++) {
      await call('/api/operacoes', {
        cedente_id: cedente.id, produto_id: produto.id, titulos: [0, 1].map((s) => ({
          tipo: s ? 'duplicata_servico' : 'duplicata_mercantil', numero: `NF-${i + 1}-${s ? 'B' : 'A'}`, sacado_id: sacados[s]!.id,
          emissao: dayPlus(0), vencimento: dayPlus(10 + i * 5), valor_face_centavos: 100_000 * (i + 1) + s,
        })),
      })
    }
  })

  const numbers = async (page: Page) => page.locator('#titulos tbody th').allInnerTexts()

  for (const javaScriptEnabled of [true, false]) {
    it(`${javaScriptEnabled ? 'with' : 'without'} JavaScript: a search and two filters narrow the títulos, survive a reload, and export exactly them`,
      { skip: noBrowser, timeout: 120_000 }, async () => {
        const w = await openPage(chrome.browser, { javaScriptEnabled, acceptDownloads: true, viewport: { width: 1366, height: 900 } })
        try {
          const { page } = w
          await signIn(w.page, server.base, email)
          await page.goto(`${server.base}/conta/titulos`)
          assert.match(await page.locator('#titulos-contagem').innerText(), /Página 1 de 1 · 24 itens/)

          // A search (the número's prefix) and two filters: the sacado and a due date.
          await page.fill('#filtro-busca', 'nf-1')
          await page.selectOption('#filtro-sacado_id', sacadoId)
          await page.fill('#filtro-vencimento_ate', dayPlus(55))
          await Promise.all([page.waitForNavigation(), page.click('#filtrar')])
          const shown = await numbers(page)
          assert.deepEqual(shown, ['NF-10-A', 'NF-1-A'], 'the sacado\'s, numbered NF-1…, due by the day (NF-11 and NF-12 later), newest first')
          assert.match(await page.locator('#titulos-contagem').innerText(), /· 2 itens/)
          const url = page.url()
          assert.match(url, /busca=nf-1/)
          assert.match(url, new RegExp(`sacado_id=${sacadoId}`))

          await page.reload()
          assert.deepEqual(await numbers(page), shown, 'the same rows after a reload')
          assert.equal(await page.inputValue('#filtro-busca'), 'nf-1')
          assert.equal(await page.inputValue('#filtro-sacado_id'), sacadoId)
          assert.equal(await page.inputValue('#filtro-vencimento_ate'), dayPlus(55))

          // A head sorts, the filters kept.
          await Promise.all([page.waitForNavigation(), page.click('#titulos thead a[data-ordem="vencimento"]')])
          assert.deepEqual(await numbers(page), ['NF-1-A', 'NF-10-A'])
          await Promise.all([page.waitForNavigation(), page.click('#titulos thead a[data-ordem="vencimento"]')])
          assert.deepEqual(await numbers(page), ['NF-10-A', 'NF-1-A'])

          const [download] = await Promise.all([page.waitForEvent('download'), page.click('#titulos-exportar')])
          assert.match(download.suggestedFilename(), /^titulos-\d{4}-\d{2}-\d{2}\.csv$/)
          const csv = readExport(readFileSync((await download.path())!, 'utf8'))
          assert.deepEqual(csv.rows.map((r) => r['Número']), ['NF-10-A', 'NF-1-A'], 'exactly the rows shown, in their order')
          assert.deepEqual(csv.rows.map((r) => r['Valor de face (R$)']), ['10000,00', '1000,00'])
          assert.ok(csv.rows.every((r) => r['Sacado'] === 'Sacado 11144477735' && /^\d{2}\/\d{2}\/\d{4}$/.test(r['Vencimento']!)))

          if (javaScriptEnabled) {
            for (const colorScheme of ['light', 'dark'] as const) {
              await page.emulateMedia({ colorScheme })
              const found = serious(await axeViolations(page))
              assert.deepEqual(found, [], `títulos (${colorScheme}): ${JSON.stringify(found, null, 1)}`)
            }
            await page.emulateMedia({ colorScheme: 'light' })
            await screenshot(page, 'lists-titulos-1366')
            await page.setViewportSize({ width: 390, height: 844 })
            await screenshot(page, 'lists-titulos-390')
            await page.setViewportSize({ width: 1366, height: 900 })
            for (const path of ['/conta/operacoes', '/conta/cedentes', '/conta/sacados', '/conta/desembolsos', '/conta/razao']) {
              await page.goto(`${server.base}${path}?busca=a`)
              for (const colorScheme of ['light', 'dark'] as const) {
                await page.emulateMedia({ colorScheme })
                const found = serious(await axeViolations(page))
                assert.deepEqual(found, [], `${path} (${colorScheme}): ${JSON.stringify(found, null, 1)}`)
              }
            }
          }
          assert.deepEqual(w.errors(), [])
        } finally {
          await w.close()
        }
      })
  }
})

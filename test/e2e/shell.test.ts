// The back office's shell in a real browser (Debian's Chromium), issue 32 items 1 and 6: a person signs in and
// lands on the dashboard, whose figures are the API's; the shell's navigation reaches every section at 1,366 px
// (a column beside the page) and at 390 px (a wrapped list above it), with JavaScript and without, and nothing
// scrolls sideways; axe-core finds nothing serious in light or dark mode on any section. Screenshots of both
// widths are kept under test-results/.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { brl } from '../../src/platform/lib/brl.ts'
import { bearer, issueToken } from '../helpers/api-credentials.ts'
import { PASSWORD, personWithPassword } from '../helpers/account-web.ts'
import { created, exampleRegisters, key, type Caller } from '../modules/operations/helpers.ts'
import { noBrowser, openPage, screenshot, useBrowser, useServer } from './browser.ts'
import { axeChecked, dayPlus, signIn } from './backoffice-steps.ts'

const LAPTOP = { width: 1366, height: 900 }
const PHONE = { width: 390, height: 844 }
const SECTIONS = [
  'Painel', 'Operações', 'Títulos', 'Cobrança', 'Cedentes', 'Sacados', 'Produtos', 'Desembolsos', 'Razão', 'Auditoria', 'Webhooks', 'Feriados',
  'Pessoas e tokens',
]
describe('the back office\'s shell in the browser', () => {
  const chrome = useBrowser()
  const server = useServer()

  /** A customer with a person to sign in as, and an operation formalized today whose payment waits for approval. */
  async function customerWithADay() {
    const admin = await personWithPassword(server.db, PASSWORD, undefined, { nome: 'Carla Dias', cliente: 'Fomento do Shell Ltda' })
    const { token } = await issueToken(server.db, admin.clienteId, { escopos: ['conta', 'cadastro', 'operacoes', 'financeiro'] })
    const call: Caller = (method, url, payload, headers) => bearer(server.app, token, method as 'GET', url, {
      ...(payload ? { payload } : {}), ...(headers ? { headers } : {}),
    })
    const regs = await exampleRegisters(call, { cedente: { limite_centavos: 10_000_000 } })
    const s = regs.sacados.map((x: { id: string }) => x.id)
    const op = created(await call('POST', '/api/operacoes', {
      cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: dayPlus(0), titulos: [
        { tipo: 'duplicata_servico', numero: 'S1', sacado_id: s[0], emissao: dayPlus(-3), vencimento: dayPlus(5), valor_face_centavos: 1_234_567 },
        { tipo: 'duplicata_mercantil', numero: 'S2', sacado_id: s[1], emissao: dayPlus(-3), vencimento: dayPlus(20), valor_face_centavos: 2_500_000 },
        { tipo: 'cheque', numero: 'S3', sacado_id: s[2], emissao: dayPlus(-3), vencimento: dayPlus(45), valor_face_centavos: 800_000 },
      ],
    }))
    created(await call('POST', `/api/operacoes/${op.id}/cotacao`))
    created(await call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key()), 200)
    created(await call('POST', `/api/operacoes/${op.id}/formalizacao`, {
      termo_sha256: 'e'.repeat(64), assinado_em: new Date(Date.now() - 60_000).toISOString(), signatarios: [{ nome: 'Sócia', documento: '111.444.777-35' }],
    }), 200)
    created(await call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
    return { admin, call, cedente: regs.cedente }
  }

  // axe-core runs as the page's script: a page without JavaScript is the same markup, checked with it.
  let axeOn = true
  const axeIfScripted = async (page: Page, what: string) => {
    if (axeOn) await axeChecked(page, what)
  }

  /** The navigation's links as they stand: each one's text, and whether it is on screen, inside the viewport's width. */
  const navLinks = (page: Page) => page.$$eval('#menu-retaguarda a', (links) => links.map((a) => {
    const r = a.getBoundingClientRect()
    return { text: a.textContent, shown: r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= window.innerWidth + 0.5, left: r.left, top: r.top }
  }))
  const noSidewaysScroll = async (page: Page, what: string) => {
    const { scroll, width, past } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth, width: window.innerWidth,
      // What sticks out, to name in the failure: the outermost elements past the window's right edge.
      past: [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5
        && !(e.parentElement && e.parentElement.getBoundingClientRect().right > window.innerWidth + 0.5)).slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
    }))
    assert.ok(scroll <= width, `${what}: ${scroll} px wide in a ${width} px window: ${past.join(', ')}`)
  }

  for (const javaScriptEnabled of [true, false]) {
    it(`${javaScriptEnabled ? 'with' : 'without'} JavaScript: the dashboard's figures are the API's; the navigation reaches every section at 1,366 and 390 px`,
      { skip: noBrowser }, async () => {
        const { admin, call, cedente } = await customerWithADay()
        const w = await openPage(chrome.browser, { javaScriptEnabled, viewport: LAPTOP })
        const suffix = javaScriptEnabled ? '' : '-sem-js'
        axeOn = javaScriptEnabled
        try {
          const { page } = w
          await signIn(page, server.base, admin.email)
          assert.equal(await page.textContent('#shell-cliente'), 'Fomento do Shell Ltda')
          assert.equal(await page.textContent('#shell-pessoa'), 'Carla Dias')
          assert.equal(await page.textContent('#shell-papel'), 'administrador')

          // The dashboard's tables, as the screen shows them, against GET /api/painel.
          const painel = created(await call('GET', '/api/painel'), 200)
          const cell = (table: string, row: string, label: string) => page.textContent(`#${table} tr[${row}] td[data-rotulo="${label}"]`)
          assert.equal(await cell('painel-cedentes', `data-id="${cedente.id}"`, 'Exposição'), brl(painel.exposicao_cedentes[0].exposicao_centavos))
          assert.equal(painel.exposicao_cedentes[0].exposicao_centavos, 4_534_567)
          assert.equal(await cell('painel-cedentes', `data-id="${cedente.id}"`, 'Limite'), brl(10_000_000))
          for (const v of painel.vencimentos) {
            assert.equal(await cell('painel-vencimentos', `data-prazo="${v.dias}"`, 'Títulos'), String(v.quantidade))
            assert.equal(await cell('painel-vencimentos', `data-prazo="${v.dias}"`, 'Valor em aberto'), brl(v.valor_centavos))
          }
          assert.deepEqual(painel.vencimentos.map((v: { quantidade: number }) => v.quantidade), [1, 2])
          assert.equal(await cell('painel-desembolsos', 'data-desembolsos="aguardando"', 'Valor'), brl(painel.desembolsos_aguardando_aprovacao.valor_centavos))
          for (const e of painel.operacoes_por_estado) {
            assert.equal(await cell('painel-estados', `data-estado="${e.estado}"`, 'Operações'), String(e.quantidade))
          }
          // Amounts on one line, right-aligned.
          const amount = page.locator(`#painel-cedentes tr[data-id="${cedente.id}"] td[data-rotulo="Exposição"]`)
          assert.deepEqual(await amount.evaluate((td) => [getComputedStyle(td).whiteSpace, getComputedStyle(td).textAlign]), ['nowrap', 'right'])

          // A laptop: the sections in a column beside the page, every one on screen.
          const wide = await navLinks(page)
          assert.deepEqual(wide.map((l) => l.text), SECTIONS)
          assert.ok(wide.every((l) => l.shown), JSON.stringify(wide))
          const mainLeft = await page.locator('#conteudo').evaluate((m) => m.getBoundingClientRect().left)
          assert.ok(wide.every((l) => l.left < mainLeft), 'the navigation is a column left of the page')
          await noSidewaysScroll(page, 'dashboard at 1,366 px')
          await screenshot(page, `shell-painel-1366${suffix}`)
          await axeIfScripted(page, 'dashboard at 1,366 px')
          await page.emulateMedia({ colorScheme: 'dark' })
          await screenshot(page, `shell-painel-1366-escuro${suffix}`)
          await page.emulateMedia({ colorScheme: 'light' })

          // A phone: the same links, wrapped above the page, all on screen, nothing to open first.
          await page.setViewportSize(PHONE)
          const narrow = await navLinks(page)
          assert.ok(narrow.every((l) => l.shown), JSON.stringify(narrow))
          assert.ok(new Set(narrow.map((l) => Math.round(l.top))).size > 1, 'the list wraps onto several lines')
          const mainTop = await page.locator('#conteudo').evaluate((m) => m.getBoundingClientRect().top)
          assert.ok(narrow.every((l) => l.top < mainTop), 'the navigation is above the page')
          await noSidewaysScroll(page, 'dashboard at 390 px')
          await screenshot(page, `shell-painel-390${suffix}`)
          await axeIfScripted(page, 'dashboard at 390 px')

          // Every section from the navigation (the títulos' list is another part's page), each in the shell,
          // marked current, axe-clean at both widths.
          for (const width of javaScriptEnabled ? [LAPTOP, PHONE] : [PHONE]) {
            await page.setViewportSize(width)
            for (const section of SECTIONS.filter((s) => s !== 'Títulos' && s !== 'Painel')) {
              await page.locator('#menu-retaguarda').getByRole('link', { name: section, exact: true }).click()
              await page.locator('#menu-retaguarda a[aria-current="page"]', { hasText: section }).waitFor()
              assert.equal(await page.textContent('#shell-cliente'), 'Fomento do Shell Ltda', section)
              await noSidewaysScroll(page, `${section} at ${width.width} px`)
              await axeIfScripted(page, `${section} at ${width.width} px`)
            }
            await screenshot(page, `shell-pessoas-${width.width}${suffix}`)
          }

          // Back to the dashboard by the navigation, and out by the shell's own button.
          await page.locator('#menu-retaguarda').getByRole('link', { name: 'Painel', exact: true }).click()
          await page.waitForURL(`${server.base}/conta`)
          await page.click('#shell-sair')
          await page.waitForURL(`${server.base}/conta/entrar?aviso=saiu`)
          assert.deepEqual(w.errors(), [])
        } finally {
          await w.close()
        }
      })
  }
})

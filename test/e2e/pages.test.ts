// The pages in a real browser (Debian's Chromium): the live status with every service and its refresh, the
// API reference with the seven endpoints, every page readable on a phone and in dark mode, and an
// axe-core check of each page (and of the form's error and receipt states): no serious or critical
// violation, no console error (CSP violations included).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { declareWindow } from '../../src/modules/status/maintenance.ts'
import { axeViolations, noBrowser, openPage, screenshot, serious, useBrowser, useServer } from './browser.ts'

const PAGES = [
  { path: '/', name: 'inicio' },
  { path: '/contato', name: 'contato' },
  { path: '/status', name: 'status' },
  { path: '/docs', name: 'docs' },
  { path: '/privacidade', name: 'privacidade' },
  { path: '/pagina-que-nao-existe', name: '404' },
]

const PHONE = { width: 360, height: 740 }

describe('site pages in the browser', () => {
  const chrome = useBrowser()
  const server = useServer()

  it('/status shows every service with its state, latency and mode, the overall state and the time of the check', { skip: noBrowser }, async () => {
    const w = await openPage(chrome.browser)
    try {
      await w.page.goto(`${server.base}/status`)
      const snap = await server.app.deps.snapshot.current()
      const rows = w.page.locator('#servicos tbody tr')
      assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.servico)), snap.servicos.map((s) => s.nome))
      assert.deepEqual(snap.servicos.map((s) => s.nome), ['api', 'banco', 'email', 'limites'])
      for (const [i, name] of ['API pública', 'Banco de dados', 'Envio de e-mail', 'Limites de requisições'].entries()) {
        const cells = await rows.nth(i).locator('th, td').allTextContents()
        assert.equal(cells[0], name)
        assert.equal(cells[1], 'ok')
        assert.equal(cells.length, 4)
      }
      assert.match((await rows.nth(1).locator('td').nth(1).textContent())!, /^\d+(,\d)? ms$/, 'the database latency')
      assert.equal((await rows.nth(2).locator('td').nth(2).textContent()), 'sandbox (não envia)', 'the e-mail mode')
      assert.equal(await w.page.textContent('#estado-geral'), 'Operacional')
      assert.match((await w.page.getAttribute('#verificado-em', 'datetime'))!, /^\d{4}-\d\d-\d\dT/)
      assert.equal(await w.page.isVisible('#manutencao'), false, 'no banner without a window')
      assert.match((await w.page.textContent('#atualizacao'))!, /se atualiza sozinha a cada 5 segundos/)
      await screenshot(w.page, 'status')

      // A window declared now shows up as a banner without reloading: the page refreshes itself.
      const now = new Date()
      const first = await w.page.getAttribute('#verificado-em', 'datetime')
      await declareWindow(server.db.orm, {
        inicio: new Date(now.getTime() - 60_000), fim: new Date(now.getTime() + 3_600_000), mensagem: 'Atualização do banco de dados',
      }, now)
      await w.page.locator('#manutencao').waitFor({ state: 'visible', timeout: 12_000 })
      assert.match((await w.page.textContent('#manutencao'))!, /^Manutenção em andamento: Atualização do banco de dados\. Previsão de término: /)
      assert.equal(await w.page.textContent('#estado-geral'), 'Em manutenção')
      assert.notEqual(await w.page.getAttribute('#verificado-em', 'datetime'), first, 'the time of the check moves on')
      assert.equal(await w.page.textContent('#anuncio-status'), 'Estado geral: Em manutenção', 'the change is announced')
      assert.equal(await w.page.locator('#servicos tbody tr').count(), 4)
      await screenshot(w.page, 'status-manutencao')
      assert.deepEqual(w.errors(), [])
    } finally {
      await w.close()
    }
  })

  it('/status is correct without JavaScript', { skip: noBrowser }, async () => {
    const w = await openPage(chrome.browser, { javaScriptEnabled: false })
    try {
      await w.page.goto(`${server.base}/status`)
      assert.equal(await w.page.locator('#servicos tbody tr').count(), 4)
      assert.ok(['Operacional', 'Em manutenção'].includes((await w.page.textContent('#estado-geral'))!))
      assert.equal(await w.page.isVisible('#atualizacao'), false)
      assert.equal(await w.page.getByRole('link', { name: 'Atualizar agora' }).isVisible(), true)
      await screenshot(w.page, 'status-sem-js')
      assert.deepEqual(w.errors(), [])
    } finally {
      await w.close()
    }
  })

  it('/docs shows the seven endpoints of /openapi.json, served from this origin only', { skip: noBrowser }, async () => {
    const w = await openPage(chrome.browser)
    const origins = new Set<string>()
    w.page.on('request', (r) => origins.add(new URL(r.url()).origin))
    try {
      await w.page.goto(`${server.base}/docs`)
      const headings = await w.page.locator('h4').allTextContents()
      const endpoints = headings.filter((h) => /^(GET|POST) \/api\//.test(h))
      assert.deepEqual(endpoints, [
        'GET /api/health', 'GET /api/health/ready', 'GET /api/version', 'GET /api/status',
        'POST /api/site/contato', 'GET /api/site/contato/assuntos', 'GET /api/site/contato/estado',
      ])
      for (const e of endpoints) assert.equal(await w.page.locator('h4', { hasText: e }).first().isVisible(), true, e)
      // The summary table links to each operation.
      await w.page.click('a[href="#post-api-site-contato"]')
      assert.equal(new URL(w.page.url()).hash, '#post-api-site-contato')
      for (const h of ['Endereço base', 'Limites de requisições', 'Códigos de erro', 'Como ler um 422']) {
        assert.equal(await w.page.locator('h3', { hasText: h }).isVisible(), true, h)
      }
      assert.deepEqual([...origins], [server.base])
      await w.page.evaluate(() => window.scrollTo(0, 0))
      await screenshot(w.page, 'docs')
      assert.deepEqual(w.errors(), [])
    } finally {
      await w.close()
    }
  })

  for (const p of PAGES) {
    it(`${p.path}: no serious or critical axe-core violation, light and dark`, { skip: noBrowser }, async () => {
      const w = await openPage(chrome.browser, { expectNetwork: p.name === '404' ? [404] : [] })
      try {
        const res = await w.page.goto(`${server.base}${p.path}`)
        assert.equal(res?.status(), p.name === '404' ? 404 : 200)
        const backgrounds = new Set<string>()
        for (const colorScheme of ['light', 'dark'] as const) {
          await w.page.emulateMedia({ colorScheme })
          backgrounds.add(await w.page.evaluate(() => getComputedStyle(document.body).backgroundColor))
          const found = serious(await axeViolations(w.page))
          assert.deepEqual(found, [], `${p.path} (${colorScheme}): ${JSON.stringify(found, null, 1)}`)
        }
        assert.equal(backgrounds.size, 2, 'prefers-color-scheme switches the colours')
        await screenshot(w.page, `${p.name}-escuro`)
        assert.deepEqual(w.errors(), [])
      } finally {
        await w.close()
      }
    })
  }

  it('the contact form\'s error and receipt states pass axe too', { skip: noBrowser }, async () => {
    const w = await openPage(chrome.browser, { expectNetwork: [422] })
    try {
      await w.page.goto(`${server.base}/contato`)
      await w.page.fill('#campo-nome', 'A')
      await w.page.click('#enviar')
      await w.page.locator('#resumo-erros').waitFor({ state: 'visible' })
      assert.deepEqual(serious(await axeViolations(w.page)), [], 'errors shown')
      await screenshot(w.page, 'contato-axe-erros')
      await w.page.fill('#campo-nome', 'Ana Acessível')
      await w.page.fill('#campo-email', 'ana@acessivel.com.br')
      await w.page.fill('#campo-mensagem', `Mensagem para conferir a acessibilidade ${process.pid}`)
      await w.page.click('#enviar')
      await w.page.locator('#resultado').waitFor({ state: 'visible' })
      assert.deepEqual(serious(await axeViolations(w.page)), [], 'receipt shown')
      await screenshot(w.page, 'contato-axe-recibo')
      assert.deepEqual(w.errors(), [])
    } finally {
      await w.close()
    }
  })

  it('every page is readable on a phone: no sideways scrolling, text at a readable size', { skip: noBrowser }, async () => {
    const w = await openPage(chrome.browser, { viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2, expectNetwork: [404] })
    try {
      for (const p of PAGES) {
        await w.page.goto(`${server.base}${p.path}`)
        const { scroll, font } = await w.page.evaluate(() => ({
          // A phone widens its layout viewport to fit a page too wide for it: measure the page itself.
          scroll: document.documentElement.scrollWidth,
          font: Number.parseFloat(getComputedStyle(document.body).fontSize),
        }))
        assert.ok(scroll <= PHONE.width, `${p.path}: page ${scroll}px wide in a ${PHONE.width}px screen`)
        assert.ok(font >= 16, `${p.path}: body text ${font}px`)
        if (p.name === 'contato' || p.name === 'docs' || p.name === 'status') await screenshot(w.page, `${p.name}-celular`)
      }
      assert.deepEqual(w.errors(), [])
    } finally {
      await w.close()
    }
  })
})

// The web app in a real browser (Debian's Chromium), end to end: the invitation e-mail's link, a password, the
// account page, a token made (its secret seen once, copied with the button), revoked, and logging out and in
// again; axe-core on every page and state, no console error (CSP violations included). And the same without
// JavaScript: every form still works.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { invitedPerson } from '../helpers/account-web.ts'
import { activate } from './account-steps.ts'
import { axeViolations, noBrowser, openPage, screenshot, serious, useBrowser, useServer } from './browser.ts'

const SENHA = 'jabuticaba azul no telhado'
const PHONE = { width: 360, height: 740 }

describe('the account in the browser', () => {
  const chrome = useBrowser()
  const server = useServer()

  const noSerious = async (page: import('playwright-core').Page, what: string) => {
    const found = serious(await axeViolations(page))
    assert.deepEqual(found, [], `${what}: ${JSON.stringify(found, null, 1)}`)
  }

  it('invitation link → password → /conta → token made and copied (seen once) → revoked → sair → entrar', { skip: noBrowser }, async () => {
    const p = await invitedPerson(server.db, server.base)
    const w = await openPage(chrome.browser, { permissions: ['clipboard-read', 'clipboard-write'], expectNetwork: [422] })
    try {
      const { page } = w
      await page.goto(p.link)
      assert.equal(await page.textContent('h1'), 'Ativar o acesso')
      await noSerious(page, 'activation')
      await page.fill('#campo-senha', 'curta')
      await page.fill('#campo-senha_confirmacao', 'curta')
      await page.click('#ativar')
      assert.match((await page.textContent('#erro-senha'))!, /pelo menos 12 caracteres/)
      await noSerious(page, 'activation with an error')
      await page.fill('#campo-senha', SENHA)
      await page.fill('#campo-senha_confirmacao', SENHA)
      await page.click('#ativar')
      await page.waitForURL(`${server.base}/conta`)
      await noSerious(page, '/conta (the dashboard)')
      await page.click('#menu-retaguarda a[href="/conta/pessoas"]')
      await page.waitForURL(`${server.base}/conta/pessoas`)
      assert.equal(await page.textContent('#usuario-email'), p.email)
      await noSerious(page, '/conta/pessoas')
      await screenshot(page, 'conta')

      await page.fill('#campo-nome', 'Integração ERP')
      await page.check('#escopo-tokens')
      await page.selectOption('#campo-validade_dias', '30')
      await page.click('#criar-token')
      const secret = (await page.locator('#token-novo').textContent())!
      assert.match(secret, /^fct_pat_[0-9A-Za-z]{38}$/)
      await page.click('#copiar-token')
      await page.locator('#copia-estado', { hasText: 'Copiado.' }).waitFor()
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret)
      await noSerious(page, 'token created')
      await screenshot(page, 'conta-token-criado')
      await page.emulateMedia({ colorScheme: 'dark' })
      await noSerious(page, 'token created, dark')
      await page.emulateMedia({ colorScheme: 'light' })
      await page.setViewportSize(PHONE)
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= PHONE.width, 'no sideways scrolling on a phone')
      await screenshot(page, 'conta-celular')
      await page.setViewportSize({ width: 1280, height: 720 })

      await page.goto(`${server.base}/conta/pessoas`)
      assert.equal(await page.locator('#token-novo').count(), 0)
      assert.ok(!(await page.content()).includes(secret), 'the secret is never shown again')
      const row = page.locator('#tokens tbody tr', { hasText: 'Integração ERP' })
      assert.equal(await row.locator('td[data-rotulo="Situação"]').textContent(), 'ativo')
      await row.getByRole('button', { name: 'Revogar o token Integração ERP' }).click()
      await page.locator('#aviso', { hasText: 'O token foi revogado' }).waitFor()
      assert.equal(await row.locator('td[data-rotulo="Situação"]').textContent(), 'revogado')
      await noSerious(page, 'token revoked')

      await page.click('#sair')
      await page.waitForURL(`${server.base}/conta/entrar?aviso=saiu`)
      assert.match((await page.textContent('#aviso'))!, /Você saiu da conta/)
      await noSerious(page, 'login page')
      await page.goto(`${server.base}/conta`)
      assert.equal(new URL(page.url()).pathname, '/conta/entrar', 'logged out')

      await page.fill('#campo-email', 'outra.pessoa@cliente.com.br')
      await page.fill('#campo-senha', SENHA)
      await page.click('#entrar')
      assert.match((await page.textContent('#resumo-erros'))!, /E-mail ou senha incorretos/)
      await noSerious(page, 'login refused')
      await page.fill('#campo-email', p.email)
      await page.fill('#campo-senha', SENHA)
      await page.click('#entrar')
      await page.waitForURL(`${server.base}/conta`)
      await page.goto(`${server.base}/conta/pessoas`)
      await page.click('#sair-de-todos')
      await page.waitForURL(`${server.base}/conta/entrar?aviso=saiu-de-todos`)
      assert.deepEqual(w.errors(), [])
    } finally {
      await w.close()
    }
  })

  it('without JavaScript: activation, a token (its text selectable, no copy button) and sair all work', { skip: noBrowser }, async () => {
    const p = await invitedPerson(server.db, server.base, 'Bruno Lima')
    const w = await openPage(chrome.browser, { javaScriptEnabled: false })
    try {
      const { page } = w
      await activate(page, p.link, SENHA, server.base)
      await page.fill('#campo-nome', 'Agente')
      await page.click('#criar-token')
      assert.match((await page.locator('#token-novo').textContent())!, /^fct_pat_/)
      assert.equal(await page.locator('#copiar-token').isVisible(), false)
      await page.click('#sair')
      await page.waitForURL(`${server.base}/conta/entrar?aviso=saiu`)
      assert.deepEqual(w.errors(), [])
    } finally {
      await w.close()
    }
  })
})

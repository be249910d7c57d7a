// The invitation link followed as a person does, from another site (their webmail): the secret leaves the URL at
// once, the SameSite=Strict cookie that now holds it reaches the form although the navigation began elsewhere, and
// no later request of the page carries the secret, in its URL or in a Referer.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { invitedPerson } from '../helpers/account-web.ts'
import { noBrowser, openPage, useBrowser, useServer } from './browser.ts'

const SENHA = 'jabuticaba azul no telhado'

describe('the activation link from another site', () => {
  const chrome = useBrowser()
  const server = useServer()

  it('clicked in another site\'s page: a clean /conta/ativar, its form, /conta; the secret in no later URL or Referer', { skip: noBrowser }, async () => {
    const p = await invitedPerson(server.db, server.base)
    const w = await openPage(chrome.browser)
    try {
      const { page } = w
      const seen: { url: string, referer: string | undefined }[] = []
      page.on('request', (r) => seen.push({ url: r.url(), referer: r.headers().referer }))
      // A page of no origin of ours (as a webmail's is): the navigation it starts is cross-site.
      await page.setContent(`<a id="convite" href="${p.link}">Ativar o acesso</a>`)
      await page.click('#convite')
      await page.locator('#form-ativar').waitFor()
      assert.equal(page.url(), `${server.base}/conta/ativar`)
      assert.equal(await page.textContent('h1'), 'Ativar o acesso')
      assert.ok((await page.content()).includes(p.email))

      await page.fill('#campo-senha', SENHA)
      await page.fill('#campo-senha_confirmacao', SENHA)
      await page.click('#ativar')
      await page.waitForURL(`${server.base}/conta`)
      await page.goto(`${server.base}/conta/pessoas`)
      assert.equal(await page.textContent('#usuario-email'), p.email)

      const first = seen.findIndex((r) => r.url === p.link)
      assert.ok(first >= 0, 'the link was requested')
      for (const r of seen.slice(first + 1)) {
        assert.ok(!r.url.includes(p.token), `no later URL carries the secret: ${r.url}`)
        assert.ok(!r.referer?.includes(p.token), `no Referer carries the secret: ${r.url} ← ${r.referer}`)
      }
      const cookies = await page.context().cookies()
      assert.ok(!cookies.some((c) => c.value === p.token), 'the invitation\'s cookie is dropped once used')
      assert.deepEqual(w.errors(), [])
    } finally {
      await w.close()
    }
  })
})

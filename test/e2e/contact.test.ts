// The contact form in a real browser (Debian's Chromium): with JavaScript it posts JSON to the API and
// shows the protocolo, each 422 error beside its field, the 429 wait; a double click sends once; without
// JavaScript the same form posts to the site and gets the result page. No console error in any of them.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import { PROTOCOLO_PATTERN } from '../../src/modules/contact/protocolo.ts'
import { contato, outbox } from '../../src/platform/db/schema.ts'
import { useTestDatabase } from '../helpers/fixture.ts'
import { noBrowser, openPage, screenshot, useBrowser, useServer, type WatchedPage } from './browser.ts'

let run = 0
const message = () => `Quero antecipar as duplicatas da próxima quinzena. Ref ${process.pid}-${++run}`

async function fill(w: WatchedPage, fields: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'assunto') await w.page.selectOption('#campo-assunto', value)
    else await w.page.fill(`#campo-${name}`, value)
  }
}

// One browser and one database for the file; a server with a generous contact budget, another with a tiny one.
const chrome = useBrowser()
const tdb = useTestDatabase({ skip: noBrowser })

describe('contact form in the browser', () => {
  // No minimum fill time here (a driver types faster than a person): spam.test.ts has one.
  const server = useServer(() => ({ db: tdb.db, env: { SPAM_MIN_FILL_MS: '0' } }))

  it('with JavaScript: fills, submits as JSON to the API, shows protocolo and destino', { skip: noBrowser }, async () => {
    const w = await openPage(chrome.browser)
    try {
      const subjects = w.page.waitForResponse((r) => r.url().endsWith('/api/site/contato/assuntos'))
      await w.page.goto(`${server.base}/contato`)
      // The selector is (re)built from GET /api/site/contato/assuntos.
      const list = (await (await subjects).json()) as { assuntos: { codigo: string, rotulo: string }[] }
      assert.deepEqual(await w.page.locator('#campo-assunto option').evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent])),
        list.assuntos.map((s) => [s.codigo, s.rotulo]))
      const mensagem = message()
      await fill(w, {
        nome: 'Helena Ribeiro', email: 'helena@tecelagem.com.br', assunto: 'financeiro', empresa: 'Tecelagem Ribeiro', telefone: '+55 47 3333-0000', mensagem,
      })
      const posted = w.page.waitForRequest((r) => r.url().endsWith('/api/site/contato') && r.method() === 'POST')
      await w.page.click('#enviar')
      const req = await posted
      assert.equal(req.headers()['content-type'], 'application/json')
      // The contract's fields, and the page's fill-time token (the honeypot, left empty, is not sent).
      const { token_formulario: token, ...sent } = JSON.parse(req.postData()!) as Record<string, string>
      assert.deepEqual(sent, {
        nome: 'Helena Ribeiro', email: 'helena@tecelagem.com.br', assunto: 'financeiro', empresa: 'Tecelagem Ribeiro', telefone: '+55 47 3333-0000', mensagem,
      })
      assert.match(token ?? '', /^v1\./)
      await w.page.locator('#resultado').waitFor({ state: 'visible' })
      const protocolo = (await w.page.textContent('#protocolo'))!.trim()
      assert.match(protocolo, PROTOCOLO_PATTERN)
      assert.equal((await w.page.textContent('#destino'))!.trim(), 'financeiro@factoring.example')
      assert.equal(await w.page.evaluate(() => document.activeElement?.id), 'resultado', 'focus moves to the receipt')
      assert.equal(await w.page.isVisible('#form-contato'), false)
      const [row] = await server.db.orm.select().from(contato).where(eq(contato.protocolo, protocolo))
      assert.equal(row?.mensagem, mensagem)
      assert.equal(row?.spam, null)
      await screenshot(w.page, 'contato-js-enviado')
      assert.deepEqual(w.errors(), [])
    } finally {
      await w.close()
    }
  })

  it('with JavaScript: a 422 shows each error beside its field, tied by aria-describedby, focus on the first', { skip: noBrowser }, async () => {
    const w = await openPage(chrome.browser, { expectNetwork: [422] })
    try {
      await w.page.goto(`${server.base}/contato`)
      await fill(w, { nome: 'M', email: 'maria@empresa', mensagem: 'curta' })
      const answered = w.page.waitForResponse((r) => r.url().endsWith('/api/site/contato'))
      await w.page.click('#enviar')
      assert.equal((await answered).status(), 422)
      await w.page.locator('#resumo-erros').waitFor({ state: 'visible' })
      const expected: Record<string, string> = {
        nome: 'Use pelo menos 2 caracteres.',
        email: 'Informe um e-mail válido, como nome@empresa.com.br.',
        mensagem: 'Use pelo menos 10 caracteres.',
      }
      for (const [field, text] of Object.entries(expected)) {
        const input = w.page.locator(`#campo-${field}`)
        assert.equal(await input.getAttribute('aria-invalid'), 'true', field)
        const described = (await input.getAttribute('aria-describedby'))!.split(' ')
        assert.ok(described.includes(`erro-${field}`), `${field}: aria-describedby names its error`)
        const error = w.page.locator(`#erro-${field}`)
        assert.equal((await error.textContent())!.trim(), text, field)
        // Beside the field: just under it, in the same column.
        const [box, errBox] = [(await input.boundingBox())!, (await error.boundingBox())!]
        assert.ok(errBox.y >= box.y + box.height - 1 && errBox.y - (box.y + box.height) < 30, `${field}: error right under the field`)
        assert.ok(Math.abs(errBox.x - box.x) < 5, `${field}: aligned with the field`)
      }
      for (const field of ['empresa', 'telefone', 'site']) assert.equal(await w.page.locator(`#campo-${field}`).getAttribute('aria-invalid'), null)
      assert.equal(await w.page.evaluate(() => document.activeElement?.id), 'campo-nome', 'focus on the first error')
      assert.equal(await w.page.locator('#resumo-erros li').count(), 3)
      await screenshot(w.page, 'contato-js-erros')

      // Fixing the fields and sending again clears the errors and gets the receipt.
      await fill(w, { nome: 'Maria Souza', email: 'maria@empresa.com.br', mensagem: message() })
      await w.page.click('#enviar')
      await w.page.locator('#resultado').waitFor({ state: 'visible' })
      assert.equal(await w.page.locator('[aria-invalid="true"]').count(), 0)
      assert.deepEqual(w.errors(), [])
    } finally {
      await w.close()
    }
  })

  it('with JavaScript: a double click sends once', { skip: noBrowser }, async () => {
    const w = await openPage(chrome.browser)
    try {
      await w.page.goto(`${server.base}/contato`)
      await fill(w, { nome: 'Paulo Duplo', email: 'paulo@duplo.com.br', mensagem: message() })
      let posts = 0
      w.page.on('request', (r) => { if (r.url().endsWith('/api/site/contato') && r.method() === 'POST') posts++ })
      await w.page.dblclick('#enviar')
      await w.page.locator('#resultado').waitFor({ state: 'visible' })
      await w.page.waitForTimeout(300)
      assert.equal(posts, 1)
      const protocolo = (await w.page.textContent('#protocolo'))!.trim()
      assert.equal((await server.db.orm.select().from(contato).where(eq(contato.protocolo, protocolo))).length, 1)
      await screenshot(w.page, 'contato-js-duplo-clique')
      assert.deepEqual(w.errors(), [])
    } finally {
      await w.close()
    }
  })

  it('without JavaScript: the form posts to the site and the result page shows the protocolo', { skip: noBrowser }, async () => {
    const w = await openPage(chrome.browser, { javaScriptEnabled: false })
    try {
      await w.page.goto(`${server.base}/contato`)
      await fill(w, { nome: 'Rita Sem Script', email: 'rita@noscript.com.br', assunto: 'suporte', mensagem: message() })
      const [response] = await Promise.all([
        w.page.waitForNavigation(),
        w.page.click('#enviar'),
      ])
      assert.equal(response?.status(), 202)
      assert.equal(new URL(w.page.url()).pathname, '/contato')
      assert.equal((await w.page.textContent('h1'))!.trim(), 'Mensagem recebida')
      const protocolo = (await w.page.textContent('#protocolo'))!.trim()
      assert.match(protocolo, PROTOCOLO_PATTERN)
      assert.equal((await w.page.textContent('#destino'))!.trim(), 'suporte@factoring.example')
      const [row] = await server.db.orm.select().from(contato).where(eq(contato.protocolo, protocolo))
      assert.equal(row?.nome, 'Rita Sem Script')
      assert.equal(row?.spam, null, 'the page\'s token came back with the form')
      assert.equal((await server.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo))).length, 1)
      await screenshot(w.page, 'contato-sem-js-enviado')
      assert.deepEqual(w.errors(), [])
    } finally {
      await w.close()
    }
  })

  it('without JavaScript: errors come back beside their fields, with the focus on the first', { skip: noBrowser }, async () => {
    const w = await openPage(chrome.browser, { javaScriptEnabled: false, expectNetwork: [422] })
    try {
      await w.page.goto(`${server.base}/contato`)
      // The browser's own checks would stop an empty form; a value it accepts but the API refuses reaches the server.
      await fill(w, { nome: 'Rui', email: 'rui@empresa', mensagem: 'Mensagem longa o bastante.' })
      const [response] = await Promise.all([w.page.waitForNavigation(), w.page.click('#enviar')])
      assert.equal(response?.status(), 422)
      assert.equal((await w.page.textContent('#erro-email'))!.trim(), 'Informe um e-mail válido, como nome@empresa.com.br.')
      assert.equal(await w.page.locator('#campo-email').getAttribute('aria-invalid'), 'true')
      assert.equal(await w.page.evaluate(() => document.activeElement?.id), 'campo-email', 'autofocus on the first error')
      assert.equal(await w.page.inputValue('#campo-nome'), 'Rui', 'what was typed is kept')
      await screenshot(w.page, 'contato-sem-js-erros')
      assert.deepEqual(w.errors(), [])
    } finally {
      await w.close()
    }
  })
})

describe('contact form in the browser: over the rate limit', () => {
  const server = useServer(() => ({ contato: 1, db: tdb.db, env: { SPAM_MIN_FILL_MS: '0' } }))

  it('with JavaScript: a 429 shows how long to wait', { skip: noBrowser }, async () => {
    const w = await openPage(chrome.browser, { expectNetwork: [429] })
    try {
      await w.page.goto(`${server.base}/contato`)
      await fill(w, { nome: 'Lia Limite', email: 'lia@limite.com.br', mensagem: message() })
      await w.page.click('#enviar')
      await w.page.locator('#resultado').waitFor({ state: 'visible' })
      await w.page.click('#resultado button')
      await fill(w, { nome: 'Lia Limite', email: 'lia@limite.com.br', mensagem: message() })
      await w.page.click('#enviar')
      const alert = w.page.locator('#aviso-envio')
      await alert.waitFor({ state: 'visible' })
      assert.match((await alert.textContent())!, /Muitas mensagens enviadas em pouco tempo\. Tente de novo em 10 minutos \(\d+ segundos\)\./)
      assert.equal(await alert.getAttribute('role'), 'alert')
      assert.equal(await w.page.isEnabled('#enviar'), true, 'the button is usable again')
      await screenshot(w.page, 'contato-js-429')
      assert.deepEqual(w.errors(), [])
    } finally {
      await w.close()
    }
  })
})

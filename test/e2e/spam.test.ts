// The spam defences as a browser meets them. A person who takes longer than the minimum fill time is delivered;
// a bot that fills the honeypot or posts at once sees the same receipt as a person, and its contact is stored as
// spam with no outbox row. Each side has its own server, so no case depends on how fast Chromium fills a form:
// the person waits out a short minimum, and the bots meet a minimum (60 s) no browser-driven fill comes near.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import { PROTOCOLO_PATTERN } from '../../src/modules/contact/protocolo.ts'
import { contato, outbox } from '../../src/platform/db/schema.ts'
import { useTestDatabase } from '../helpers/fixture.ts'
import { noBrowser, openPage, useBrowser, useServer, type WatchedPage } from './browser.ts'

let run = 0
const message = () => `Quero antecipar as duplicatas da próxima quinzena. Ref ${process.pid}-${++run}`

async function fill(w: WatchedPage, fields: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(fields)) await w.page.fill(`#campo-${name}`, value)
}

const chrome = useBrowser()
const tdb = useTestDatabase({ skip: noBrowser })

async function stored(protocolo: string): Promise<{ spam: string | null | undefined, queued: number }> {
  const [row] = await tdb.db.orm.select().from(contato).where(eq(contato.protocolo, protocolo))
  return { spam: row?.spam, queued: (await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo))).length }
}

async function sendWithScript(w: WatchedPage): Promise<string> {
  await w.page.click('#enviar')
  await w.page.locator('#resultado').waitFor({ state: 'visible' })
  const protocolo = (await w.page.textContent('#protocolo'))!.trim()
  assert.match(protocolo, PROTOCOLO_PATTERN)
  return protocolo
}

async function sendWithoutScript(w: WatchedPage): Promise<string> {
  const [response] = await Promise.all([w.page.waitForNavigation(), w.page.click('#enviar')])
  assert.equal(response?.status(), 202)
  assert.equal((await w.page.textContent('h1'))!.trim(), 'Mensagem recebida')
  const protocolo = (await w.page.textContent('#protocolo'))!.trim()
  assert.match(protocolo, PROTOCOLO_PATTERN)
  return protocolo
}

const ways = [
  { script: true, how: 'with JavaScript', send: sendWithScript },
  { script: false, how: 'without JavaScript', send: sendWithoutScript },
]

// A minimum short enough to wait out: the wait is a lower bound, however slow the machine.
describe('contact form in the browser: spam rules and a person', () => {
  const MIN_FILL_MS = 1500
  const server = useServer(() => ({ db: tdb.db, env: { SPAM_MIN_FILL_MS: String(MIN_FILL_MS) } }))

  it('the honeypot is out of the keyboard\'s way: Tab from the message goes to the button', { skip: noBrowser }, async () => {
    const w = await openPage(chrome.browser)
    try {
      await w.page.goto(`${server.base}/contato`)
      await w.page.focus('#campo-mensagem')
      await w.page.keyboard.press('Tab')
      assert.equal(await w.page.evaluate(() => document.activeElement?.id), 'enviar')
      const box = (await w.page.locator('#campo-website').boundingBox())!
      assert.ok(box.x + box.width <= 0, 'off-screen')
    } finally {
      await w.close()
    }
  })

  for (const { script, how, send } of ways) {
    it(`${how}: a person who takes longer than the minimum fill time is delivered`, { skip: noBrowser }, async () => {
      const w = await openPage(chrome.browser, { javaScriptEnabled: script })
      try {
        await w.page.goto(`${server.base}/contato`)
        const loaded = Date.now()
        await fill(w, { nome: 'Clara Paciente', email: 'clara@paciente.com.br', mensagem: message() })
        await w.page.waitForTimeout(Math.max(0, MIN_FILL_MS + 300 - (Date.now() - loaded)))
        const protocolo = await send(w)
        assert.deepEqual(await stored(protocolo), { spam: null, queued: 1 })
        assert.deepEqual(w.errors(), [])
      } finally {
        await w.close()
      }
    })
  }
})

// The longest minimum the service accepts: a bot that posts as soon as it has filled the form is always too fast.
describe('contact form in the browser: bots', () => {
  const server = useServer(() => ({ db: tdb.db, env: { SPAM_MIN_FILL_MS: '60000' } }))

  for (const { script, how, send } of ways) {
    it(`${how}: a bot that fills the honeypot sees the same receipt; stored as spam "honeypot", never queued`, { skip: noBrowser }, async () => {
      const w = await openPage(chrome.browser, { javaScriptEnabled: script })
      try {
        await w.page.goto(`${server.base}/contato`)
        await fill(w, { nome: 'Robo Preenche Tudo', email: 'robo@ofertas.example', mensagem: message(), website: 'https://ofertas.example' })
        const protocolo = await send(w)
        // Too fast as well: the honeypot is the reason recorded.
        assert.deepEqual(await stored(protocolo), { spam: 'honeypot', queued: 0 })
        assert.deepEqual(w.errors(), [])
      } finally {
        await w.close()
      }
    })

    it(`${how}: a bot that posts at once sees the same receipt; stored as spam "rapido", never queued`, { skip: noBrowser }, async () => {
      const w = await openPage(chrome.browser, { javaScriptEnabled: script })
      try {
        await w.page.goto(`${server.base}/contato`)
        await fill(w, { nome: 'Robo Apressado', email: 'robo@pressa.example', mensagem: message() })
        const protocolo = await send(w)
        assert.deepEqual(await stored(protocolo), { spam: 'rapido', queued: 0 })
        assert.deepEqual(w.errors(), [])
      } finally {
        await w.close()
      }
    })
  }
})

// A hostile value in any field a page shows comes out as data, never as markup. Each page is rendered twice, once
// with plain words in every field and once with an attack in every field, and both are parsed by Chromium's own
// HTML parser (DOMParser: nothing runs, nothing loads): the two documents must have the same elements with the
// same attributes, and the attack must be there, whole, as text or as an attribute's value. First every view with
// every field (test/helpers/page-samples.ts), then what the routes put in them: the contact form's echo of a
// refused post, and /conta with a customer, a person, a token named by an attacker.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { emailProblem } from '../../../src/platform/lib/email-address.ts'
import { launchBrowser, noBrowser } from '../../e2e/browser.ts'
import { accountPage, csrfOf, login, personWithPassword, postForm } from '../../helpers/account-web.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { pageSamples } from '../../helpers/page-samples.ts'

const ATTACKS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  'javascript:alert(1)',
  '</textarea></title><svg onload=alert(1)>',
  '<!-- &amp; &lt;b&gt; ]]>',
]
const PLAIN = 'valor comum'

/** Fields a view takes but does not show: the chosen subject and validity select an option, the scope ticks a box. */
const NOT_SHOWN = new Set(['form.assunto', 'form-token.dias', 'form-token.escopo'])

type Parsed = { shape: string[], data: string[] }

/** Each document as the browser's parser builds it: its elements with their attributes' names, and its text and values. */
function parse(page: Page, documents: string[]): Promise<Parsed[]> {
  return page.evaluate((all) => all.map((source) => {
    const doc = new DOMParser().parseFromString(source, 'text/html')
    const walker = doc.createTreeWalker(doc, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT | NodeFilter.SHOW_COMMENT)
    const shape: string[] = []
    const data: string[] = []
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n instanceof Element) {
        shape.push(`${n.tagName}[${[...n.attributes].map((a) => a.name).join(' ')}]`)
        data.push(...[...n.attributes].map((a) => a.value))
      } else if (n instanceof Comment) shape.push('#comment')
      else data.push((n as Text).data)
    }
    return { shape, data }
  }), documents)
}

function useParser(): () => Page {
  let browser: Browser | undefined
  let page: Page | undefined
  before(async () => {
    if (noBrowser) return
    browser = await launchBrowser()
    page = await browser.newPage({ javaScriptEnabled: true })
  })
  after(() => browser?.close())
  return () => page!
}

/** The attack in `field`: the field's name after it, so the test can tell which field came out where. */
const attackIn = (attack: string, field: string) => `${attack} ${field}`

describe('every view, every field, every attack: parsed, the same elements and attributes as with plain words', { skip: noBrowser }, () => {
  const page = useParser()

  it('no element or attribute injected, and each attack shown whole', async () => {
    const fields = new Set<string>()
    const plain = pageSamples((f) => { fields.add(f); return `${PLAIN} ${f}` })
    const reference = await parse(page(), plain.map((s) => s.html))
    for (const attack of ATTACKS) {
      const samples = pageSamples((f) => attackIn(attack, f))
      const parsed = await parse(page(), samples.map((s) => s.html))
      samples.forEach((s, i) => assert.deepEqual(parsed[i]!.shape, reference[i]!.shape, `${s.name} with ${attack}`))
      const shown = parsed.flatMap((p) => p.data).join('\u0000')
      for (const f of fields) {
        if (!NOT_SHOWN.has(f)) assert.ok(shown.includes(attackIn(attack, f)), `${f} shows ${JSON.stringify(attack)} whole`)
      }
    }
    assert.ok(fields.size >= 50, `every field asked for (${fields.size})`)
  })
})

describe('the routes: what a visitor and a customer typed, echoed in their pages', { skip: noBrowser }, () => {
  const page = useParser()
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, contactBudget: 100 }, { skip: noBrowser })

  /** The contact form refused (a 422, every field echoed), and /conta after a token was refused and one was made. */
  async function pagesWith(value: (field: string) => string): Promise<string[]> {
    const fields = ['nome', 'email', 'assunto', 'empresa', 'telefone', 'site', 'mensagem']
    const form = await postForm(ctx.app, '/contato', Object.fromEntries(fields.map((f) => [f, value(f)])))
    assert.equal(form.statusCode, 422)
    const email = `x'${value('email').replace(/[^a-z0-9'=&!#$%*+/?^_`{|}~-]/gi, '')}@cliente.example`
    assert.equal(emailProblem(email), null, email)
    const p = await personWithPassword(ctx.db, undefined, email, { nome: value('pessoa'), cliente: value('cliente') })
    const cookie = await login(ctx.app, p.email)
    const csrf = csrfOf((await accountPage(ctx.app, cookie)).body)
    const token = (nome: string, dpop: string) =>
      postForm(ctx.app, '/conta/tokens', { csrf, nome, escopos: 'conta', validade_dias: '30', dpop_jkt: dpop }, { cookie })
    const refused = await token(value('token'), value('dpop'))
    assert.equal(refused.statusCode, 422)
    const made = await token(value('token'), '')
    assert.equal(made.statusCode, 201)
    return [form.body, refused.body, made.body, (await accountPage(ctx.app, cookie)).body]
  }

  it('the same elements and attributes as with plain words, each attack shown whole', async () => {
    for (const attack of ATTACKS) {
      // Words of the attack's length: a field too long for its limit is refused with either.
      const reference = await parse(page(), await pagesWith((f) => attackIn('a'.repeat(attack.length), f)))
      const parsed = await parse(page(), await pagesWith((f) => attackIn(attack, f)))
      parsed.forEach((p, i) => assert.deepEqual(p.shape, reference[i]!.shape, `page ${i} with ${attack}`))
      const shown = (i: number) => parsed[i]!.data.join('\u0000')
      for (const f of ['nome', 'empresa', 'telefone', 'site', 'mensagem']) assert.ok(shown(0).includes(attackIn(attack, f)), `contact ${f}`)
      for (const f of ['pessoa', 'cliente', 'token']) assert.ok(shown(3).includes(attackIn(attack, f)), `/conta ${f}`)
      assert.ok(shown(1).includes(attackIn(attack, 'dpop')), 'the refused key, echoed')
      assert.ok(shown(2).includes(`Token “${attackIn(attack, 'token')}” criado`), 'the token made, named')
    }
  })
})

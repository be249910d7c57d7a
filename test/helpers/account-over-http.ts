// A person's way into /conta, walked over plain HTTP against a running service: the invitation's link, the
// activation form, and the "Tokens" form, posted as a browser without JavaScript posts them (the forms need none):
// this site's Origin, the cookies the answers set, the hidden fields the pages hold. For tests of a real process,
// where a browser would only add its start-up time.
import assert from 'node:assert/strict'

const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }

/** The cookies an answer sets, as the next request sends them back. */
function cookiesOf(res: Response): string {
  return res.headers.getSetCookie().map((c) => c.split(';')[0]!).filter((c) => !c.endsWith('=')).join('; ')
}

/** The form whose action is `action` in `html`, and the value of its field `name` (a hidden input). */
function formField(html: string, action: string, name: string): string {
  const form = new RegExp(`<form[^>]*action="${action}"[\\s\\S]*?</form>`).exec(html)?.[0]
  assert.ok(form, `no form posting to ${action}:\n${html}`)
  const value = new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(form)?.[1]
  assert.ok(value !== undefined, `no field ${name} in the form posting to ${action}:\n${form}`)
  return value
}

/**
 * Follows the invitation `link`, sets `senha`, and makes a token on /conta with `nome` and `escopos` (no DPoP key,
 * `dias` of validity); answers the token's secret, shown once on the page. `origin` is the service's PUBLIC_URL.
 */
export async function tokenThroughAccountPage(
  origin: string, link: string, senha: string, token: { nome: string, escopos: string[], dias?: number },
): Promise<string> {
  const opened = await fetch(link, { redirect: 'manual' })
  assert.equal(opened.status, 303, await opened.text())
  const invitation = cookiesOf(opened)
  const form = await fetch(`${origin}/conta/ativar`, { headers: { cookie: invitation } })
  assert.equal(form.status, 200, await form.text())

  const activated = await fetch(`${origin}/conta/ativar`, {
    method: 'POST', redirect: 'manual', headers: { ...FORM_HEADERS, cookie: invitation, origin },
    body: new URLSearchParams({ senha, senha_confirmacao: senha }),
  })
  assert.equal(activated.status, 303, await activated.text())
  const session = cookiesOf(activated)

  const account = await fetch(`${origin}/conta/pessoas`, { headers: { cookie: session } })
  const page = await account.text()
  assert.equal(account.status, 200, page)
  const body = new URLSearchParams([
    ['csrf', formField(page, '/conta/tokens', 'csrf')],
    ['chave_idempotencia', formField(page, '/conta/tokens', 'chave_idempotencia')],
    ['nome', token.nome], ...token.escopos.map((e) => ['escopos', e]), ['validade_dias', String(token.dias ?? 7)], ['dpop_jkt', ''],
  ])
  const made = await fetch(`${origin}/conta/tokens`, { method: 'POST', redirect: 'manual', headers: { ...FORM_HEADERS, cookie: session, origin }, body })
  const shown = await made.text()
  assert.equal(made.status, 201, shown)
  const secret = /<code id="token-novo">([^<]+)<\/code>/.exec(shown)?.[1]
  assert.ok(secret, `no token shown:\n${shown}`)
  return secret
}

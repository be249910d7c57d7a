// A person of a customer in the back office, as a browser without JavaScript drives it: logged in, reading pages,
// and posting their forms with the page's CSRF token and Idempotency-Key.
import assert from 'node:assert/strict'
import type { LightMyRequestResponse } from 'fastify'
import { randomBytes } from 'node:crypto'
import type { App } from '../../../src/app.ts'
import { csrfOf, login, postForm, SITE_ORIGIN } from '../../helpers/account-web.ts'
import { created, key, type Caller } from '../operations/helpers.ts'

export type Browser = {
  cookie: string
  get(path: string): Promise<LightMyRequestResponse>
  /** Posts form `formId` of the page at `page` (its hidden fields kept) with `fields` filled in. */
  submit(page: string, formId: string, fields?: Record<string, string>): Promise<LightMyRequestResponse>
  /** Posts form `formId` and follows its redirect; the page it lands on. */
  done(page: string, formId: string, fields?: Record<string, string>): Promise<LightMyRequestResponse>
}

/** What form `id` in `html` sends as it stands: its hidden fields, and each select's chosen option (else its first). */
export function hiddenFields(html: string, id: string): { action: string, fields: Record<string, string> } {
  const start = html.indexOf(`id="${id}"`)
  assert.ok(start >= 0, `no form ${id} on the page`)
  const open = html.lastIndexOf('<form', start)
  const markup = html.slice(open, html.indexOf('</form>', start))
  const action = /action="([^"]+)"/.exec(markup)![1]!
  const fields: Record<string, string> = {}
  for (const m of markup.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]!] = m[2]!.replaceAll('&amp;', '&')
  for (const m of markup.matchAll(/<select [^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g)) {
    const chosen = /<option value="([^"]*)" selected>/.exec(m[2]!) ?? /<option value="([^"]*)"/.exec(m[2]!)
    if (chosen) fields[m[1]!] = chosen[1]!
  }
  return { action, fields }
}

export async function signIn(app: App, email: string): Promise<Browser> {
  const cookie = await login(app, email)
  const get = (path: string) => app.inject({ url: path, headers: { cookie, accept: 'text/html' } })
  const submit = async (page: string, formId: string, fields: Record<string, string> = {}) => {
    const html = (await get(page)).body
    csrfOf(html)
    const form = hiddenFields(html, formId)
    return postForm(app, form.action, { ...form.fields, ...fields }, { cookie })
  }
  return {
    cookie, get, submit,
    async done(page, formId, fields) {
      const res = await submit(page, formId, fields)
      assert.equal(res.statusCode, 303, `${formId}: ${res.statusCode} ${refusalsOn(res.body)}`)
      return get(res.headers.location as string)
    },
  }
}

/** The text of the cells of the row with `attr` in `html`, by their data-rotulo. */
export function rowCells(html: string, attr: string): Record<string, string> {
  const start = html.indexOf(attr)
  assert.ok(start >= 0, `no row ${attr}`)
  const row = html.slice(start, html.indexOf('</tr>', start))
  return Object.fromEntries([...row.matchAll(/<td data-rotulo="([^"]+)"[^>]*>([\s\S]*?)<\/td>/g)].map((m) => [m[1]!, m[2]!.replace(/<[^>]+>/g, '').trim()]))
}

/** What a page says was refused: its error summary and every field's error. */
export function refusalsOn(html: string): string {
  const summary = /<div id="resumo-erros"[\s\S]*?<\/div>/.exec(html)?.[0] ?? ''
  const fields = [...html.matchAll(/<p class="erro" id="(erro-[^"]+)">([^<]+)<\/p>/g)].map((m) => `${m[1]}: ${m[2]}`)
  return [summary.replace(/<[^>]+>/g, ' ').trim(), ...fields].join('; ') || html.slice(0, 2000)
}

/** Takes draft operation `opId`, with its títulos, through the API to a payment asked (quote, accept, formalize, ask). */
export async function paymentAsked(call: Caller, opId: string): Promise<{ id: string }> {
  const quote = created(await call('POST', `/api/operacoes/${opId}/cotacao`))
  created(await call('POST', `/api/operacoes/${opId}/aceite`, { cotacao_versao: quote.versao }, key()), 200)
  created(await call('POST', `/api/operacoes/${opId}/formalizacao`, {
    termo_sha256: 'ef'.repeat(32), assinado_em: '2026-10-05T14:00:00Z', signatarios: [{ nome: 'Maria', documento: '52998224725' }],
  }), 200)
  return created(await call('POST', `/api/operacoes/${opId}/desembolso`, {}, key()))
}

/** A browser's multipart post of a form: its fields, and one file. */
export type File = { name: string, filename: string, type: string, bytes: Buffer }
export function postMultipart(app: App, url: string, cookie: string, fields: Record<string, string>, file: File) {
  const boundary = `----formulario${randomBytes(8).toString('hex')}`
  const parts: Buffer[] = []
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`))
  const head = `Content-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}`
  parts.push(Buffer.from(`--${boundary}\r\n${head}\r\n\r\n`))
  parts.push(file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`))
  return app.inject({
    method: 'POST', url, payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, origin: SITE_ORIGIN, accept: 'text/html', cookie },
  })
}

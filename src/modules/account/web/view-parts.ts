// Pieces every page of the web app is built from: labelled fields with their hint and error, notices, and the
// hidden fields of a form. Built with html`…` (src/platform/lib/html.ts): everything a person or an operator typed is escaped.
import { html, type Html } from '../../../platform/lib/html.ts'

/** `shell`: the back office's header and navigation, drawn around the page instead of the public site's. */
export type Page = { title: string, description: string, body: Html, shell?: Html | undefined }

export const CSRF_FIELD = 'csrf'

/** For fields typed exactly (an e-mail, a key): no spelling fixes, no capital first letter on phones. */
export const NO_AUTOCORRECT = html` spellcheck="false" autocapitalize="off"`

export type FieldOptions = {
  name: string
  label: string
  type?: string
  value?: string
  hint?: string
  error?: string | undefined
  autocomplete?: string
  required?: boolean
  /** More attributes, as markup: ` readonly`, ` maxlength="43"`. */
  extra?: Html
  /** Appended to the field's ids, where one page repeats a form (one per row): they stay unique. */
  idSuffix?: string
}

/** A labelled input with its hint and its error (announced with the field through aria-describedby). */
export function inputField(o: FieldOptions): Html {
  const key = `${o.name}${o.idSuffix ?? ''}`
  const id = `campo-${key}`
  const described = [o.hint ? `dica-${key}` : '', `erro-${key}`].filter(Boolean).join(' ')
  return html`<div class="campo">
<label for="${id}">${o.label}${o.required && html` <span class="obrigatorio">(obrigatório)</span>`}</label>
${o.hint && html`<span class="dica" id="dica-${key}">${o.hint}</span>\n`}<input id="${id}" name="${o.name}" type="${o.type ?? 'text'}"\
${o.autocomplete && html` autocomplete="${o.autocomplete}"`}${o.required && html` required`} aria-describedby="${described}"\
${o.error && html` aria-invalid="true"`}${o.value !== undefined && html` value="${o.value}"`}${o.extra}>
<p class="erro" id="erro-${key}">${o.error}</p>
</div>`
}

export function errorSummary(messages: string[]): Html | false {
  return messages.length > 0 && html`<div id="resumo-erros" class="aviso aviso-erro" role="alert"><ul>${messages.map((m) => html`<li>${m}</li>`)}</ul></div>`
}

export function notice(text: string | undefined): Html | false {
  return Boolean(text) && html`<div id="aviso" class="aviso aviso-ok" role="status"><p>${text}</p></div>`
}

export function hidden(name: string, value: string): Html {
  return html`<input type="hidden" name="${name}" value="${value}">`
}

/** A message page: a title and a paragraph, with a way on. */
export function messagePage(title: string, text: string, link?: { href: string, label: string }): Page {
  return {
    title, description: text,
    body: html`<h1>${title}</h1>\n<p>${text}</p>${link && html`\n<p><a href="${link.href}">${link.label}</a></p>`}`,
  }
}

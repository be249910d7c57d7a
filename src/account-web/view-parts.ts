// Pieces every page of the web app is built from: labelled fields with their hint and error, notices, and the
// hidden fields of a form. Everything a person or an operator typed is escaped here.
import { escapeHtml as h } from '../markup-escape.ts'

export type Page = { title: string, description: string, body: string }

export const CSRF_FIELD = 'csrf'

export type FieldOptions = {
  name: string
  label: string
  type?: string
  value?: string
  hint?: string
  error?: string | undefined
  autocomplete?: string
  required?: boolean
  extra?: string
}

/** A labelled input with its hint and its error (announced with the field through aria-describedby). */
export function inputField(o: FieldOptions): string {
  const id = `campo-${o.name}`
  const described = [o.hint ? `dica-${o.name}` : '', `erro-${o.name}`].filter(Boolean).join(' ')
  return `<div class="campo">
<label for="${id}">${h(o.label)}${o.required ? ' <span class="obrigatorio">(obrigatório)</span>' : ''}</label>
${o.hint ? `<span class="dica" id="dica-${o.name}">${h(o.hint)}</span>\n` : ''}<input id="${id}" name="${o.name}" type="${o.type ?? 'text'}"`
    + `${o.autocomplete ? ` autocomplete="${o.autocomplete}"` : ''}${o.required ? ' required' : ''} aria-describedby="${described}"`
    + `${o.error ? ' aria-invalid="true"' : ''}${o.value !== undefined ? ` value="${h(o.value)}"` : ''}${o.extra ?? ''}>
<p class="erro" id="erro-${o.name}">${o.error ? h(o.error) : ''}</p>
</div>`
}

export function errorSummary(messages: string[]): string {
  if (!messages.length) return ''
  return `<div id="resumo-erros" class="aviso aviso-erro" role="alert"><ul>${messages.map((m) => `<li>${h(m)}</li>`).join('')}</ul></div>`
}

export function notice(text: string | undefined): string {
  return text ? `<div id="aviso" class="aviso aviso-ok" role="status"><p>${h(text)}</p></div>` : ''
}

export function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${name}" value="${h(value)}">`
}

/** A message page: a title and a paragraph, with a way on. */
export function messagePage(title: string, text: string, link?: { href: string, label: string }): Page {
  return {
    title, description: text,
    body: `<h1>${h(title)}</h1>\n<p>${h(text)}</p>${link ? `\n<p><a href="${link.href}">${h(link.label)}</a></p>` : ''}`,
  }
}

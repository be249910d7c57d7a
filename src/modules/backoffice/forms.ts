// The back office's forms: every one posts to this site with the session's CSRF token and a fresh Idempotency-Key
// (a form sent twice, a double click or a reload, makes one change), and shows back, after a refusal, what the
// person typed with each field's error.
import { randomUUID } from 'node:crypto'
import { html, type Html } from '../../platform/lib/html.ts'
import { CSRF_FIELD, hidden, inputField, type FieldOptions } from '../account/index.ts'

/** The hidden field of a form's Idempotency-Key. */
export const KEY_FIELD = 'chave'

/** What a refused form posted, and the error of each field (by the API body's field name). */
export type Posted = { values: URLSearchParams, errors: Record<string, string>, form: string }

export type FormOptions = {
  id: string, action: string, csrf: string, button: string | Html, inline?: boolean, buttonId?: string
  /** The form carries a file (upload.ts). */
  multipart?: boolean
}

export function form(o: FormOptions, fields: Html | false = false): Html {
  const enctype = o.multipart && html` enctype="multipart/form-data"`
  return html`<form method="post" action="${o.action}" id="${o.id}"${o.inline && html` class="em-linha"`}${enctype}>\
${hidden(CSRF_FIELD, o.csrf)}${hidden(KEY_FIELD, randomUUID())}${hidden('formulario', o.id)}
${fields}<button type="submit"${o.buttonId && html` id="${o.buttonId}"`}>${o.button}</button></form>`
}

/** A labelled input of form `formId`: its value and error from what was posted, when this form was. */
export function input(posted: Posted | undefined, formId: string, o: FieldOptions & { errorKey?: string }): Html {
  const mine = posted?.form === formId ? posted : undefined
  const value = mine?.values.get(o.name) ?? o.value
  return inputField({ ...o, ...(value !== undefined ? { value } : {}), error: mine?.errors[o.errorKey ?? o.name] })
}

export type Option = { value: string, label: string }

export function select(posted: Posted | undefined, formId: string, o: { name: string, label: string, options: readonly Option[], value?: string }): Html {
  const mine = posted?.form === formId ? posted : undefined
  const chosen = mine?.values.get(o.name) ?? o.value
  const error = mine?.errors[o.name]
  return html`<div class="campo">
<label for="campo-${o.name}">${o.label}</label>
<select id="campo-${o.name}" name="${o.name}" aria-describedby="erro-${o.name}"${error && html` aria-invalid="true"`}>
${o.options.map((x) => html`<option value="${x.value}"${x.value === chosen && html` selected`}>${x.label}</option>`)}
</select>
<p class="erro" id="erro-${o.name}">${error}</p>
</div>`
}

// The contact form as a page component: its HTML (which works without JavaScript and which the browser code
// enhances to post JSON to the API), its Markdown (how an agent sends the same message), the reading of a
// posted form, and the receipt. Limits come from the API's own schema; subjects from the same list that
// GET /api/site/contato/assuntos serves.
import { CONTACT_API_PATH, CONTACT_FORM_PATH, SUBJECTS_API_PATH } from '../contact/index.ts'
import { ContatoIn } from '../contact/index.ts'
import { HONEYPOT_FIELD, TOKEN_FIELD } from '../contact/index.ts'
import { defaultSubjectOf, FALLBACK_SUBJECT, type Subject } from '../contact/index.ts'
import { NonJsonBody } from '../../platform/http/request-body.ts'
import { html, join, type Html } from '../../platform/lib/html.ts'
import type { Block } from './content.ts'
import { errorsByField, FIELD_LABELS, FIELD_ORDER, type FieldError, type FieldName } from './format.ts'
import { cell, code, escapeMarkdown } from './markdown.ts'

export const FORM_PATH = CONTACT_FORM_PATH
/** Where the form's HTML takes a fresh token each time it is served (the rest of the page is rendered once). */
export const TOKEN_SLOT = '__TOKEN_FORMULARIO__'

export type FormValues = Partial<Record<FieldName, string>>
export type FormState = {
  values: FormValues
  errors: FieldError[]
  /** A message about the whole submission (429, 503), shown above the form. */
  alert?: string
}

type Limits = { min?: number, max?: number }
const props = ContatoIn.properties as unknown as Record<string, { minLength?: number, maxLength?: number }>
const REQUIRED = new Set<string>(ContatoIn.required as string[])

export function limitsOf(field: FieldName): Limits {
  const p = props[field] ?? {}
  return { min: p.minLength, max: p.maxLength }
}

function limitWords(field: FieldName): string {
  const { min, max } = limitsOf(field)
  if (min !== undefined && max !== undefined) return `de ${min} a ${max} caracteres`
  if (max !== undefined) return `até ${max} caracteres`
  return ''
}

const HINTS: Record<FieldName, string> = {
  nome: 'Como devemos chamar você',
  email: 'Responderemos neste endereço',
  assunto: 'Define a equipe que recebe a mensagem',
  empresa: 'Opcional',
  telefone: 'Opcional, com DDD',
  site: 'Opcional, por exemplo https://suaempresa.com.br',
  mensagem: 'Conte o que precisa',
}

function hint(field: FieldName): string {
  const limits = limitWords(field)
  return `${HINTS[field]}${limits ? `; ${limits}` : ''}.`
}

const VERBATIM = html` spellcheck="false" autocapitalize="off"`
const INPUTS: Record<Exclude<FieldName, 'assunto' | 'mensagem'>, { type: string, autocomplete: string, extra?: Html }> = {
  nome: { type: 'text', autocomplete: 'name' },
  email: { type: 'email', autocomplete: 'email', extra: VERBATIM },
  empresa: { type: 'text', autocomplete: 'organization' },
  telefone: { type: 'tel', autocomplete: 'tel' },
  site: { type: 'url', autocomplete: 'url', extra: VERBATIM },
}

function defaultSubject(subjects: Subject[]): string {
  return defaultSubjectOf(subjects)?.codigo ?? ''
}

export function formHtml(subjects: Subject[], state: FormState = { values: {}, errors: [] }): Html {
  const { fields: errs, general } = errorsByField(state.errors)
  const first = errs.keys().next().value
  const control = (f: FieldName) => {
    const err = errs.get(f)
    return html`<div class="campo">
<label for="campo-${f}">${FIELD_LABELS[f]}${REQUIRED.has(f) && html` <span class="obrigatorio">(obrigatório)</span>`}</label>
<span class="dica" id="dica-${f}">${hint(f)}</span>
${input(f, subjects, state.values, { invalid: Boolean(err), autofocus: f === first })}
<p class="erro" id="erro-${f}">${err}</p>
</div>`
  }
  const summary = (errs.size || general.length) > 0 && html`<h2>Corrija ${errs.size === 1 ? 'o campo' : 'os campos'} abaixo</h2>\
<ul>${general.map((g) => html`<li>${g}</li>`)}${[...errs].map(([f, m]) => html`<li><a href="#campo-${f}">${FIELD_LABELS[f]}: ${m}</a></li>`)}</ul>`
  return html`<form id="form-contato" class="formulario" method="post" action="${FORM_PATH}" data-api="${CONTACT_API_PATH}">
<div id="resumo-erros" class="aviso aviso-erro resumo-erros" tabindex="-1"${!summary && html` hidden`}>${summary}</div>
<div id="aviso-envio" class="aviso aviso-erro" role="alert"${!state.alert && html` hidden`}>${state.alert && html`<p>${state.alert}</p>`}</div>
${join(FIELD_ORDER.map(control), '\n')}
${TRAP}
<input type="hidden" name="${TOKEN_FIELD}" value="${TOKEN_SLOT}">
<p><button type="submit" id="enviar">Enviar mensagem</button></p>
</form>
<div id="resultado" class="aviso aviso-ok recibo" tabindex="-1" hidden></div>`
}

/** A field's control: the subjects' select, the message's textarea, or an input of the field's type. */
function input(f: FieldName, subjects: Subject[], values: FormValues, state: { invalid: boolean, autofocus: boolean }): Html {
  const { min, max } = limitsOf(f)
  const common = html`id="campo-${f}" name="${f}" aria-describedby="dica-${f} erro-${f}"${state.invalid && html` aria-invalid="true"`}\
${state.autofocus && html` autofocus`}${REQUIRED.has(f) && html` required`}`
  const lengths = html`${min !== undefined && html` minlength="${min}"`}${max !== undefined && html` maxlength="${max}"`}`
  const value = values[f] ?? ''
  if (f === 'assunto') {
    const selected = value || defaultSubject(subjects)
    const options = subjects.map((s) => html`<option value="${s.codigo}"${s.codigo === selected && html` selected`}>${s.rotulo}</option>`)
    return html`<select ${common} data-fonte="${SUBJECTS_API_PATH}">${options}</select>`
  }
  if (f === 'mensagem') return html`<textarea ${common}${lengths} rows="8">${value}</textarea>`
  const i = INPUTS[f]
  return html`<input ${common}${lengths} type="${i.type}" autocomplete="${i.autocomplete}"${i.extra} value="${value}">`
}

// The honeypot: off-screen and out of the tab order for people, left in the markup for bots that fill every
// field; a screen reader that still reaches it is told to leave it empty.
const TRAP = html`<div class="campo-armadilha" aria-hidden="true">
<label for="campo-${HONEYPOT_FIELD}">Não preencha este campo: ele existe para identificar envios automáticos.</label>
<input id="campo-${HONEYPOT_FIELD}" name="${HONEYPOT_FIELD}" type="text" tabindex="-1" autocomplete="off" value="">
</div>`

export function formMarkdown(subjects: Subject[], state: FormState = { values: {}, errors: [] }): string {
  const out: string[] = []
  const { fields: errs, general } = errorsByField(state.errors)
  if (state.alert) out.push(`> **Não enviado.** ${escapeMarkdown(state.alert)}`, '')
  if (errs.size || general.length) {
    out.push('**Não enviado: corrija os campos.**', '')
    for (const g of general) out.push(`- ${escapeMarkdown(g)}`)
    for (const [f, m] of errs) out.push(`- ${FIELD_LABELS[f]} (${code(f)}): ${escapeMarkdown(m)}`)
    out.push('')
  }
  out.push(
    `Para enviar por programa, faça ${code(`POST ${CONTACT_API_PATH}`)} com um corpo JSON (resposta 202 com ${code('protocolo')} e ${code('destino')}; `
    + `422 com cada erro por campo; 429 com ${code('Retry-After')}). `
    + `O formulário desta página (${code(`POST ${FORM_PATH}`)}, ${code('application/x-www-form-urlencoded')}) é para navegadores: `
    + 'ele leva campos de controle da página contra envios automáticos; um programa deve usar a API.',
    '',
    '| Campo | Obrigatório | Limite | Descrição |',
    '|---|---|---|---|',
  )
  for (const f of FIELD_ORDER) {
    out.push(`| ${code(f)} | ${REQUIRED.has(f) ? 'sim' : 'não'} | ${cell(limitWords(f) || (f === 'email' ? 'endereço de e-mail válido' : '—'))} | `
      + `${cell(`${FIELD_LABELS[f]}. ${HINTS[f]}.`)} |`)
  }
  out.push('', `Assuntos aceitos em ${code('assunto')} (de ${code(`GET ${SUBJECTS_API_PATH}`)}; sem assunto, vale ${code(defaultSubject(subjects))}; `
    + `um assunto desconhecido vai para ${code(FALLBACK_SUBJECT)}):`, '',
    '| Código | Assunto | Caixa de destino |', '|---|---|---|')
  for (const s of subjects) out.push(`| ${code(s.codigo)} | ${cell(s.rotulo)} | ${cell(s.email)} |`)
  return out.join('\n') + '\n'
}

export function formBlock(subjects: Subject[], state?: FormState): Block {
  return { markdown: formMarkdown(subjects, state), html: formHtml(subjects, state) }
}

export type Receipt = { protocolo: string, destino: string, mensagem: string }

export function receiptBlock(r: Receipt): Block {
  return {
    markdown: `- **Protocolo:** ${code(r.protocolo)}\n- **Destino:** ${escapeMarkdown(r.destino)}\n\n${escapeMarkdown(r.mensagem)}\n`,
    html: html`<div id="resultado" class="aviso aviso-ok recibo" tabindex="-1">
<dl><dt>Protocolo</dt><dd class="protocolo" id="protocolo">${r.protocolo}</dd><dt>Destino</dt><dd id="destino">${r.destino}</dd></dl>
<p>${r.mensagem}</p>
</div>`,
  }
}

/**
 * A posted body as the API's input: a URL-encoded form (blank fields left out, so a blank required field
 * is `missing` and a blank optional one takes its default; line breaks as \n), or a JSON object as is.
 * Null for a body of another kind.
 */
export function formInput(body: unknown): { input: Record<string, unknown>, values: FormValues, raw: Record<string, unknown> } | null {
  if (body === undefined) return { input: {}, values: {}, raw: {} }
  if (body instanceof NonJsonBody) {
    if (body.contentType.split(';')[0]!.trim().toLowerCase() !== 'application/x-www-form-urlencoded') return null
    const params = new URLSearchParams(body.text)
    const values: FormValues = {}
    for (const f of FIELD_ORDER) {
      const v = params.get(f)
      if (v !== null) values[f] = v.replace(/\r\n?/g, '\n')
    }
    const input: Record<string, unknown> = {}
    for (const [f, v] of Object.entries(values)) if (v.trim() !== '') input[f] = v
    // The form's own extra fields, as sent, for the spam rules.
    const raw: Record<string, unknown> = {}
    for (const f of [HONEYPOT_FIELD, TOKEN_FIELD]) if (params.has(f)) raw[f] = params.get(f)
    return { input, values, raw }
  }
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const values: FormValues = {}
    for (const f of FIELD_ORDER) {
      const v = (body as Record<string, unknown>)[f]
      if (typeof v === 'string') values[f] = v
    }
    return { input: body as Record<string, unknown>, values, raw: body as Record<string, unknown> }
  }
  return null
}

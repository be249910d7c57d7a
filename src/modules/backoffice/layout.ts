// A back office page: the notice of what was just done or why it was refused, then the page's own body; and the
// app's shell around it (appShell): the back office's own navigation, the customer's name and the signed-in
// person with their role and the way out, in place of the public site's header.
import { html, type Html } from '../../platform/lib/html.ts'
import { ACCOUNT_PATHS, CSRF_FIELD, errorSummary, hidden, notice, type Page } from '../account/index.ts'
import { papel } from './labels.ts'
import { SECTIONS } from './paths.ts'
import type { ViewContext } from './view-context.ts'

export type Shown = { notice?: string | undefined, refused?: string[] | undefined }

/** `section`: kept for the pages' calls; the shell marks the current section from the request's path. */
export function boPage(_section: string, title: string, description: string, shown: Shown, body: Html): Page {
  return {
    title, description,
    body: html`<h1>${title}</h1>
${notice(shown.notice)}${errorSummary(shown.refused ?? [])}
${body}`,
  }
}

/** Who the shell names: the customer (its razão social) and the signed-in person, as GET /api/conta answers them. */
/** Who the shell names: the customer's name and the signed-in person's, as GET /api/conta answers them. */
export type Who = Pick<ViewContext, 'csrf' | 'papel'> & { cliente: string, pessoa: string }

/** The section `path` belongs to: the longest section path it starts with (the dashboard, /conta, only for itself). */
export function sectionOf(path: string): string | undefined {
  const bare = path.replace(/\/+$/, '') || '/'
  return SECTIONS.map((s) => s.path as string)
    .filter((p) => bare === p || (p !== ACCOUNT_PATHS.painel && bare.startsWith(`${p}/`)))
    .sort((a, b) => b.length - a.length)[0]
}

/**
 * The shell: a header with the product, the customer and the person (name, role, sign-out), and the sections'
 * navigation — a column beside the page on a laptop, a wrapped list above it on a phone, with no script either way.
 */
export function appShell(who: Who, path: string): Html {
  const current = sectionOf(path)
  const nav = SECTIONS.map((s) => html`<li><a href="${s.path}"${s.path === current && html` aria-current="page"`}>${s.label}</a></li>`)
  return html`<header class="app-topo">
<a class="marca" href="${ACCOUNT_PATHS.painel}"><span>Retaguarda</span></a>
<p class="app-cliente" id="shell-cliente">${who.cliente}</p>
<div class="app-quem">
<span id="shell-pessoa">${who.pessoa}</span> <span class="selo app-papel" id="shell-papel">${papel(who.papel)}</span>
<form method="post" action="${ACCOUNT_PATHS.sair}" class="em-linha" id="form-sair-shell">${hidden(CSRF_FIELD, who.csrf)}\
<button type="submit" class="botao-discreto" id="shell-sair">Sair</button></form>
</div>
</header>
<nav aria-label="Retaguarda" class="app-menu" id="menu-retaguarda"><ul>${nav}</ul></nav>`
}

/** `page` inside the shell. */
export const inShell = (page: Page, who: Who, path: string): Page => ({ ...page, shell: appShell(who, path) })

/** A column head; `num`: it heads amounts, right-aligned as their cells are. */
export type Head = string | { text: string, num: true }
export const amountHead = (text: string): Head => ({ text, num: true })

/** A table: its caption, its column heads, and rows already rendered (`data-rotulo` on each cell, for phones). */
export function table(id: string, caption: string, heads: readonly Head[], rows: readonly Html[], empty: string): Html {
  if (!rows.length) return html`<p id="${id}-vazio">${empty}</p>`
  return html`<table id="${id}" class="empilhavel">
<caption>${caption}</caption>
<thead><tr>${heads.map((h) => (typeof h === 'string' ? html`<th scope="col">${h}</th>` : html`<th scope="col" class="num">${h.text}</th>`))}</tr></thead>
<tbody>
${rows}
</tbody>
</table>`
}

export const cell = (label: string, content: Html | string | number): Html => html`<td data-rotulo="${label}">${content}</td>`

/** An amount's cell: right-aligned, tabular figures, never wrapped ("R$ 12.345,67" on one line). */
export const numCell = (label: string, content: Html | string | number): Html => html`<td data-rotulo="${label}" class="num">${content}</td>`

// A back office page: the sections' navigation, the notice of what was just done or why it was refused, then
// the page's own body.
import { html, type Html } from '../../platform/lib/html.ts'
import { errorSummary, notice, type Page } from '../account/index.ts'
import { SECTIONS } from './paths.ts'

export type Shown = { notice?: string | undefined, refused?: string[] | undefined }

export function boPage(section: string, title: string, description: string, shown: Shown, body: Html): Page {
  const nav = SECTIONS.map((s) => html`<li><a href="${s.path}"${s.path === section && html` aria-current="page"`}>${s.label}</a></li>`)
  return {
    title, description,
    body: html`<nav aria-label="Retaguarda" class="retaguarda"><ul>${nav}</ul></nav>
<h1>${title}</h1>
${notice(shown.notice)}${errorSummary(shown.refused ?? [])}
${body}`,
  }
}

/** A table: its caption, its column heads, and rows already rendered (`data-rotulo` on each cell, for phones). */
export function table(id: string, caption: string, heads: readonly string[], rows: readonly Html[], empty: string): Html {
  if (!rows.length) return html`<p id="${id}-vazio">${empty}</p>`
  return html`<table id="${id}" class="empilhavel">
<caption>${caption}</caption>
<thead><tr>${heads.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>
${rows}
</tbody>
</table>`
}

export const cell = (label: string, content: Html | string | number): Html => html`<td data-rotulo="${label}">${content}</td>`

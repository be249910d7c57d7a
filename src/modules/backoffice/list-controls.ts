// The controls of a back office list (issue 32 items 2 and 3), plain HTML that works without JavaScript: a GET
// form with the search and the filters, column heads that sort (links, with aria-sort on the sorted one), the
// pages with "Página X de Y · N itens", and "Exportar CSV" beside the list (the same URL with formato=csv).
import { html, type Html } from '../../platform/lib/html.ts'
import type { Option } from './forms.ts'
import { linkOf, type ListSpec, type ListState } from './list-query.ts'

/** A column: its head, the API's `ordem` key when it sorts, and whether it holds amounts (right-aligned, never wrapped). */
export type Column = { label: string, ordem?: string, num?: boolean }

/**
 * The search form: the text, each filter (a select's options given), the order (the heads sort too, but a phone
 * shows no heads), a button, and a link that clears them.
 */
export function filterForm(path: string, spec: ListSpec, state: ListState, options: Record<string, readonly Option[]>, searchHint: string,
  columns: readonly Column[] = []): Html {
  const field = (name: string, label: string, control: Html) => html`<div class="filtro"><label for="filtro-${name}">${label}</label>${control}</div>`
  const filters = spec.filters.map((f) => {
    const value = state.values.get(f.name) ?? ''
    if (f.kind === 'date') return field(f.name, f.label, html`<input id="filtro-${f.name}" name="${f.name}" type="date" value="${value}">`)
    const opts = [{ value: '', label: 'Todos' }, ...(options[f.name] ?? [])]
    return field(f.name, f.label, html`<select id="filtro-${f.name}" name="${f.name}">\
${opts.map((o) => html`<option value="${o.value}"${o.value === value && html` selected`}>${o.label}</option>`)}</select>`)
  })
  return html`<form method="get" action="${path}" class="filtros" role="search" aria-label="Buscar e filtrar">
${field('busca', 'Buscar', html`<input id="filtro-busca" name="busca" type="search" value="${state.busca ?? ''}" maxlength="100" \
aria-describedby="filtro-busca-dica"><small id="filtro-busca-dica">${searchHint}</small>`)}
${filters}
${orderSelect(columns, state, field)}
<div class="filtro-acoes"><button type="submit" id="filtrar">Filtrar</button> <a href="${path}" id="limpar-filtros">Limpar</a></div>
</form>`
}

/** The order as a select: the default, then each sortable column ascending and descending. */
function orderSelect(columns: readonly Column[], state: ListState, field: (name: string, label: string, control: Html) => Html): Html {
  const sortable = columns.filter((c) => c.ordem)
  if (!sortable.length) return html`${state.ordem && html`<input type="hidden" name="ordem" value="${state.ordem}">`}`
  const opts = [{ value: '', label: 'Padrão (mais recentes primeiro)' }, ...sortable.flatMap((c) => [
    { value: c.ordem!, label: `${c.label} (crescente)` }, { value: `-${c.ordem!}`, label: `${c.label} (decrescente)` },
  ])]
  return field('ordem', 'Ordenar por', html`<select id="filtro-ordem" name="ordem">\
${opts.map((o) => html`<option value="${o.value}"${o.value === (state.ordem ?? '') && html` selected`}>${o.label}</option>`)}</select>`)
}

/** A column's head: a link that sorts by it (ascending first, then the other way), marked when it is the order. */
function head(path: string, state: ListState, c: Column): Html {
  const cls = c.num ? html` class="num"` : ''
  if (!c.ordem) return html`<th scope="col"${cls}>${c.label}</th>`
  const current = state.ordem === c.ordem ? 'ascending' : state.ordem === `-${c.ordem}` ? 'descending' : undefined
  const next = current === 'ascending' ? `-${c.ordem}` : c.ordem
  const arrow = current === 'ascending' ? ' ▲' : current === 'descending' ? ' ▼' : ''
  return html`<th scope="col"${cls}${current && html` aria-sort="${current}"`}><a href="${linkOf(path, state, { ordem: next, pagina: 1 })}" \
data-ordem="${c.ordem}">${c.label}${arrow}</a></th>`
}

/** The list's table (the layout's table, with heads that sort): `rows` drawn already, `empty` when there are none. */
export function listTable(path: string, state: ListState, id: string, caption: string, columns: readonly Column[], rows: readonly Html[],
  empty: string): Html {
  if (!rows.length) return html`<p id="${id}-vazio">${empty}</p>`
  return html`<table id="${id}" class="empilhavel lista">
<caption>${caption}</caption>
<thead><tr>${columns.map((c) => head(path, state, c))}</tr></thead>
<tbody>
${rows}
</tbody>
</table>`
}

/** "Página X de Y · N itens", with the links to the pages before and after. */
export function pager(path: string, state: ListState, total: number, limite: number, id: string): Html {
  const pages = Math.max(1, Math.ceil(total / limite))
  const at = Math.min(state.pagina, pages)
  const link = (to: number, label: string, rel: string) => html`<a href="${linkOf(path, state, { pagina: to })}" rel="${rel}">${label}</a>`
  return html`<nav class="paginas" aria-label="Páginas" id="${id}-paginas">
${at > 1 && link(at - 1, '← Anterior', 'prev')}
<span id="${id}-contagem">Página ${at} de ${pages} · ${total} ${total === 1 ? 'item' : 'itens'}</span>
${at < pages && link(at + 1, 'Próxima →', 'next')}
</nav>`
}

/** "Exportar CSV": what the list shows, with its filters and order, every page. */
export const exportLink = (path: string, state: ListState, id: string): Html =>
  html`<p class="exportar"><a href="${linkOf(path, state, { formato: 'csv' })}" id="${id}-exportar" download>Exportar CSV</a> \
<small>(para o Excel: separado por ponto e vírgula, com todas as páginas)</small></p>`

/** The whole of a list: its form, its export link, its table and its pages. */
export function listBlock(o: {
  path: string, spec: ListSpec, state: ListState, id: string, caption: string, columns: readonly Column[], rows: readonly Html[], empty: string,
  total: number, options?: Record<string, readonly Option[]>, searchHint: string,
}): Html {
  return html`${filterForm(o.path, o.spec, o.state, o.options ?? {}, o.searchHint, o.columns)}
${exportLink(o.path, o.state, o.id)}
${listTable(o.path, o.state, o.id, o.caption, o.columns, o.rows, o.rows.length === 0 && o.total > 0
    // A page past the last one (a bookmark kept while the list shrank): not "none yet", since the list has rows.
    ? `Esta página passa da última: a lista tem ${o.total} ${o.total === 1 ? 'item' : 'itens'}.` : o.empty)}
${pager(o.path, o.state, o.total, o.spec.limite, o.id)}`
}

/** An amount's cell: right-aligned, never wrapped. */
export const numCell = (label: string, content: string): Html => html`<td data-rotulo="${label}" class="num">${content}</td>`

/**
 * The pages of a list the API pages by its cursor (`antes`, newest first, no total): back to the newest, and on to
 * the older ones while there are more. `first` and `next` are the links, when they lead somewhere.
 */
export function cursorPager(id: string, first: string | undefined, next: string | undefined,
  words: readonly [string, string] = ['← Mais recentes', 'Mais antigos →']): Html {
  if (first === undefined && next === undefined) return html``
  return html`<nav class="paginas" aria-label="Páginas" id="${id}-paginas">
${first !== undefined && html`<a href="${first}" rel="first" id="${id}-inicio">${words[0]}</a>`}
${next !== undefined && html`<a href="${next}" rel="next" id="${id}-proximos">${words[1]}</a>`}
</nav>`
}

/** A select of a list's GET form, "Todos" (or "Todas", for a feminine noun) first, for a list without the search of filterForm. */
export const filterSelect = (name: string, label: string, options: readonly Option[], chosen: string | undefined, all = 'Todos'): Html =>
  html`<div class="filtro"><label for="filtro-${name}">${label}</label><select id="filtro-${name}" name="${name}">\
${[{ value: '', label: all }, ...options].map((o) => html`<option value="${o.value}"${o.value === (chosen ?? '') && html` selected`}>${o.label}</option>`)}\
</select></div>`

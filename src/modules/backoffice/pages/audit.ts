// The customer's audit trail, newest first (issue 32, item 8): who did it by name (the token's name for an
// integration), the action in words, what it was done to as a link to its page, what changed (before → after),
// and the request ids to quote to support. Filtered by person, action, target and period with a GET form, so
// the URL keeps the view (a bookmark, a link in an e-mail), and the next page keeps the filters.
import { html, type Html } from '../../../platform/lib/html.ts'
import { brl } from '../../../platform/lib/brl.ts'
import { instantLabel } from '../../../platform/lib/brasilia-time.ts'
import { ACCOUNT_PATHS, type Page } from '../../account/index.ts'
import type { AuditRowNamed, List } from '../answers.ts'
import { ACTION_LABELS, actionLabel } from '../audit-labels.ts'
import { labelOf } from '../field-labels.ts'
import { maisRecentes, tipoAlvo } from '../labels.ts'
import { boPage, cell, table } from '../layout.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import type { ViewContext } from '../view-context.ts'

/** The filters the page and the API take, each as the URL names it. */
export const AUDIT_FILTERS = ['ator_id', 'acao', 'alvo_id', 'de', 'ate'] as const
export type AuditFilters = Partial<Record<(typeof AUDIT_FILTERS)[number], string>>

const SHAPES: Record<(typeof AUDIT_FILTERS)[number], RegExp> = {
  ator_id: /^[0-9a-fA-F-]{36}$/, alvo_id: /^[0-9a-fA-F-]{36}$/, acao: /^[a-z_]{1,40}\.[a-z_]{1,40}$/, de: /^\d{4}-\d{2}-\d{2}$/, ate: /^\d{4}-\d{2}-\d{2}$/,
}

/** The filters of a page's URL: the ones given and in shape (an empty field of the form is no filter). The API checks the rest. */
export function auditFiltersOf(query: Record<string, string | undefined>): AuditFilters {
  return Object.fromEntries(AUDIT_FILTERS.flatMap((k) => (query[k] && SHAPES[k].test(query[k]) ? [[k, query[k]]] : [])))
}

const search = (f: AuditFilters, more: Record<string, string> = {}) => new URLSearchParams({ ...f, ...more } as Record<string, string>).toString()

/** The page of the thing a row's action was done to, where the back office has one. */
function targetHref(a: AuditRowNamed): string | undefined {
  if (a.alvo_id === null) return undefined
  switch (a.acao.split('.')[0]) {
    case 'operacao': return P.operacao(a.alvo_id)
    case 'desembolso': return a.alvo_operacao_id ? P.operacao(a.alvo_operacao_id) : P.desembolsos
    case 'cedente': return P.cedente(a.alvo_id)
    case 'sacado': return P.sacados
    case 'produto': return P.produtos
    case 'feriado': return P.feriados
    case 'lancamento_manual': return P.lancamentosManuais
    case 'token': case 'usuario': case 'convite': case 'login': case 'sessao': return ACCOUNT_PATHS.conta
    default: return undefined
  }
}

/** A value as a person reads it: centavos in reais, nothing as a dash, lists and objects as their JSON. */
function valueOf(field: string, v: unknown): string {
  if (v === null || v === undefined || v === '') return '—'
  if (typeof v === 'number' && field.endsWith('_centavos')) return brl(v)
  if (typeof v === 'boolean') return v ? 'sim' : 'não'
  return typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v)
}

function changesOf(a: AuditRowNamed): Html | string {
  const fields = Object.entries(a.alteracoes ?? {})
  if (!fields.length) return a.motivo ?? '—'
  return html`<ul class="alteracoes">${fields.map(([k, c]) => html`<li><span class="campo-alterado">${labelOf('', k)}</span>: \
${valueOf(k, c.antes)} → ${valueOf(k, c.depois)}</li>`)}</ul>`
}

function who(a: AuditRowNamed, f: AuditFilters): Html | string {
  if (a.ator_tipo === 'operador') return 'Operação do serviço'
  const name = a.ator_nome ?? `${a.ator_tipo === 'token' ? 'token' : 'pessoa'} ${a.ator_id?.slice(0, 8) ?? ''}`
  const label = a.ator_tipo === 'token' ? `${name} (token)` : name
  return a.ator_id ? html`<a href="${P.auditoria}?${search({ ...f, ator_id: a.ator_id })}" title="Só o que ${name} fez">${label}</a>` : label
}

function target(a: AuditRowNamed): Html | string {
  if (a.alvo_id === null) return '—'
  // With no name (a session, an invitation, the company), the kind of thing in a word: an id's first letters tell a person nothing.
  const name = a.alvo_nome ?? tipoAlvo(a.acao.split('.')[0])
  const href = targetHref(a)
  // One link a cell: two small ones side by side are too close a target for a finger (axe target-size); the
  // target's whole history is the filter form's "Alvo".
  return href ? html`<a href="${href}">${name}</a>` : name
}

function filterForm(rows: AuditRowNamed[], f: AuditFilters): Html {
  // The people to choose from: those of this page, and the one chosen (the API has no list of people to read).
  const people = new Map(rows.filter((a) => a.ator_id).map((a) => [a.ator_id!, a.ator_nome ?? a.ator_id!.slice(0, 8)]))
  if (f.ator_id && !people.has(f.ator_id)) people.set(f.ator_id, f.ator_id.slice(0, 8))
  const option = (value: string, label: string, chosen: string | undefined) => html`<option value="${value}"${value === (chosen ?? '') && html` selected`}>\
${label}</option>`
  return html`<form method="get" action="${P.auditoria}" class="filtros" id="filtros-auditoria" role="search">
<div class="campo"><label for="filtro-ator">Quem</label>
<select id="filtro-ator" name="ator_id">${option('', 'Todos', f.ator_id)}${[...people].map(([id, nome]) => option(id, nome, f.ator_id))}</select></div>
<div class="campo"><label for="filtro-acao">Ação</label>
<select id="filtro-acao" name="acao">${option('', 'Todas', f.acao)}
${Object.entries(ACTION_LABELS).map(([code, label]) => option(code, label, f.acao))}</select></div>
<div class="campo"><label for="filtro-alvo">Alvo (identificador)</label>
<input id="filtro-alvo" name="alvo_id" type="text" value="${f.alvo_id ?? ''}" spellcheck="false" autocapitalize="off"></div>
<div class="campo"><label for="filtro-de">De</label> <input id="filtro-de" name="de" type="date" value="${f.de ?? ''}"></div>
<div class="campo"><label for="filtro-ate">Até</label> <input id="filtro-ate" name="ate" type="date" value="${f.ate ?? ''}"></div>
<button type="submit" id="filtrar">Filtrar</button>${Object.keys(f).length > 0 && html` <a href="${P.auditoria}" id="limpar-filtros">Limpar os filtros</a>`}
</form>`
}

export function auditPage(v: ViewContext, rows: List<AuditRowNamed>, f: AuditFilters = {}): Page {
  const lines = rows.itens.map((a) => html`<tr data-auditoria="${a.id}"><th scope="row">${instantLabel(a.em)}</th>\
${cell('Ação', html`<span title="${a.acao}">${actionLabel(a.acao)}</span>`)}${cell('Quem', who(a, f))}${cell('Alvo', target(a))}\
${cell('O que mudou', changesOf(a))}${cell('Requisição', a.request_id ?? '—')}${cell('Requisição do cliente', a.request_id_cliente ?? '—')}</tr>`)
  const filtered = Object.keys(f).length > 0
  return boPage(P.auditoria, 'Auditoria', 'Cada mudança da empresa, com quem a fez e os identificadores da requisição.', v.shown, html`
${filterForm(rows.itens, f)}
${table('auditoria', filtered ? `${rows.itens.length === 1 ? 'Filtrada' : 'Filtradas'}: ${maisRecentes(rows.itens.length, { feminino: true })}`
    : maisRecentes(rows.itens.length, { feminino: true, inicio: true }),
    ['Quando', 'Ação', 'Quem', 'Alvo', 'O que mudou', 'Requisição', 'Requisição do cliente'], lines,
    filtered ? 'Nada registrado com estes filtros.' : 'Nada registrado ainda.')}
${rows.proximo !== null && html`<p><a href="${P.auditoria}?${search(f, { antes: String(rows.proximo) })}" id="mais-antigas">Mais antigas</a></p>`}`)
}

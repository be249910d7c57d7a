// The customer's audit trail, newest first: who did what, when, and the request ids to quote to support (the page's
// own id beside each API request's, for changes made here).
import { html } from '../../../platform/lib/html.ts'
import { instantLabel } from '../../../platform/lib/brasilia-time.ts'
import type { Page } from '../../account/index.ts'
import type { AuditRow, List } from '../answers.ts'
import { boPage, cell, table } from '../layout.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import type { ViewContext } from '../view-context.ts'

export function auditPage(v: ViewContext, rows: List<AuditRow>): Page {
  const lines = rows.itens.map((a) => html`<tr data-auditoria="${a.id}"><th scope="row">${instantLabel(a.em)}</th>${cell('Ação', a.acao)}\
${cell('Quem', `${a.ator_tipo}${a.ator_id ? ` ${a.ator_id.slice(0, 8)}` : ''}`)}${cell('Requisição', a.request_id ?? '—')}\
${cell('Requisição do cliente', a.request_id_cliente ?? '—')}</tr>`)
  return boPage(P.auditoria, 'Auditoria', 'Cada mudança da empresa, com quem a fez e os identificadores da requisição.', v.shown, html`
${table('auditoria', `As ${rows.itens.length} mais recentes`, ['Quando', 'Ação', 'Quem', 'Requisição', 'Requisição do cliente'], lines,
    'Nada registrado ainda.')}
${rows.proximo !== null && html`<p><a href="${P.auditoria}?antes=${rows.proximo}" id="mais-antigas">Mais antigas</a></p>`}`)
}

// The payments of the company's operations, newest first: the ones waiting for approval first of all, each with
// what its approver decides on and the approve and refuse buttons for anyone but who asked, and the transfer to
// record once approved (pages/approval-card.ts).
import { html } from '../../../platform/lib/html.ts'
import type { Page } from '../../account/index.ts'
import { brl } from '../../../platform/lib/brl.ts'
import { instantLabel } from '../../../platform/lib/brasilia-time.ts'
import type { Party, PaymentAnswer } from '../answers.ts'
import { estadoDesembolso, opcoes, porNome } from '../labels.ts'
import { ESTADO_DESEMBOLSO_TEXTO } from '../../operations/index.ts'
import { boPage, cell } from '../layout.ts'
import { listBlock, numCell } from '../list-controls.ts'
import type { Listed, ListState } from '../list-query.ts'
import { LIST_SPECS } from '../list-specs.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import type { ViewContext } from '../view-context.ts'
import { approvalCard } from './approval-card.ts'

/**
 * `waiting`: every payment waiting for approval or for its transfer; `list`: all of them, searched and filtered as `state` asks, each
 * naming its cedente; `cedentes`: the filter's choices.
 */
export function paymentsPage(v: ViewContext, waiting: PaymentAnswer[], list: Listed<PaymentAnswer>, cedentes: Party[], state: ListState): Page {
  const item = (p: PaymentAnswer) => html`<li>${approvalCard(v, p, P.desembolsos)}</li>`
  const rows = list.itens.map((p) => html`<tr data-desembolso="${p.id}"><th scope="row">${instantLabel(p.criado_em)}</th>\
${cell('Cedente', p.cedente.razao_social)}${numCell('Valor', brl(p.valor_centavos))}${cell('Estado', estadoDesembolso(p.estado))}\
${cell('Operação', html`<a href="${P.operacao(p.operacao_id)}">nº ${String(p.operacao_numero)}</a>`)}</tr>`)
  return boPage(P.desembolsos, 'Desembolsos', 'Os pagamentos aos cedentes: pedidos, aprovados por outra pessoa e transferidos.', v.shown, html`
<h2 id="titulo-pendentes">Pendentes (${waiting.length})</h2>
${waiting.length ? html`<ul class="desembolsos" id="pendentes">${waiting.map(item)}</ul>` : html`<p id="sem-pendentes">Nenhum desembolso pendente.</p>`}
<h2 id="titulo-outros">Todos os desembolsos</h2>
${listBlock({
    path: P.desembolsos, spec: LIST_SPECS.desembolsos, state, id: 'desembolsos', caption: `Desembolsos (${list.total})`, rows, total: list.total,
    columns: [{ label: 'Pedido em', ordem: 'criado' }, { label: 'Cedente' }, { label: 'Valor', ordem: 'valor', num: true },
      { label: 'Estado', ordem: 'estado' }, { label: 'Operação' }],
    empty: state.busca || state.values.size ? 'Nenhum desembolso com estes filtros.' : 'Nenhum desembolso ainda.',
    options: {
      estado: opcoes(ESTADO_DESEMBOLSO_TEXTO),
      cedente_id: porNome(cedentes, (c) => c.razao_social).map((c) => ({ value: c.id, label: c.razao_social })),
    },
    searchHint: 'Número da operação, nome ou documento do cedente, ID da transação.',
  })}`)
}

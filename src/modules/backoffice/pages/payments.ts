// The payments of the company's operations, newest first: the ones waiting for approval first of all, with the
// approve button for anyone but who asked, and the transfer to record once approved.
import { html } from '../../../platform/lib/html.ts'
import type { Page } from '../../account/index.ts'
import type { Payment } from '../answers.ts'
import { boPage } from '../layout.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import type { ViewContext } from '../view-context.ts'
import { paymentFacts } from './operation.ts'

/** `waiting`: every payment waiting for approval or for its transfer; `latest`: the newest of all. */
export function paymentsPage(v: ViewContext, waiting: Payment[], latest: Payment[]): Page {
  const rest = latest.filter((p) => !waiting.some((w) => w.id === p.id))
  const item = (p: Payment) => html`<li><p><a href="${P.operacao(p.operacao_id)}">Operação ${p.operacao_id.slice(0, 8)}</a></p>
${paymentFacts(v, p, P.desembolsos)}</li>`
  return boPage(P.desembolsos, 'Desembolsos', 'Os pagamentos aos cedentes: pedidos, aprovados por outra pessoa e transferidos.', v.shown, html`
<h2 id="titulo-pendentes">Pendentes (${waiting.length})</h2>
${waiting.length ? html`<ul class="desembolsos" id="pendentes">${waiting.map(item)}</ul>` : html`<p id="sem-pendentes">Nenhum desembolso pendente.</p>`}
<h2 id="titulo-outros">Os mais recentes (${rest.length})</h2>
${rest.length ? html`<ul class="desembolsos" id="outros">${rest.map(item)}</ul>` : html`<p>Nenhum.</p>`}`)
}

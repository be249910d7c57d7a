// The buy-backs (issue 33): each, newest first, with its cedente, why, how it is settled, what it costs the cedente
// (balance and late charges) and whether it is paid or compensated, and by which operation. Made and paid through
// the API (POST /api/recompras, …/pagamento); this page reads them.
import { html } from '../../../platform/lib/html.ts'
import { brl } from '../../../platform/lib/brl.ts'
import type { Page } from '../../account/index.ts'
import type { List, Party } from '../answers.ts'
import { dataBr } from '../../../platform/lib/brl.ts'
import { estadoRecompra, formaRecompra, motivoRecompra } from '../labels.ts'
import { boPage, cell, numCell, table } from '../layout.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import type { ViewContext } from '../view-context.ts'

export type RecompraAnswer = {
  id: string, cedente_id: string, motivo: string, descricao: string, forma: string, data: string, principal_centavos: number, encargos_centavos: number,
  valor_centavos: number, estado: string, operacao_id: string | null, titulos: { titulo_id: string }[],
}

export function recomprasPage(v: ViewContext, recompras: List<RecompraAnswer>, cedentes: Party[]): Page {
  const nome = new Map(cedentes.map((c) => [c.id, c.razao_social]))
  const rows = recompras.itens.map((r) => html`<tr data-recompra="${r.id}"><th scope="row">${dataBr(r.data)}</th>\
${cell('Cedente', html`<a href="${P.cedente(r.cedente_id)}">${nome.get(r.cedente_id) ?? r.cedente_id}</a>`)}${cell('Motivo', motivoRecompra(r.motivo))}\
${cell('Descrição', r.descricao)}${numCell('Títulos', r.titulos.length)}${numCell('Saldo', brl(r.principal_centavos))}\
${numCell('Juros e multa', brl(r.encargos_centavos))}${numCell('Valor', brl(r.valor_centavos))}${cell('Forma', formaRecompra(r.forma))}\
${cell('Estado', r.operacao_id ? html`${estadoRecompra(r.estado)} na <a href="${P.operacao(r.operacao_id)}">operação</a>` : estadoRecompra(r.estado))}</tr>`)
  return boPage(P.recompras, 'Recompras', 'Os títulos que os cedentes recompraram: por quê, o que custaram a eles e como foram liquidados.', v.shown, html`
<p><a href="${P.cobrancas}" id="link-cobrancas">Cobranças</a> · <a href="${P.retornos}" id="link-retornos">Retornos do banco</a> · \
<a href="${P.remessas}" id="link-remessas">Remessas</a></p>
${table('recompras', `Recompras (${recompras.itens.length}${recompras.proximo === null ? '' : '+'})`,
    ['Data', 'Cedente', 'Motivo', 'Descrição', 'Títulos', 'Saldo', 'Juros e multa', 'Valor', 'Forma', 'Estado'], rows, 'Nenhuma recompra ainda.')}`)
}

// The títulos across operations (issue 32 item 2), the view a back office works from daily: what falls due
// when, by sacado and cedente, in which state; searched, filtered, sorted, paged and exported.
import { html } from '../../../platform/lib/html.ts'
import { brl, dataBr } from '../../../platform/lib/brl.ts'
import type { Page } from '../../account/index.ts'
import type { Party, Title } from '../answers.ts'
import { estadoConfirmacao, estadoTitulo, opcoes, porNome, tipoTitulo } from '../labels.ts'
import { ESTADO_CONFIRMACAO_TEXTO, ESTADO_TITULO_TEXTO } from '../../operations/index.ts'
import { boPage, cell } from '../layout.ts'
import { listBlock, numCell } from '../list-controls.ts'
import type { Listed, ListState } from '../list-query.ts'
import { LIST_SPECS } from '../list-specs.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import type { ViewContext } from '../view-context.ts'

type Listed_ = Listed<Title & { operacao_id: string, operacao_numero?: number, cedente_id: string, saldo_centavos: number }>

export function titlesPage(v: ViewContext, list: Listed_, sacados: Party[], cedentes: Party[], state: ListState): Page {
  const sacado = new Map(sacados.map((s) => [s.id, s.razao_social]))
  const cedente = new Map(cedentes.map((c) => [c.id, c.razao_social]))
  const rows = list.itens.map((t) => html`<tr data-titulo="${t.id}"><th scope="row">${t.numero}</th>${cell('Tipo', tipoTitulo(t.tipo))}\
${cell('Sacado', sacado.get(t.sacado_id) ?? '—')}${cell('Cedente', cedente.get(t.cedente_id) ?? '—')}\
${cell('Operação', html`<a href="${P.operacao(t.operacao_id)}">${t.operacao_numero === undefined ? 'ver operação' : `nº ${t.operacao_numero}`}</a>`)}\
${cell('Emissão', dataBr(t.emissao))}\
${cell('Vencimento', dataBr(t.vencimento))}${numCell('Valor de face', brl(t.valor_face_centavos))}${numCell('Saldo', brl(t.saldo_centavos))}\
${cell('Estado', estadoTitulo(t.estado))}${cell('Confirmação', estadoConfirmacao(t.confirmacao_estado))}</tr>`)
  const about = 'Os títulos de todas as operações: por sacado, cedente, vencimento, estado e confirmação com o sacado.'
  return boPage(P.titulos, 'Títulos', about, v.shown, listBlock({
    path: P.titulos, spec: LIST_SPECS.titulos, state, id: 'titulos', caption: `Títulos (${list.total})`, rows, total: list.total,
    columns: [{ label: 'Número', ordem: 'numero' }, { label: 'Tipo' }, { label: 'Sacado' }, { label: 'Cedente' }, { label: 'Operação' },
      { label: 'Emissão', ordem: 'emissao' }, { label: 'Vencimento', ordem: 'vencimento' }, { label: 'Valor de face', ordem: 'valor_face', num: true },
      { label: 'Saldo', num: true }, { label: 'Estado' }, { label: 'Confirmação' }],
    empty: state.busca || state.values.size ? 'Nenhum título com estes filtros.' : 'Nenhum título ainda.',
    options: {
      sacado_id: porNome(sacados, (s) => s.razao_social).map((s) => ({ value: s.id, label: s.razao_social })),
      cedente_id: porNome(cedentes, (c) => c.razao_social).map((c) => ({ value: c.id, label: c.razao_social })),
      estado: opcoes(ESTADO_TITULO_TEXTO),
      confirmacao_estado: opcoes(ESTADO_CONFIRMACAO_TEXTO),
    },
    searchHint: 'Número do título, chave da NF-e, ID externo, nome ou documento do sacado ou do cedente.',
  }))
}

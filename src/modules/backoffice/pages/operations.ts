// The operations: the list (newest first, with each one's títulos and face value) and the form that opens one
// for a cedente with a product.
import { html, type Html } from '../../../platform/lib/html.ts'
import { brl, dataBr } from '../../../platform/lib/brl.ts'
import type { Page } from '../../account/index.ts'
import type { OperationSummary, Party, Product } from '../answers.ts'
import { form, input, type Option, type Posted } from '../forms.ts'
import { documentoFormatado, estadoOperacao, opcoes, porNome } from '../labels.ts'
import { ESTADO_OPERACAO_TEXTO } from '../../operations/index.ts'
import { boPage, cell } from '../layout.ts'
import { listBlock, numCell } from '../list-controls.ts'
import type { Listed, ListState } from '../list-query.ts'
import { LIST_SPECS } from '../list-specs.ts'
import { BACKOFFICE_PATHS } from '../paths.ts'
import { mayChange, type ViewContext } from '../view-context.ts'

/**
 * A select a person must choose in (nothing chosen at first, so no cedente is taken for another by default): its
 * first option empty, the browser's `required` and the API both refusing it unchosen.
 */
function requiredSelect(posted: Posted | undefined, formId: string, o: { name: string, label: string, empty: string, options: readonly Option[] }): Html {
  const mine = posted?.form === formId ? posted : undefined
  const chosen = mine?.values.get(o.name) ?? ''
  const error = mine?.errors[o.name]
  return html`<div class="campo">
<label for="campo-${o.name}">${o.label}</label>
<select id="campo-${o.name}" name="${o.name}" required aria-describedby="erro-${o.name}"${error && html` aria-invalid="true"`}>
<option value=""${chosen === '' && html` selected`}>${o.empty}</option>
${o.options.map((x) => html`<option value="${x.value}"${x.value === chosen && html` selected`}>${x.label}</option>`)}
</select>
<p class="erro" id="erro-${o.name}">${error}</p>
</div>`
}

/** An operation's name on screen: its own id when the customer gave one, else the start of ours. */
/** "nº 12", the customer's own number (and the integration's id when it gave one). */
export const operationName = (o: { numero: number, id_externo: string | null }) => `nº ${o.numero}${o.id_externo ? ` (${o.id_externo})` : ''}`

export function operationsPage(v: ViewContext, ops: Listed<OperationSummary>, cedentes: Party[], produtos: Product[], state: ListState): Page {
  const names = new Map(cedentes.map((c) => [c.id, c.razao_social]))
  const byName = porNome(cedentes, (c) => c.razao_social)
  const rows = ops.itens.map((o) => html`<tr data-operacao="${o.id}">\
<th scope="row"><a href="${BACKOFFICE_PATHS.operacao(o.id)}">${operationName(o)}</a></th>${cell('Cedente', names.get(o.cedente_id) ?? o.cedente_id)}\
${cell('Data', dataBr(o.data_operacao))}${cell('Estado', estadoOperacao(o.estado))}${numCell('Títulos', String(o.quantidade_titulos))}\
${numCell('Valor de face', brl(o.valor_face_centavos))}</tr>`)
  const list = listBlock({
    path: BACKOFFICE_PATHS.operacoes, spec: LIST_SPECS.operacoes, state, id: 'operacoes', caption: `Operações (${ops.total})`, rows, total: ops.total,
    columns: [{ label: 'Operação', ordem: 'numero' }, { label: 'Cedente' }, { label: 'Data', ordem: 'data_operacao' }, { label: 'Estado', ordem: 'estado' },
      { label: 'Títulos', num: true }, { label: 'Valor de face', num: true }],
    empty: state.busca || state.values.size ? 'Nenhuma operação com estes filtros.' : 'Nenhuma operação ainda.',
    options: { cedente_id: byName.map((c) => ({ value: c.id, label: c.razao_social })), estado: opcoes(ESTADO_OPERACAO_TEXTO) },
    searchHint: 'Número da operação, ID externo, nome ou documento do cedente.',
  })
  const formId = 'form-operacao'
  const ready = cedentes.length > 0 && produtos.length > 0
  return boPage(BACKOFFICE_PATHS.operacoes, 'Operações', 'Os borderôs da empresa: abrir, incluir títulos, cotar, aceitar, formalizar e pagar.', v.shown, html`
${list}
${mayChange(v, 'operacoes') && html`<h2 id="titulo-nova">Abrir uma operação</h2>
${ready ? form({ id: formId, action: BACKOFFICE_PATHS.operacoes, csrf: v.csrf, button: 'Abrir operação', buttonId: 'abrir-operacao' }, html`
${requiredSelect(v.posted, formId, {
    name: 'cedente_id', label: 'Cedente', empty: 'Escolha o cedente',
    options: byName.filter((c) => c.estado === 'ativo').map((c) => ({ value: c.id, label: `${c.razao_social} (${documentoFormatado(c.documento)})` })),
  })}
${requiredSelect(v.posted, formId, {
    name: 'produto_id', label: 'Produto', empty: 'Escolha o produto',
    options: porNome(produtos, (p) => p.nome).map((p) => ({ value: p.id, label: `${p.nome} (versão ${p.versao})` })),
  })}
${input(v.posted, formId, { name: 'data_operacao', label: 'Data da operação', type: 'date', hint: 'Em branco: hoje.' })}
`) : html`<p id="falta-cadastro">Para abrir uma operação, cadastre antes um <a href="${BACKOFFICE_PATHS.cedentes}">cedente</a> e um \
<a href="${BACKOFFICE_PATHS.produtos}">produto</a>.</p>`}`}`)
}

// The operations: the list (newest first, with each one's títulos and face value) and the form that opens one
// for a cedente with a product.
import { html } from '../../../platform/lib/html.ts'
import { brl, dataBr } from '../../../platform/lib/brl.ts'
import type { Page } from '../../account/index.ts'
import type { List, OperationSummary, Party, Product } from '../answers.ts'
import { form, input, select } from '../forms.ts'
import { boPage, cell, table } from '../layout.ts'
import { BACKOFFICE_PATHS } from '../paths.ts'
import { mayChange, type ViewContext } from '../view-context.ts'

export const ESTADO_TEXTO: Record<string, string> = {
  rascunho: 'rascunho', cotada: 'cotada', aceita: 'aceita', formalizada: 'formalizada', em_desembolso: 'em desembolso',
  desembolsada: 'desembolsada', cancelada: 'cancelada',
}

/** An operation's name on screen: its own id when the customer gave one, else the start of ours. */
/** "nº 12", the customer's own number (and the integration's id when it gave one). */
export const operationName = (o: { numero: number, id_externo: string | null }) => `nº ${o.numero}${o.id_externo ? ` (${o.id_externo})` : ''}`

export function operationsPage(v: ViewContext, ops: List<OperationSummary>, cedentes: Party[], produtos: Product[]): Page {
  const names = new Map(cedentes.map((c) => [c.id, c.razao_social]))
  const rows = ops.itens.map((o) => html`<tr data-operacao="${o.id}">\
<th scope="row"><a href="${BACKOFFICE_PATHS.operacao(o.id)}">${operationName(o)}</a></th>${cell('Cedente', names.get(o.cedente_id) ?? o.cedente_id)}\
${cell('Data', dataBr(o.data_operacao))}${cell('Estado', ESTADO_TEXTO[o.estado] ?? o.estado)}${cell('Títulos', o.quantidade_titulos)}\
${cell('Valor de face', brl(o.valor_face_centavos))}</tr>`)
  const formId = 'form-operacao'
  const ready = cedentes.length > 0 && produtos.length > 0
  return boPage(BACKOFFICE_PATHS.operacoes, 'Operações', 'Os borderôs da empresa: abrir, incluir títulos, cotar, aceitar, formalizar e pagar.', v.shown, html`
${table('operacoes', `Operações (${ops.itens.length})`, ['Operação', 'Cedente', 'Data', 'Estado', 'Títulos', 'Valor de face'], rows, 'Nenhuma operação ainda.')}
${mayChange(v, 'operacoes') && html`<h2 id="titulo-nova">Abrir uma operação</h2>
${ready ? form({ id: formId, action: BACKOFFICE_PATHS.operacoes, csrf: v.csrf, button: 'Abrir operação', buttonId: 'abrir-operacao' }, html`
${select(v.posted, formId, {
    name: 'cedente_id', label: 'Cedente',
    options: cedentes.filter((c) => c.estado === 'ativo').map((c) => ({ value: c.id, label: `${c.razao_social} (${c.documento})` })),
  })}
${select(v.posted, formId, { name: 'produto_id', label: 'Produto', options: produtos.map((p) => ({ value: p.id, label: `${p.nome} (versão ${p.versao})` })) })}
${input(v.posted, formId, { name: 'data_operacao', label: 'Data da operação', type: 'date', hint: 'Em branco: hoje.' })}
`) : html`<p id="falta-cadastro">Para abrir uma operação, cadastre antes um <a href="${BACKOFFICE_PATHS.cedentes}">cedente</a> e um \
<a href="${BACKOFFICE_PATHS.produtos}">produto</a>.</p>`}`}`)
}

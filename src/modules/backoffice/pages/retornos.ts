// The bank's retorno files (issue 33): the ones sent, newest first, with how many of each file's títulos were
// applied, ignored or are still pending; and the form that sends one for a collection account (multipart, without
// JavaScript: the file goes to POST /api/cnab/retornos as the request's body). A file the API refuses whole is told
// here, on the form, with the line and the reason; one it takes opens its own page (retorno.ts).
import { html } from '../../../platform/lib/html.ts'
import { inputField, type Page } from '../../account/index.ts'
import type { CollectionAccount, List, RetornoAnswer } from '../answers.ts'
import { form, select } from '../forms.ts'
import { estadoRetorno, instante } from '../labels.ts'
import { amountHead, boPage, cell, numCell, table } from '../layout.ts'
import { cursorPager } from '../list-controls.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import { mayChange, type ViewContext } from '../view-context.ts'
import { accountName } from './charges.ts'

export const PAGE = 50

export const retornosApiUrl = (antes: string | undefined): string => `/api/cnab/retornos?limite=${PAGE}${antes ? `&antes=${antes}` : ''}`

export function retornosPage(v: ViewContext, list: List<RetornoAnswer>, contas: CollectionAccount[], antes: string | undefined): Page {
  const conta = new Map(contas.map((c) => [c.id, c]))
  const rows = list.itens.map((r) => html`<tr data-retorno="${r.id}"><th scope="row"><a href="${P.retorno(r.id)}">${instante(r.criado_em)}</a></th>\
${cell('Conta', conta.get(r.conta_cobranca_id)?.nome ?? '—')}${cell('NSA', r.nsa || '—')}${cell('Layout', `CNAB ${r.layout}`)}\
${numCell('Títulos', r.titulos)}${numCell('Aplicadas', r.aplicadas)}${numCell('Ignoradas', r.ignoradas)}${numCell('Pendentes', r.pendentes)}\
${cell('Estado', estadoRetorno(r.estado))}</tr>`)
  return boPage(P.cobrancas, 'Retornos do banco', 'Os arquivos de retorno enviados e o que cada um aplicou.', v.shown, html`
<p><a href="${P.cobrancas}">← Cobranças</a></p>
${mayChange(v, 'cobranca') && sendForm(v, contas)}
<h2 id="titulo-retornos">Retornos enviados</h2>
${table('retornos', antes ? 'Retornos (os mais antigos)' : 'Retornos, dos mais recentes',
    ['Enviado em', 'Conta', 'NSA', 'Layout', ...['Títulos', 'Aplicadas', 'Ignoradas', 'Pendentes'].map(amountHead), 'Estado'], rows,
    'Nenhum retorno enviado ainda.')}
${cursorPager('retornos', antes ? P.retornos : undefined, list.proximo === null ? undefined : `${P.retornos}?antes=${list.proximo}`)}`)
}

function sendForm(v: ViewContext, contas: CollectionAccount[]) {
  const id = 'form-retorno'
  if (!contas.length) {
    return html`<p id="sem-contas">Para enviar um retorno, a empresa precisa de uma conta de cobrança \
(<a href="${P.contasCobranca}">Contas de cobrança</a>).</p>`
  }
  const mine = v.posted?.form === id ? v.posted : undefined
  return html`<section aria-labelledby="titulo-enviar">
<h2 id="titulo-enviar">Enviar um retorno</h2>
${form({ id, action: P.retornos, csrf: v.csrf, button: 'Enviar o retorno', buttonId: 'enviar-retorno', multipart: true }, html`
${select(v.posted, id, { name: 'conta_cobranca_id', label: 'Conta de cobrança',
    // No account chosen for the person: a file sent under the wrong one is refused at its first line, which hides why.
    // An API account's payments come by retorno files too (the bank's API registers and instructs; it does not pay).
    options: [{ value: '', label: 'Escolha a conta do arquivo' },
      ...contas.map((c) => ({ value: c.id, label: `${accountName(c)}, CNAB ${c.layout_cnab}` }))] })}
${inputField({ name: 'arquivo', label: 'Arquivo de retorno do banco', type: 'file', required: true,
    hint: 'O arquivo como o banco o entregou (CNAB 240, ou 400 no Bradesco e no Itaú). Um arquivo já enviado para a conta não é aplicado de novo. '
      + 'Depois de uma recusa, escolha o arquivo de novo.',
    error: mine?.errors.arquivo })}
`)}
</section>`
}

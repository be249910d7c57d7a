// The CNAB remessas (issue 33): each file made, newest first, with its download (the API's /arquivo, as the bank
// takes it), and the form that makes the next one of a cnab account. What a file left out, and why, is told on the
// page it goes back to: the API's answer lists it, and a file with nothing to send is refused with that list.
import { html } from '../../../platform/lib/html.ts'
import { brl } from '../../../platform/lib/brl.ts'
import { instantLabel } from '../../../platform/lib/brasilia-time.ts'
import type { Page } from '../../account/index.ts'
import type { List } from '../answers.ts'
import { form, select } from '../forms.ts'
import { boPage, cell, numCell, table } from '../layout.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import { mayChange, type ViewContext } from '../view-context.ts'

export type RemessaResumo = {
  id: string, conta_cobranca_id: string, nsa: number, layout: string, nome_arquivo: string, registros: number, cobrancas: number,
  instrucoes: number, valor_centavos: number, criado_em: string,
}
export type ContaCobranca = { id: string, nome: string, banco: string, transporte: string, confirmada_em: string | null, layout_cnab: string }

export function remessasPage(v: ViewContext, remessas: List<RemessaResumo>, contas: ContaCobranca[]): Page {
  const nome = new Map(contas.map((c) => [c.id, c.nome]))
  const rows = remessas.itens.map((r) => html`<tr data-remessa="${r.id}"><th scope="row">${instantLabel(r.criado_em)}</th>\
${cell('Conta', nome.get(r.conta_cobranca_id) ?? r.conta_cobranca_id)}${numCell('NSA', r.nsa)}${cell('Layout', `CNAB ${r.layout}`)}\
${numCell('Cobranças', r.cobrancas)}${numCell('Instruções', r.instrucoes)}${numCell('Valor', brl(r.valor_centavos))}\
${cell('Arquivo', html`<a href="/api/cnab/remessas/${r.id}/arquivo" download="${r.nome_arquivo}">${r.nome_arquivo}</a>`)}</tr>`)
  const porArquivo = contas.filter((c) => c.transporte === 'cnab' && c.confirmada_em !== null)
  const id = 'form-remessa'
  return boPage(P.remessas, 'Remessas', 'Os arquivos CNAB enviados aos bancos: as cobranças a registrar e as instruções de cada conta por arquivo.',
    v.shown, html`
<p><a href="${P.cobrancas}" id="link-cobrancas">Cobranças</a> · <a href="${P.retornos}" id="link-retornos">Retornos do banco</a></p>
${table('remessas', `Remessas (${remessas.itens.length}${remessas.proximo === null ? '' : '+'})`,
    ['Gerada em', 'Conta', 'NSA', 'Layout', 'Cobranças', 'Instruções', 'Valor', 'Arquivo'], rows, 'Nenhuma remessa ainda.')}
${mayChange(v, 'cobranca') && (porArquivo.length
    ? html`<h2 id="titulo-nova">Gerar a remessa de uma conta</h2>
<p>O arquivo leva as cobranças da conta ainda não registradas e as instruções pendentes; a resposta diz o que ficou de fora, e por quê.</p>
${form({ id, action: P.remessas, csrf: v.csrf, button: 'Gerar remessa', buttonId: 'gerar-remessa' }, html`
${select(v.posted, id, { name: 'conta_cobranca_id', label: 'Conta de cobrança',
      options: porArquivo.map((c) => ({ value: c.id, label: `${c.nome} (banco ${c.banco}, CNAB ${c.layout_cnab})` })) })}
`)}`
    : html`<p id="sem-contas-cnab">Nenhuma conta de cobrança confirmada com transporte CNAB.</p>`)}`)
}

// The company's collection accounts (issue 33, from the new-user trial): the bank accounts its boletos are registered
// under, each with its bank, carteira, layout and transport, who added it and who confirmed it; the form that adds one
// (the bank's own rules are the API's, each refusal told at its field) and, to another person who may approve, the
// button that confirms it. A charge is made only under a confirmed, active account.
import { html } from '../../../platform/lib/html.ts'
import type { Page } from '../../account/index.ts'
import { BANCOS, REGRAS } from '../../collections/index.ts'
import type { List } from '../answers.ts'
import { form, input, select } from '../forms.ts'
import { instante, opcoes } from '../labels.ts'
import { boPage, cell, table } from '../layout.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import { mayChange, type ViewContext } from '../view-context.ts'

export type CollectionAccountAnswer = {
  id: string, nome: string, banco: string, banco_nome: string, agencia: string, conta: string, conta_digito: string, carteira: string,
  convenio: string | null, layout_cnab: string, transporte: string, chave_pix: string | null, ativa: boolean, confirmada: boolean,
  incluida_em: string, incluida_por_usuario_id: string, incluida_por: string | null, confirmada_em: string | null, confirmada_por: string | null,
}

// The banks the platform collects for, in their codes' order, named as the boleto names them.
const BANCOS_OPCOES = BANCOS.map((b) => ({ value: b, label: `${b} ${REGRAS[b].nome}` }))
const LAYOUTS = { 240: 'CNAB 240', 400: 'CNAB 400 (só Bradesco e Itaú)' }
const TRANSPORTES = { cnab: 'arquivos CNAB (remessa e retorno)', api: 'API do banco' }

function situacao(v: ViewContext, c: CollectionAccountAnswer) {
  if (c.confirmada) return html`confirmada por ${c.confirmada_por ?? 'outra pessoa'} em ${instante(c.confirmada_em)}${!c.ativa && html`; inativa`}`
  const mine = c.incluida_por_usuario_id === v.usuarioId
  const confirm = !mine && mayChange(v, 'aprovacao') && form({
    id: `confirmar-${c.id}`, action: P.acaoContaCobranca(c.id, 'confirmacao'), csrf: v.csrf, inline: true, buttonId: `botao-confirmar-${c.id}`,
    button: html`Confirmar<span class="visualmente-oculto"> a conta ${c.nome}</span>`,
  })
  return html`aguarda a confirmação de outra pessoa${mine && html` (você a incluiu)`}${confirm && html` ${confirm}`}`
}

export function collectionAccountsPage(v: ViewContext, contas: List<CollectionAccountAnswer>): Page {
  const rows = contas.itens.map((c) => html`<tr data-conta="${c.id}"><th scope="row">${c.nome}</th>${cell('Banco', `${c.banco} ${c.banco_nome}`)}\
${cell('Agência e conta', `${c.agencia} / ${c.conta}-${c.conta_digito}`)}${cell('Carteira', c.carteira)}${cell('Convênio', c.convenio ?? '—')}\
${cell('Transporte', c.transporte === 'api' ? 'API do banco' : `CNAB ${c.layout_cnab}`)}\
${cell('Incluída', `${instante(c.incluida_em)}${c.incluida_por ? `, por ${c.incluida_por}` : ''}`)}\
${cell('Situação', situacao(v, c))}</tr>`)
  const fid = 'form-conta-cobranca'
  const add = mayChange(v, 'cobranca') && html`
<h2>Nova conta de cobrança</h2>
<p>Os dados do contrato de cobrança com o banco. Outra pessoa confirma a conta antes do primeiro boleto.</p>
${form({ id: fid, action: P.contasCobranca, csrf: v.csrf, button: 'Incluir a conta', buttonId: 'incluir-conta' }, html`
${input(v.posted, fid, { name: 'nome', label: 'Nome', required: true, hint: 'Como a equipe a chama, por exemplo “Itaú cobrança”.' })}
${select(v.posted, fid, { name: 'banco', label: 'Banco', options: BANCOS_OPCOES })}
${input(v.posted, fid, { name: 'agencia', label: 'Agência', required: true, extra: html` inputmode="numeric"` })}
${input(v.posted, fid, { name: 'conta', label: 'Conta', required: true, extra: html` inputmode="numeric"` })}
${input(v.posted, fid, { name: 'conta_digito', label: 'Dígito da conta', required: true })}
${input(v.posted, fid, { name: 'carteira', label: 'Carteira', required: true })}
${input(v.posted, fid, { name: 'convenio', label: 'Convênio (código do beneficiário)', hint: 'Obrigatório no Banco do Brasil e no Santander '
    + '(7 dígitos) e na Caixa (6).', extra: html` inputmode="numeric"` })}
${select(v.posted, fid, { name: 'layout_cnab', label: 'Layout CNAB', options: opcoes(LAYOUTS) })}
${select(v.posted, fid, { name: 'transporte', label: 'Transporte', options: opcoes(TRANSPORTES) })}
${input(v.posted, fid, { name: 'chave_pix', label: 'Chave PIX', hint: 'A do recebedor do PIX dos boletos híbridos, se houver.' })}`)}`
  return boPage(P.cobrancas, 'Contas de cobrança', 'As contas em que os boletos da empresa são registrados, e quem as incluiu e confirmou.', v.shown, html`
<p><a href="${P.cobrancas}" id="link-cobrancas">Cobranças</a> · <a href="${P.remessas}" id="link-remessas">Remessas</a> · \
<a href="${P.retornos}" id="link-retornos">Retornos do banco</a></p>
${table('contas-cobranca', 'Contas de cobrança', ['Nome', 'Banco', 'Agência e conta', 'Carteira', 'Convênio', 'Transporte', 'Incluída', 'Situação'],
    rows, 'Nenhuma conta de cobrança ainda.')}
${add}`)
}

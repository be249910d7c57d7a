// A payment as an approver decides on it (issue 32, item 7): the operation by its number, who is paid (name and
// document), the account and when and by whom it was added and confirmed, who asked, the amount; then the step the
// person may take: approve or refuse with a reason (never their own request), record the transfer or its failure.
import { html, type Html } from '../../../platform/lib/html.ts'
import { brl } from '../../../platform/lib/brl.ts'
import { instantLabel } from '../../../platform/lib/brasilia-time.ts'
import { hidden, NO_AUTOCORRECT } from '../../account/index.ts'
import type { PaymentAnswer } from '../answers.ts'
import { form, input } from '../forms.ts'
import { documentoFormatado, estadoDesembolso } from '../labels.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import { mayChange, type ViewContext } from '../view-context.ts'


/** A person by name, "você" for the one reading; an id with no name known (a person since removed) by its start. */
function who(v: ViewContext, id: string | null, nome: string | null | undefined): string {
  if (id === null) return ''
  if (id === v.usuarioId) return `${nome ?? 'você'} (você)`
  return nome ?? `pessoa ${id.slice(0, 8)}`
}

/** When the account was added and by whom, and its confirmation: what the approver checks before the money leaves. */
function accountHistory(v: ViewContext, c: NonNullable<PaymentAnswer['conta_bancaria']['historico']>): string {
  const by = (id: string | null, nome: string | null) => (id === null ? '' : ` por ${who(v, id, nome)}`)
  const added = `em ${instantLabel(c.incluida_em)}${by(c.incluida_por_usuario_id, c.incluida_por_nome)}`
  if (!c.confirmada) return `Incluída ${added}; aguardando a confirmação de uma segunda pessoa`
  if (c.confirmada_por_usuario_id === null) return `Incluída no cadastro do cedente, ${added}`
  return `Incluída ${added}; confirmada em ${instantLabel(c.confirmada_em!)}${by(c.confirmada_por_usuario_id, c.confirmada_por_nome)}`
}

/** The payment's card; ids carry the payment's, since one page lists several. `volta`: the page the forms come back to. */
export function approvalCard(v: ViewContext, p: PaymentAnswer, volta: string): Html {
  const mine = p.solicitante_usuario_id === v.usuarioId
  const waiting = p.estado === 'aguardando_aprovacao'
  const c = p.conta_bancaria
  const requester = p.solicitante_usuario_id === null ? `o token ${p.solicitado_por.nome ?? p.solicitado_por.id.slice(0, 8)}`
    : who(v, p.solicitante_usuario_id, p.solicitante_nome)
  const decides = waiting && !mine && mayChange(v, 'aprovacao')
  const paid = `pagar-${p.id}`
  const failed = `falha-${p.id}`
  const refused = `recusa-${p.id}`
  return html`<dl class="dados cartao-desembolso" data-desembolso="${p.id}">
<dt>Operação</dt><dd><a href="${P.operacao(p.operacao_id)}">Operação nº ${String(p.operacao_numero)}</a></dd>
<dt>Cedente</dt><dd><a href="${P.cedente(p.cedente_id)}">${p.cedente.razao_social}</a> (${documentoFormatado(p.cedente.documento)})</dd>
<dt>Valor</dt><dd class="valor">${brl(p.valor_centavos)}</dd>
<dt>Conta</dt><dd>Banco ${c.banco}, agência ${c.agencia}, conta ${c.conta}-${c.digito}</dd>
${c.historico && html`<dt>Histórico da conta</dt><dd class="conta-historico">${accountHistory(v, c.historico)}</dd>`}
${c.historico === null && html`<dt>Histórico da conta</dt><dd class="conta-historico">o cedente não tem mais esta conta</dd>`}
<dt>Pedido</dt><dd class="solicitante">por ${requester} em ${instantLabel(p.criado_em)}</dd>
<dt>Situação</dt><dd class="desembolso-estado">${estadoDesembolso(p.estado)}</dd>
${p.aprovado_por_usuario_id && p.aprovado_em && html`<dt>Aprovado</dt><dd>por ${who(v, p.aprovado_por_usuario_id, p.aprovado_por_nome)} em \
${instantLabel(p.aprovado_em)}</dd>`}
${p.recusa && html`<dt>Recusado</dt><dd class="recusa">por ${who(v, p.recusa.por_usuario_id, p.recusa.por_nome)} em ${instantLabel(p.recusa.em)}: \
${p.recusa.motivo}</dd>`}
${p.id_transacao && html`<dt>Transação</dt><dd>${p.id_transacao}${p.pago_em && ` em ${instantLabel(p.pago_em)}`}</dd>`}
${p.motivo_falha && html`<dt>Falha</dt><dd>${p.motivo_falha}</dd>`}
</dl>
${waiting && mine && html`<p class="aguarda-outra-pessoa">Aguardando a decisão de outra pessoa da empresa: quem pede não aprova nem recusa.</p>`}
${decides && form({
    id: `aprovar-${p.id}`, action: P.acaoDesembolso(p.id, 'aprovacao'), csrf: v.csrf, button: `Aprovar o desembolso de ${brl(p.valor_centavos)}`,
    buttonId: `botao-aprovar-${p.id}`,
  }, hidden('volta', volta))}
${decides && form({
    id: refused, action: P.acaoDesembolso(p.id, 'recusa'), csrf: v.csrf, button: 'Recusar o desembolso', buttonId: `botao-recusar-${p.id}`,
  }, html`${hidden('volta', volta)}
${input(v.posted, refused, { name: 'motivo', idSuffix: `-recusa-${p.id}`, label: 'Motivo da recusa', required: true,
    hint: 'Quem pediu o desembolso lê este motivo; a operação pode pedir de novo.' })}
`)}
${p.estado === 'aprovado' && mayChange(v, 'financeiro') && html`${form({
    id: paid, action: P.acaoDesembolso(p.id, 'pagamento'), csrf: v.csrf, button: 'Registrar a transferência', buttonId: `botao-pagar-${p.id}`,
  }, html`${hidden('volta', volta)}
${input(v.posted, paid, { name: 'id_transacao', idSuffix: `-${p.id}`, label: 'Identificador da transferência', required: true,
    hint: 'O end-to-end do PIX ou o número da TED.', extra: NO_AUTOCORRECT })}
${input(v.posted, paid, { name: 'pago_em', idSuffix: `-${p.id}`, label: 'Paga em (horário de Brasília)', type: 'datetime-local', required: true,
    extra: html` step="1"` })}
`)}
${form({ id: failed, action: P.acaoDesembolso(p.id, 'falha'), csrf: v.csrf, button: 'Registrar que a transferência falhou', buttonId: `botao-falha-${p.id}` },
    html`${hidden('volta', volta)}
${input(v.posted, failed, { name: 'motivo', idSuffix: `-${p.id}`, label: 'Motivo da falha', required: true })}
`)}`}`
}

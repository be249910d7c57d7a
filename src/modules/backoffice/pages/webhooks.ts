// The webhooks (issue 34): each endpoint with its state, what failed and since when, and what waits; an administrador
// sends it a test event and turns it off or on again. An endpoint's page is its delivery log, newest first, filtered by
// state, each delivery sent again with a button, and one delivery's body and tries when asked. An endpoint is made (and
// its secret rotated) through the API: its secret is shown once, in the API's answer, never on a page.
import { html, type Html } from '../../../platform/lib/html.ts'
import { instantLabel } from '../../../platform/lib/brasilia-time.ts'
import type { Page } from '../../account/index.ts'
import type { List } from '../answers.ts'
import { hidden } from '../../account/index.ts'
import { form } from '../forms.ts'
import { boPage, cell, numCell, table } from '../layout.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import { mayChange, type ViewContext } from '../view-context.ts'

export type WebhookAnswer = {
  id: string, url: string, descricao: string | null, eventos: string[], ativo: boolean, motivo_desativacao: string | null,
  desativado_em: string | null, falhando_desde: string | null, entregas_pendentes: number, criado_em: string,
}
export type DeliveryAnswer = {
  id: string, evento_id: string, tipo: string, recurso: string, estado: string, tentativas: number, proxima_tentativa_em: string | null,
  manual: boolean, ultimo_status: number | null, ultimo_erro: string | null, entregue_em: string | null, criado_em: string,
}
export type DeliveryDetail = DeliveryAnswer & {
  corpo: string, tentativas_log: { numero: number, em: string, status_http: number | null, latencia_ms: number, erro: string | null, resposta: string | null }[]
}

export const ESTADO_ENTREGA_TEXTO: Record<string, string> = {
  pendente: 'Pendente', enviando: 'Enviando', entregue: 'Entregue', cancelada: 'Cancelada', retida: 'Retida (webhook desativado)',
}

const when = (iso: string | null) => (iso ? instantLabel(iso) : '—')

/** The endpoint's state in words: on, off by the customer, or off after a day of failures. */
export function webhookState(w: WebhookAnswer): string {
  if (w.ativo) return w.falhando_desde ? `Ativo, falhando desde ${instantLabel(w.falhando_desde)}` : 'Ativo'
  return w.motivo_desativacao === 'falhas' ? `Desativado por falhas em ${when(w.desativado_em)}` : `Desativado em ${when(w.desativado_em)}`
}

function actions(v: ViewContext, w: WebhookAnswer): Html | false {
  if (!mayChange(v, 'webhooks')) return false
  const test = form({ id: `teste-${w.id}`, action: P.acaoWebhook(w.id, 'teste'), csrf: v.csrf, button: 'Enviar teste', inline: true,
    buttonId: `teste-${w.id}` })
  const toggle = form({ id: `ativo-${w.id}`, action: P.acaoWebhook(w.id, w.ativo ? 'desativacao' : 'reativacao'), csrf: v.csrf,
    button: w.ativo ? 'Desativar' : 'Reativar', inline: true, buttonId: `ativo-${w.id}` })
  return html`${test} ${toggle}`
}

export function webhooksPage(v: ViewContext, webhooks: List<WebhookAnswer>): Page {
  const rows = webhooks.itens.map((w) => html`<tr data-webhook="${w.id}"><th scope="row"><a href="${P.webhook(w.id)}">${w.descricao ?? w.url}</a></th>\
${cell('Endereço', html`<code>${w.url}</code>`)}${cell('Eventos', w.eventos.join(', '))}${cell('Situação', webhookState(w))}\
${numCell('Entregas pendentes', w.entregas_pendentes)}${cell('Ações', actions(v, w) || '—')}</tr>`)
  return boPage(P.webhooks, 'Webhooks', 'Os endereços que recebem os eventos da empresa, assinados, e o registro das entregas.', v.shown, html`
<p>Um webhook se cadastra pela API (<code>POST /api/webhooks</code>): o segredo de assinatura aparece uma única vez, na resposta. \
Aqui se acompanham as entregas, se envia um evento de teste, se reenvia uma entrega e se desativa ou reativa um webhook.</p>
${table('webhooks', `Webhooks (${webhooks.itens.length}${webhooks.proximo === null ? '' : '+'})`,
    ['Webhook', 'Endereço', 'Eventos', 'Situação', { text: 'Entregas pendentes', num: true }, 'Ações'], rows, 'Nenhum webhook cadastrado.')}`)
}

export const ENTREGA_FILTROS = ['pendente', 'retida', 'entregue', 'cancelada'] as const

function detail(d: DeliveryDetail): Html {
  const tries = d.tentativas_log.map((t) => html`<tr><th scope="row">${t.numero}</th>${cell('Em', instantLabel(t.em))}\
${cell('Status', t.status_http === null ? '—' : String(t.status_http))}${numCell('Latência (ms)', t.latencia_ms)}${cell('Erro', t.erro ?? '—')}\
${cell('Resposta', t.resposta ? html`<code>${t.resposta}</code>` : '—')}</tr>`)
  return html`<section id="entrega-detalhe" aria-labelledby="titulo-entrega"><h2 id="titulo-entrega">Entrega do evento ${d.tipo}</h2>
<p>Evento <code>${d.evento_id}</code> (o cabeçalho <code>Webhook-Id</code>), ${ESTADO_ENTREGA_TEXTO[d.estado] ?? d.estado}.</p>
<h3>Corpo enviado</h3><pre id="entrega-corpo">${d.corpo}</pre>
${table('tentativas', 'Tentativas', ['Nº', 'Em', 'Status', { text: 'Latência (ms)', num: true }, 'Erro', 'Resposta'], tries, 'Nenhuma tentativa ainda.')}
</section>`
}

export function webhookPage(v: ViewContext, w: WebhookAnswer, entregas: List<DeliveryAnswer>, estado: string | undefined,
  detalhe: DeliveryDetail | undefined): Page {
  const changes = mayChange(v, 'webhooks')
  const resend = (d: DeliveryAnswer) => (changes
    ? form({ id: `reenvio-${d.id}`, action: P.acaoWebhook(w.id, 'reenvio'), csrf: v.csrf, button: 'Reenviar', inline: true, buttonId: `reenvio-${d.id}` },
      hidden('entrega_id', d.id))
    : '—')
  const rows = entregas.itens.map((d) => html`<tr data-entrega="${d.id}"><th scope="row">${instantLabel(d.criado_em)}</th>\
${cell('Evento', html`<a href="${P.webhook(w.id)}?entrega=${d.id}">${d.tipo}</a>${d.manual && ' (reenvio)'}`)}\
${cell('Situação', ESTADO_ENTREGA_TEXTO[d.estado] ?? d.estado)}${numCell('Tentativas', d.tentativas)}\
${cell('Último status', d.ultimo_status === null ? '—' : String(d.ultimo_status))}${cell('Último erro', d.ultimo_erro ?? '—')}\
${cell('Entregue em', when(d.entregue_em))}${cell('Próxima tentativa', when(d.proxima_tentativa_em))}${cell('Ações', resend(d))}</tr>`)
  const filters = [html`<a href="${P.webhook(w.id)}"${estado === undefined && html` aria-current="page"`}>Todas</a>`,
    ...ENTREGA_FILTROS.map((e) => html`<a href="${P.webhook(w.id)}?estado=${e}"${estado === e && html` aria-current="page"`}>${ESTADO_ENTREGA_TEXTO[e]}</a>`)]
  return boPage(P.webhooks, `Webhook ${w.descricao ?? ''}`.trim(), 'As entregas de um webhook: cada evento, suas tentativas e o que o endereço respondeu.',
    v.shown, html`
<p><a href="${P.webhooks}">Todos os webhooks</a></p>
<dl class="resumo" id="webhook-resumo"><dt>Endereço</dt><dd><code>${w.url}</code></dd><dt>Eventos</dt><dd>${w.eventos.join(', ')}</dd>\
<dt>Situação</dt><dd id="webhook-situacao">${webhookState(w)}</dd><dt>Entregas pendentes</dt><dd>${w.entregas_pendentes}</dd></dl>
${actions(v, w)}
<nav aria-label="Filtrar as entregas" class="filtros" id="filtros-entregas">${filters.map((f) => html`${f} `)}</nav>
${table('entregas', `Entregas (${entregas.itens.length}${entregas.proximo === null ? '' : '+'})`,
    ['Criada em', 'Evento', 'Situação', { text: 'Tentativas', num: true }, 'Último status', 'Último erro', 'Entregue em', 'Próxima tentativa', 'Ações'],
    rows, 'Nenhuma entrega ainda.')}
${detalhe && detail(detalhe)}`)
}

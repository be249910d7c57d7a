// The webhooks' rows as the API answers them.
import { eventBody } from './body.ts'
import type { AttemptRow, DeliveryRow, WebhookRow } from './store.ts'

const iso = (d: Date | null) => d?.toISOString() ?? null

export const webhookView = (w: WebhookRow) => ({
  id: w.id, url: w.url, descricao: w.descricao, eventos: w.eventos, ativo: w.ativo, motivo_desativacao: w.motivo_desativacao,
  desativado_em: iso(w.desativado_em), falhando_desde: iso(w.falhando_desde),
  segredo_anterior_valido_ate: iso(w.segredo_anterior_ate),
  entregas_pendentes: w.pendentes, criado_em: w.criado_em.toISOString(), atualizado_em: w.atualizado_em.toISOString(),
})

export const deliveryView = (d: DeliveryRow) => ({
  id: d.id, evento_id: d.evento_id, tipo: d.tipo, recurso: d.recurso, estado: d.estado, tentativas: d.tentativas,
  proxima_tentativa_em: d.estado === 'pendente' ? d.proxima_em.toISOString() : null, manual: d.manual, ultimo_status: d.ultimo_status,
  ultimo_erro: d.ultimo_erro, entregue_em: iso(d.entregue_em), criado_em: d.criado_em.toISOString(),
})

export const deliveryDetailView = (d: DeliveryRow & { dados: unknown, tentativas_log: AttemptRow[] }) => ({
  ...deliveryView(d),
  corpo: eventBody({ id: d.evento_id, tipo: d.tipo, criadoEm: d.evento_criado_em, dados: d.dados }),
  tentativas_log: d.tentativas_log.map((a) => ({
    numero: a.numero, em: a.em.toISOString(), status_http: a.status_http, latencia_ms: a.latencia_ms, erro: a.erro, resposta: a.resposta,
  })),
})

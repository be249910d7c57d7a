// The webhooks' routes as data (issue 34): schemas that validate, serialize and document them.
import { Type, type Static } from 'typebox'
import { Conflict, guardRefusals, NotFound, PageQuery } from '../../platform/http/api-schemas.ts'
import type { RouteDefinition } from '../../platform/http/route-document.ts'
import { ValidationProblem } from '../../platform/http/schemas.ts'
import { idempotencyProblems } from '../../platform/idempotency/schemas.ts'
import { SUBSCRIBABLE } from './event-types.ts'

const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])
const Uuid = Type.String({ format: 'uuid' })
const Instant = Type.String({ format: 'date-time' })

const Url = Type.String({ minLength: 10, maxLength: 2000, description: 'Where events are POSTed: `https://` (plain `http://` outside production '
  + 'only), a public address: a name or address in a private, loopback, link-local or reserved network is refused, also when the name resolves '
  + 'to one later.' })
const Eventos = Type.Array(Type.String({ enum: [...SUBSCRIBABLE] }), {
  minItems: 1, maxItems: 50, uniqueItems: true, description: 'The events wanted: a type (`titulo.liquidado`), a family (`cobranca.*`) or `*`.',
})
const Descricao = Type.String({ minLength: 1, maxLength: 200, description: 'A name for people: what receives it.' })

export const WebhookIn = Type.Object({ url: Url, eventos: Eventos, descricao: Type.Optional(Descricao) }, { additionalProperties: false })
export type WebhookInT = Static<typeof WebhookIn>

export const WebhookPatchIn = Type.Object({
  url: Type.Optional(Url), eventos: Type.Optional(Eventos), descricao: Type.Optional(OrNull(Descricao)),
  ativo: Type.Optional(Type.Boolean({ description: 'false turns it off (nothing new is queued for it); true turns it on again, its waiting '
    + 'deliveries then go in order.' })),
}, { additionalProperties: false, minProperties: 1 })
export type WebhookPatchInT = Static<typeof WebhookPatchIn>

export const RotacaoIn = Type.Object({
  validade_anterior_horas: Type.Optional(Type.Integer({ minimum: 0, maximum: 168, description: 'How long the old secret still signs too, in '
    + 'hours (default 24; 0: at once no more).' })),
}, { additionalProperties: false })

export const WebhookOut = Type.Object({
  id: Uuid,
  url: Type.String(),
  descricao: OrNull(Type.String()),
  eventos: Type.Array(Type.String()),
  ativo: Type.Boolean(),
  motivo_desativacao: OrNull(Type.String({ enum: ['cliente', 'falhas'], description: '`falhas`: a day of failed deliveries turned it off.' })),
  desativado_em: OrNull(Instant),
  falhando_desde: OrNull(Type.String({ format: 'date-time', description: 'Since when every try has failed; null once one succeeds.' })),
  segredo_anterior_valido_ate: OrNull(Type.String({ format: 'date-time', description: 'Until when the secret before the last rotation signs too.' })),
  entregas_pendentes: Type.Integer({ description: 'Deliveries not yet acknowledged.' }),
  criado_em: Instant,
  atualizado_em: Instant,
})

const WithSecret = Type.Object({
  ...WebhookOut.properties,
  segredo: OrNull(Type.String({ description: 'The signing secret, shown in this answer only (null in a replay of it): keep it now.' })),
})

/**
 * `pendente`: waiting for its try; `enviando`: a try in hand; `entregue`: a 2xx came; `cancelada`: its endpoint
 * deleted; `retida`: held while its endpoint is off (due at once when it is turned on).
 */
export const ESTADOS_ENTREGA = ['pendente', 'enviando', 'entregue', 'cancelada', 'retida'] as const

export const EntregaOut = Type.Object({
  id: Uuid,
  evento_id: Type.String({ format: 'uuid', description: 'The event\'s id, the `Webhook-Id` header: the same in every delivery of the event.' }),
  tipo: Type.String(),
  recurso: Type.String({ description: 'What the order is kept for: `operacao:<id>`, `titulo:<id>`…' }),
  estado: Type.String({ enum: [...ESTADOS_ENTREGA] }),
  tentativas: Type.Integer(),
  proxima_tentativa_em: OrNull(Instant),
  manual: Type.Boolean({ description: 'A redelivery asked by hand.' }),
  ultimo_status: OrNull(Type.Integer()),
  ultimo_erro: OrNull(Type.String()),
  entregue_em: OrNull(Instant),
  criado_em: Instant,
})

const EntregaDetalhe = Type.Object({
  ...EntregaOut.properties,
  corpo: Type.String({ description: 'The body POSTed, byte for byte (what the signature covers, after `t.`).' }),
  tentativas_log: Type.Array(Type.Object({
    numero: Type.Integer(), em: Instant, status_http: OrNull(Type.Integer()), latencia_ms: Type.Integer(),
    erro: OrNull(Type.String()), resposta: OrNull(Type.String({ description: 'The receiver\'s answer, its first 1,000 characters.' })),
  })),
})

const ESCOPO = 'webhooks'
const refusals = guardRefusals(ESCOPO)
const tags = ['webhooks']
const Params = Type.Object({ id: Type.String() })
const DeliveryParams = Type.Object({ id: Type.String(), entrega: Type.String() })
const urlRefusals = ValidationProblem('The body breaks the schema, or the URL is refused: not https in production, with a user or password, a '
  + 'name that does not resolve, or an address that is not public: every item.')

export const WEBHOOK_ROUTES = {
  criar: {
    method: 'POST', url: '/api/webhooks', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'criarWebhook', tags, body: WebhookIn,
      summary: 'Register an endpoint for events: the answer shows its signing secret, once',
      response: {
        201: WithSecret, ...refusals, ...idempotencyProblems, 422: urlRefusals,
        ...Conflict('The customer has as many endpoints as it may (webhooks_no_limite, with `limite`), or the key is in use.'),
      },
    },
  },
  listar: {
    method: 'GET', url: '/api/webhooks', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'listarWebhooks', tags, summary: 'The endpoints, newest first',
      querystring: Type.Object({ ...PageQuery }, { additionalProperties: false }),
      response: {
        200: Type.Object({ itens: Type.Array(WebhookOut), proximo: OrNull(Type.Integer()) }), ...refusals, 422: ValidationProblem('A page out of shape.'),
      },
    },
  },
  ler: {
    method: 'GET', url: '/api/webhooks/:id', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'lerWebhook', tags, summary: 'One endpoint', params: Params, response: { 200: WebhookOut, ...refusals, ...NotFound('webhook') },
    },
  },
  alterar: {
    method: 'PATCH', url: '/api/webhooks/:id', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'alterarWebhook', tags, params: Params, body: WebhookPatchIn,
      summary: 'Change an endpoint\'s URL, events or name, or turn it off or on again',
      response: { 200: WebhookOut, ...refusals, ...idempotencyProblems, ...NotFound('webhook'), 422: urlRefusals, ...Conflict('The key is in use.') },
    },
  },
  excluir: {
    method: 'DELETE', url: '/api/webhooks/:id', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'excluirWebhook', tags, params: Params, summary: 'Delete an endpoint: its waiting deliveries are cancelled',
      response: { 204: Type.Null(), ...refusals, ...idempotencyProblems, ...NotFound('webhook'), ...Conflict('The key is in use.') },
    },
  },
  rotacao: {
    method: 'POST', url: '/api/webhooks/:id/segredo', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'rotacionarSegredoWebhook', tags, params: Params, body: RotacaoIn,
      summary: 'A new signing secret, shown once; the old one signs too for the grace asked',
      response: {
        200: WithSecret, ...refusals, ...idempotencyProblems, ...NotFound('webhook'), 422: ValidationProblem('Out of shape.'),
        ...Conflict('The key is in use.'),
      },
    },
  },
  entregas: {
    method: 'GET', url: '/api/webhooks/:id/entregas', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'listarEntregasWebhook', tags, params: Params, summary: 'The endpoint\'s deliveries, newest first',
      querystring: Type.Object({
        ...PageQuery, estado: Type.Optional(Type.String({ enum: [...ESTADOS_ENTREGA] })),
        tipo: Type.Optional(Type.String({ pattern: '^[a-z_]{1,40}\\.[a-z_]{1,40}$', description: 'One event type.' })),
        evento_id: Type.Optional(Type.String({ format: 'uuid', description: 'The deliveries of one event: the Webhook-Id a receiver saw.' })),
      }, { additionalProperties: false }),
      response: {
        200: Type.Object({ itens: Type.Array(EntregaOut), proximo: OrNull(Type.Integer()) }), ...refusals, ...NotFound('webhook'),
        422: ValidationProblem('A filter out of shape.'),
      },
    },
  },
  entrega: {
    method: 'GET', url: '/api/webhooks/:id/entregas/:entrega', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'lerEntregaWebhook', tags, params: DeliveryParams, summary: 'One delivery: the body sent and every try',
      response: { 200: EntregaDetalhe, ...refusals, ...NotFound('delivery') },
    },
  },
  teste: {
    method: 'POST', url: '/api/webhooks/:id/teste', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'testarWebhook', tags, params: Params,
      summary: 'Send the endpoint a test event (`webhook.teste`), signed as any other, without changing any data',
      response: { 202: EntregaOut, ...refusals, ...idempotencyProblems, ...NotFound('webhook'), ...Conflict('The key is in use.') },
    },
  },
  reenvio: {
    method: 'POST', url: '/api/webhooks/:id/entregas/:entrega/reenvio', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'reenviarEntregaWebhook', tags, params: DeliveryParams,
      summary: 'Send an event again to the endpoint: a new delivery, due now, with the same event id (or the one still open of that event)',
      response: { 202: EntregaOut, ...refusals, ...idempotencyProblems, ...NotFound('delivery'), ...Conflict('The key is in use.') },
    },
  },
} as const satisfies Record<string, RouteDefinition>

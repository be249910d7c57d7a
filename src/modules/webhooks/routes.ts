// /api/webhooks (issue 34): a customer's endpoints, their signing secrets (shown once, rotated with a grace), and
// their delivery log with redelivery by hand. A URL is checked before the transaction opens (its name is looked
// up): a refusal is a 422 on the field.
import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Database, Orm } from '../../platform/db/database.ts'
import { pageFrom, pageOf } from '../../platform/http/api-schemas.ts'
import { problem } from '../../platform/http/problem.ts'
import type { Budget } from '../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../platform/http/rate-limit.ts'
import { RequestValidationError } from '../../platform/http/validation-errors.ts'
import { jsonAnswer, problemAnswer } from '../../platform/idempotency/http.ts'
import { mutationRoute } from '../../platform/idempotency/mutation-route.ts'
import type { Idempotency } from '../../platform/idempotency/run.ts'
import type { Clock } from '../../platform/lib/clock.ts'
import { isUuid } from '../../platform/lib/uuid.ts'
import type { ActionContext } from '../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { byCredential } from '../credentials/index.ts'
import { WEBHOOK_ROUTES, type WebhookInT, type WebhookPatchInT } from './definitions.ts'
import { TooManyWebhooksError } from './errors.ts'
import { newSigningSecret, type SecretBox } from './secret-box.ts'
import {
  countLive, deleteWebhook, getDelivery, getWebhook, insertWebhook, listDeliveries, listWebhooks, pingDelivery, redeliver, rotateSecret, sealedSecret,
  updateWebhook,
} from './store.ts'
import type { UrlCheck } from './url-check.ts'
import { deliveryDetailView, deliveryView, webhookView } from './views.ts'

export type WebhookRoutesDeps = {
  db: Database, clock: Clock, idempotency: Idempotency, dbTimeoutMs: number, budget: Budget, box: SecretBox, checkUrl: UrlCheck,
}

/** A customer's live endpoints: each event is queued once per endpoint that wants it. */
export const WEBHOOKS_MAX = 20
/** The grace of the old secret after a rotation, unless asked otherwise. */
const DEFAULT_GRACE_HOURS = 24

const NOT_FOUND = problem('nao_encontrado')
const TIMEOUT_FACTOR = 8

/** The URL refused, as a 422 item on the field. */
async function checked(check: UrlCheck, url: string | undefined): Promise<void> {
  if (url === undefined) return
  const r = await check(url)
  if ('problem' in r) throw new RequestValidationError([{ type: 'value_error', loc: ['body', 'url'], msg: `Value error, ${r.problem}`, input: url }])
}

export function webhookRoutes(deps: WebhookRoutesDeps) {
  const { db, clock, box } = deps
  const mutation = { idempotency: deps.idempotency, clock, dbTimeoutMs: deps.dbTimeoutMs }
  const R = WEBHOOK_ROUTES
  const config = { rateLimit: rateLimitFor(deps.budget), credencial: { escopo: R.criar.escopo } }
  const view = async (tx: Orm, id: string) => webhookView((await getWebhook(tx, id))!)

  return async function (app: FastifyInstance) {
    mutationRoute<{ Body: WebhookInT }, ActionContext>(app, mutation, {
      method: R.criar.method, url: R.criar.url, idempotency: 'accepted', config, schema: R.criar.schema, caller: byCredential,
      timeoutFactor: TIMEOUT_FACTOR,
      prepare: (req) => checked(deps.checkUrl, req.body.url),
      work: async ({ tx, req, action }) => {
        if (await countLive(tx, req.credential!.clienteId) >= WEBHOOKS_MAX) throw new TooManyWebhooksError(WEBHOOKS_MAX)
        const clienteId = req.credential!.clienteId
        const id = randomUUID()
        const secret = newSigningSecret()
        await insertWebhook(tx, {
          id, clienteId, url: new URL(req.body.url).href, descricao: req.body.descricao?.trim() || null, eventos: req.body.eventos,
          segredoCifrado: box.seal(secret, { clienteId, webhookId: id }), now: action.now,
        })
        const shown = await view(tx, id)
        return {
          answer: jsonAnswer(201, { ...shown, segredo: null }), shownOnce: jsonAnswer(201, { ...shown, segredo: secret }),
          audit: { acao: 'webhook.criado', alvoId: id },
        }
      },
    })

    mutationRoute<{ Params: { id: string }, Body: WebhookPatchInT }, ActionContext>(app, mutation, {
      method: R.alterar.method, url: R.alterar.url, idempotency: 'accepted', config, schema: R.alterar.schema, caller: byCredential,
      timeoutFactor: TIMEOUT_FACTOR,
      prepare: (req) => checked(deps.checkUrl, req.body.url),
      work: async ({ tx, req, action }) => {
        const id = req.params.id
        if (!isUuid(id) || !await getWebhook(tx, id, true)) return { answer: problemAnswer(NOT_FOUND) }
        const b = req.body
        await updateWebhook(tx, id, {
          ...(b.url !== undefined ? { url: new URL(b.url).href } : {}), ...(b.eventos !== undefined ? { eventos: b.eventos } : {}),
          ...(b.descricao !== undefined ? { descricao: b.descricao?.trim() || null } : {}), ...(b.ativo !== undefined ? { ativo: b.ativo } : {}),
        }, action.now)
        return { answer: jsonAnswer(200, await view(tx, id)), audit: { acao: 'webhook.alterado', alvoId: id } }
      },
    })

    mutationRoute<{ Params: { id: string } }, ActionContext>(app, mutation, {
      method: R.excluir.method, url: R.excluir.url, idempotency: 'accepted', config, schema: R.excluir.schema, caller: byCredential,
      timeoutFactor: TIMEOUT_FACTOR,
      work: async ({ tx, req, action }) => {
        const id = req.params.id
        if (!isUuid(id) || !await deleteWebhook(tx, id, action.now)) return { answer: problemAnswer(NOT_FOUND) }
        return { answer: jsonAnswer(204, null), audit: { acao: 'webhook.excluido', alvoId: id } }
      },
    })

    mutationRoute<{ Params: { id: string }, Body: { validade_anterior_horas?: number } }, ActionContext>(app, mutation, {
      method: R.rotacao.method, url: R.rotacao.url, idempotency: 'accepted', config, schema: R.rotacao.schema, caller: byCredential,
      timeoutFactor: TIMEOUT_FACTOR,
      work: async ({ tx, req, action }) => {
        const id = req.params.id
        const found = isUuid(id) ? await getWebhook(tx, id, true) : undefined
        if (!found) return { answer: problemAnswer(NOT_FOUND) }
        const owner = { clienteId: req.credential!.clienteId, webhookId: id }
        const hours = req.body?.validade_anterior_horas ?? DEFAULT_GRACE_HOURS
        const secret = newSigningSecret()
        const previous = (await sealedSecret(tx, id))!
        await rotateSecret(tx, id, {
          sealed: box.seal(secret, owner), previousSealed: hours > 0 ? previous : null, graceHours: hours, now: action.now,
        })
        const shown = await view(tx, id)
        return {
          answer: jsonAnswer(200, { ...shown, segredo: null }), shownOnce: jsonAnswer(200, { ...shown, segredo: secret }),
          audit: { acao: 'webhook.segredo_rotacionado', alvoId: id },
        }
      },
    })

    mutationRoute<{ Params: { id: string, entrega: string } }, ActionContext>(app, mutation, {
      method: R.reenvio.method, url: R.reenvio.url, idempotency: 'accepted', config, schema: R.reenvio.schema, caller: byCredential,
      timeoutFactor: TIMEOUT_FACTOR,
      work: async ({ tx, req }) => {
        const { id, entrega } = req.params
        const made = isUuid(id) && isUuid(entrega) && await getWebhook(tx, id) ? await redeliver(tx, id, entrega) : undefined
        if (!made) return { answer: problemAnswer(NOT_FOUND) }
        return { answer: jsonAnswer(202, deliveryView((await getDelivery(tx, id, made))!)), audit: { acao: 'webhook.reenvio', alvoId: made } }
      },
    })

    mutationRoute<{ Params: { id: string } }, ActionContext>(app, mutation, {
      method: R.teste.method, url: R.teste.url, idempotency: 'accepted', config, schema: R.teste.schema, caller: byCredential,
      timeoutFactor: TIMEOUT_FACTOR,
      work: async ({ tx, req }) => {
        const id = req.params.id
        if (!isUuid(id) || !await getWebhook(tx, id)) return { answer: problemAnswer(NOT_FOUND) }
        const made = await pingDelivery(tx, { id, clienteId: req.credential!.clienteId })
        return { answer: jsonAnswer(202, deliveryView((await getDelivery(tx, id, made))!)), audit: { acao: 'webhook.teste', alvoId: id } }
      },
    })

    app.get(R.listar.url, { config, schema: R.listar.schema }, async (request) => {
      const page = pageOf((request as FastifyRequest<{ Querystring: { limite?: string, antes?: string } }>).query)
      const rows = await withTenant(db, request.credential!.clienteId, (tx) => listWebhooks(tx, page))
      const found = pageFrom(rows, page.limit)
      return { itens: found.items.map((w) => webhookView(w)), proximo: found.next }
    })

    app.get(R.ler.url, { config, schema: R.ler.schema }, async (request) => {
      const id = (request as FastifyRequest<{ Params: { id: string } }>).params.id
      const found = isUuid(id) ? await withTenant(db, request.credential!.clienteId, (tx) => getWebhook(tx, id)) : undefined
      if (!found) throw NOT_FOUND
      return webhookView(found)
    })

    app.get(R.entregas.url, { config, schema: R.entregas.schema }, async (request) => {
      const r = request as FastifyRequest<{ Params: { id: string }, Querystring: { limite?: string, antes?: string, estado?: string, tipo?: string,
        evento_id?: string } }>
      const page = pageOf(r.query)
      const id = r.params.id
      const rows = isUuid(id) ? await withTenant(db, request.credential!.clienteId, async (tx) => (await getWebhook(tx, id))
        ? listDeliveries(tx, id, { ...page, ...(r.query.estado ? { estado: r.query.estado } : {}), ...(r.query.tipo ? { tipo: r.query.tipo } : {}),
          ...(r.query.evento_id ? { eventoId: r.query.evento_id } : {}) })
        : undefined) : undefined
      if (!rows) throw NOT_FOUND
      const found = pageFrom(rows, page.limit)
      return { itens: found.items.map(deliveryView), proximo: found.next }
    })

    app.get(R.entrega.url, { config, schema: R.entrega.schema }, async (request) => {
      const { id, entrega } = (request as FastifyRequest<{ Params: { id: string, entrega: string } }>).params
      const found = isUuid(id) && isUuid(entrega) ? await withTenant(db, request.credential!.clienteId, (tx) => getDelivery(tx, id, entrega)) : undefined
      if (!found) throw NOT_FOUND
      return deliveryDetailView(found)
    })
  }
}

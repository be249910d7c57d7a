// /api/titulos/{id}/registro (issue 34): a duplicata's query asked of the registry (sent by the worker: 202), and the
// título's place in the registry read with its requests and the mirror of what the registry said; and the
// registradora's callback, /api/registradora/callback, which only makes the service read the request back now.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'drizzle-orm'
import { Type } from 'typebox'
import type { Database, Orm } from '../../platform/db/database.ts'
import { queryRows } from '../../platform/db/database.ts'
import { problem } from '../../platform/http/problem.ts'
import type { Budget } from '../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../platform/http/rate-limit.ts'
import { jsonAnswer, problemAnswer } from '../../platform/idempotency/http.ts'
import { mutationRoute } from '../../platform/idempotency/mutation-route.ts'
import type { Idempotency } from '../../platform/idempotency/run.ts'
import type { Clock } from '../../platform/lib/clock.ts'
import { isUuid } from '../../platform/lib/uuid.ts'
import type { ActionContext } from '../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { byCredential } from '../credentials/index.ts'
import { InvalidStateError, NoCustomerCnpjError } from '../operations/index.ts'
import { CALLBACK_PATH } from './configured.ts'
import { REGISTRY_ROUTES } from './definitions.ts'
import { NotInRegistryError } from './errors.ts'
import { askAssignmentAgain, askQuery, getPedido, mirrorOf, openQuery, pedidosOf } from './store.ts'
import { mirrorView, pedidoView } from './views.ts'
import { readBack, type RegistryDeps } from './worker.ts'

export type RegistryRoutesDeps = {
  db: Database, clock: Clock, idempotency: Idempotency, dbTimeoutMs: number, budget: Budget, worker: RegistryDeps,
}

const NOT_FOUND = problem('nao_encontrado')
const DUPLICATAS = new Set(['duplicata_mercantil', 'duplicata_servico'])
/** What a query is for: a título being bought or owned. */
const QUERYABLE = new Set(['ofertado', 'adquirido'])

type TitleRow = { id: string, tipo: string, estado: string, registro_estado: string, registro_situacao: string | null, documento: string | null }

const titleOf = async (tx: Orm, id: string): Promise<TitleRow | undefined> => (await queryRows<TitleRow>(tx, sql`SELECT t.id, t.tipo, t.estado,
    t.registro_estado, t.registro_situacao, c.documento FROM titulos t JOIN clientes c ON c.id = t.cliente_id WHERE t.id = ${id}::uuid FOR UPDATE OF t`))[0]

const CallbackIn = Type.Object({ protocolo: Type.String({ pattern: '^[!-~]{1,100}$' }) })

export function registryRoutes(deps: RegistryRoutesDeps) {
  const { db, clock } = deps
  const mutation = { idempotency: deps.idempotency, clock, dbTimeoutMs: deps.dbTimeoutMs }
  const R = REGISTRY_ROUTES
  const config = { rateLimit: rateLimitFor(deps.budget), credencial: { escopo: 'operacoes' } }

  return async function (app: FastifyInstance) {
    mutationRoute<{ Params: { id: string } }, ActionContext>(app, mutation, {
      method: 'POST', url: R.consultar.url, idempotency: 'accepted', config, schema: R.consultar.schema, caller: byCredential, timeoutFactor: 8,
      work: async ({ tx, req, action }) => {
        const t = isUuid(req.params.id) ? await titleOf(tx, req.params.id) : undefined
        if (!t) return { answer: problemAnswer(NOT_FOUND) }
        if (!DUPLICATAS.has(t.tipo)) throw new NotInRegistryError(t.tipo)
        if (!QUERYABLE.has(t.estado)) throw new InvalidStateError(t.estado)
        if (!t.documento) throw new NoCustomerCnpjError()
        const id = await openQuery(tx, t.id) ?? await askQuery(tx, req.credential!.clienteId, t.id, action.now)
        return { answer: jsonAnswer(202, pedidoView((await getPedido(tx, id))!)), audit: { acao: 'registro.consulta_pedida', alvoId: t.id } }
      },
    })

    mutationRoute<{ Params: { id: string } }, ActionContext>(app, mutation, {
      method: 'POST', url: R.cessao.url, idempotency: 'accepted', config, schema: R.cessao.schema, caller: byCredential, timeoutFactor: 8,
      work: async ({ tx, req, action }) => {
        const t = isUuid(req.params.id) ? await titleOf(tx, req.params.id) : undefined
        if (!t) return { answer: problemAnswer(NOT_FOUND) }
        if (t.estado !== 'adquirido' || t.registro_estado !== 'cessao_recusada') throw new InvalidStateError(t.registro_estado, { estado_titulo: t.estado })
        const id = await askAssignmentAgain(tx, req.credential!.clienteId, t.id, action.now)
        return { answer: jsonAnswer(202, pedidoView((await getPedido(tx, id))!)), audit: { acao: 'registro.cessao_pedida', alvoId: t.id } }
      },
    })

    app.get(R.ler.url, { config, schema: R.ler.schema }, async (request) => {
      const id = (request as FastifyRequest<{ Params: { id: string } }>).params.id
      const found = isUuid(id) ? await withTenant(db, request.credential!.clienteId, async (tx) => {
        const [t] = await queryRows<{ registro_estado: string, registro_situacao: string | null }>(tx,
          sql`SELECT registro_estado, registro_situacao FROM titulos WHERE id = ${id}::uuid`)
        return t && { t, pedidos: await pedidosOf(tx, id), eventos: await mirrorOf(tx, id) }
      }) : undefined
      if (!found) throw NOT_FOUND
      return {
        titulo_id: id, registro_estado: found.t.registro_estado, registro_situacao: found.t.registro_situacao,
        pedidos: found.pedidos.map(pedidoView), eventos: found.eventos.map(mirrorView),
      }
    })

    // The registradora's call: answered 204 whatever it names (an unknown protocol teaches nothing), after the request
    // it names, if any is waiting, was read back from the registradora itself.
    app.post<{ Body: { protocolo: string } }>(CALLBACK_PATH, {
      config: { rateLimit: rateLimitFor(deps.budget) }, schema: { hide: true, body: CallbackIn },
    }, async (req, reply) => {
      await readBack(deps.worker, req.body.protocolo, clock.now())
      return reply.code(204).send()
    })
  }
}

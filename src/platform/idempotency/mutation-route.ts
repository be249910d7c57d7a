// The one way to declare a route that changes data. It takes an Idempotency-Key (accepted, or required: 400
// `chave_idempotencia_ausente` without one), runs the work in one transaction (the customer's, under row-level
// security, for a credential's request), writes the work's audit row in that transaction with the request's ids,
// and stores the answer there too when a key came: so the change, its audit row and its stored answer commit
// together or not at all, and a retry gets the first answer byte for byte. With or without a key it is the same
// path (Idempotency.run), so no route writes its work twice.
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, FastifySchema, RouteGenericInterface } from 'fastify'
import type { Changes } from '../db/schema.ts'
import { appendAudit, type ActionContext, type AuditAction } from '../tenancy/audit/store.ts'
import type { Clock } from '../lib/clock.ts'
import type { Orm } from '../db/database.ts'
import { callOf, sendOutcome, type IdempotencyMode } from './http.ts'
import type { Idempotency } from './run.ts'
import type { StoredAnswer } from './store.ts'

export type MutationDeps = { idempotency: Idempotency, clock: Clock, dbTimeoutMs: number }

/** What the work did: the answer (stored with the change when a key came), and the audit row to write with it. */
export type Mutation = {
  answer: StoredAnswer
  /**
   * What this request alone is answered, never stored: a secret shown once (a webhook's). A retry with the same key
   * gets `answer`, which leaves it out.
   */
  shownOnce?: StoredAnswer
  audit?: { acao: AuditAction, alvoId?: string | null, alteracoes?: Changes | null }
}

/** Whose the transaction and the key are, and who acts (the audit row's actor), for a request. */
export type Caller<A extends ActionContext | undefined> = {
  /** The customer the transaction acts for (row-level security), or null for an anonymous caller. */
  clienteId(req: FastifyRequest): string | null
  /** The key's scope: keys of two callers never meet. Read only when a key came. */
  escopo(req: FastifyRequest): string | Promise<string>
  action(req: FastifyRequest, now: Date): A
}

export type MutationRoute<RG extends RouteGenericInterface, A extends ActionContext | undefined> = {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  url: string
  idempotency: IdempotencyMode
  config?: Omit<FastifyContextConfig, 'idempotency'>
  schema: FastifySchema
  /** A larger body than the service's default (BODY_LIMIT), for a route that takes a list (a borderô's títulos). */
  bodyLimit?: number
  caller: Caller<A>
  /**
   * What must be read or checked before the transaction opens (on the embedded database a query outside it waits
   * for it; a name's lookup must not hold a connection): a rejection is the request's answer, nothing written.
   */
  prepare?: (req: FastifyRequest<RG>) => Promise<unknown>
  /** The change, in the transaction; a rejection leaves nothing (no change, no audit row, no stored answer). */
  work(m: { tx: Orm, req: FastifyRequest<RG>, action: A }): Promise<Mutation>
  /** The transaction's budget, in single queries (DB_TIMEOUT_MS): past it a 503. */
  timeoutFactor: number
  /** What a failure of the work is answered as (thrown to the error handler); by default the error itself. */
  failed?: (err: unknown, req: FastifyRequest<RG>) => unknown
}

export function mutationRoute<RG extends RouteGenericInterface, A extends ActionContext | undefined>(
  app: FastifyInstance, deps: MutationDeps, route: MutationRoute<RG, A>,
): void {
  app.route({
    method: route.method, url: route.url, schema: route.schema, config: { ...route.config, idempotency: route.idempotency },
    ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
    handler: async (request, reply) => {
      // The route's schema validated the request before this runs: it is the request the route's types describe.
      const req = request as FastifyRequest<RG>
      try {
        await route.prepare?.(req)
        const clienteId = route.caller.clienteId(req)
        const action = route.caller.action(req, deps.clock.now())
        const call = await callOf(req, { clienteId, escopo: () => route.caller.escopo(req) })
        const outcome = await deps.idempotency.run(call, async (tx) => {
          const done = await route.work({ tx, req, action })
          if (done.audit) {
            const { acao, alvoId, alteracoes } = done.audit
            await appendAudit(tx, auditedCustomer(clienteId, action), action!, acao, { alvoId: alvoId ?? null, alteracoes: alteracoes ?? null })
          }
          return { answer: done.answer, result: done.shownOnce ?? done.answer }
        }, route.timeoutFactor * deps.dbTimeoutMs)
        return sendOutcome(reply, outcome)
      } catch (err) {
        throw route.failed ? route.failed(err, req) : err
      }
    },
  })
}

/** An audit row belongs to a customer and names an actor: a route of an anonymous caller has neither to give. */
function auditedCustomer(clienteId: string | null, action: ActionContext | undefined): string {
  if (clienteId === null || action === undefined) throw new Error('an audited mutation needs a customer and an actor (Caller)')
  return clienteId
}

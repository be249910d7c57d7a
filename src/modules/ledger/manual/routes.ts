// /api/lancamentos-manuais (issue 32 item 10): an administrador proposes a balanced entry, a second person confirms
// it (posted then, through postEntry, with the ledger's database checks) or refuses it. The same guard, scopes,
// roles, idempotency and audit as a payment's steps (src/modules/operations/payment-routes.ts): each decision locks
// its row and checks the state it leaves; another customer's id is not found (row-level security).
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Clock } from '../../../platform/lib/clock.ts'
import type { Database, Orm } from '../../../platform/db/database.ts'
import { pageOf } from '../../../platform/http/api-schemas.ts'
import { problem } from '../../../platform/http/problem.ts'
import type { Budget } from '../../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../../platform/http/rate-limit.ts'
import { RequestValidationError } from '../../../platform/http/validation-errors.ts'
import { jsonAnswer, problemAnswer } from '../../../platform/idempotency/http.ts'
import { mutationRoute, type Mutation } from '../../../platform/idempotency/mutation-route.ts'
import type { Idempotency } from '../../../platform/idempotency/run.ts'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import { isUuid } from '../../../platform/lib/uuid.ts'
import type { ActionContext, AuditAction } from '../../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { byCredential } from '../../credentials/index.ts'
import { MANUAL_ENTRY_ROUTES, type LancamentoManualInT } from './definitions.ts'
import { checkManualEntry } from './rules.ts'
import { confirmEntry, getEntry, listManualEntries, lockEntry, proposeEntry, refuseEntry } from './store.ts'
import type { Estado, ManualEntry, Motivo } from './tables.ts'
import { manualEntryView } from './views.ts'

const NOT_FOUND = problem('nao_encontrado')
const TIMEOUT_FACTOR = 12

export type ManualEntryDeps = { db: Database, clock: Clock, idempotency: Idempotency, dbTimeoutMs: number, budget: Budget }

export function manualEntryRoutes(deps: ManualEntryDeps) {
  const { db, clock } = deps
  const limit = rateLimitFor(deps.budget)
  const mutation = { idempotency: deps.idempotency, clock, dbTimeoutMs: deps.dbTimeoutMs }
  const R = MANUAL_ENTRY_ROUTES

  return async function (app: FastifyInstance) {
    mutationRoute<{ Body: LancamentoManualInT }, ActionContext>(app, mutation, {
      method: R.propor.method, url: R.propor.url, idempotency: 'required', schema: R.propor.schema, caller: byCredential,
      config: { rateLimit: limit, credencial: { escopo: R.propor.escopo } }, timeoutFactor: TIMEOUT_FACTOR,
      work: async ({ tx, req, action }) => {
        const c = req.credential!
        // The scope lets an operador record a payment; moving the ledger by hand is the administrador's alone, and a person's.
        if (c.usuarioId === null || c.papel !== 'administrador') return { answer: problemAnswer(problem('papel_insuficiente')) }
        const { lines, items } = checkManualEntry(req.body, brasiliaDay(action.now))
        if (items.length) throw new RequestValidationError(items)
        const b = req.body
        const made = await proposeEntry(tx, {
          clienteId: c.clienteId, data: b.data, historico: b.historico.trim(), motivo: b.motivo as Motivo, justificativa: b.justificativa.trim(), linhas: lines,
        }, c.usuarioId, action.now)
        return { answer: jsonAnswer(201, manualEntryView(made)), audit: { acao: 'lancamento_manual.solicitado', alvoId: made.id } }
      },
    })

    /** A decision on one entry: not found unless the customer's, locked, answered whole. */
    function onEntry<RG extends { Params: { id: string }, Body?: unknown }>(
      route: typeof R.confirmacao | typeof R.recusa, acao: AuditAction, required: boolean,
      work: (m: { tx: Orm, req: FastifyRequest<RG>, action: ActionContext, entry: ManualEntry }) => Promise<ManualEntry>,
    ): void {
      mutationRoute<RG, ActionContext>(app, mutation, {
        method: route.method, url: route.url, idempotency: required ? 'required' : 'accepted', schema: route.schema, caller: byCredential,
        config: { rateLimit: limit, credencial: { escopo: route.escopo } }, timeoutFactor: TIMEOUT_FACTOR,
        work: async ({ tx, req, action }): Promise<Mutation> => {
          const id = (req.params as { id: string }).id
          const entry = isUuid(id) ? await lockEntry(tx, id) : undefined
          if (!entry) return { answer: problemAnswer(NOT_FOUND) }
          const done = await work({ tx, req, action, entry })
          return { answer: jsonAnswer(200, manualEntryView(done)), audit: { acao, alvoId: id } }
        },
      })
    }

    onEntry<{ Params: { id: string } }>(R.confirmacao, 'lancamento_manual.confirmado', true, ({ tx, req, action, entry }) =>
      confirmEntry(tx, entry, req.credential!.usuarioId, { now: action.now, requestId: action.requestId ?? null }))

    onEntry<{ Params: { id: string }, Body: { motivo: string } }>(R.recusa, 'lancamento_manual.recusado', false, ({ tx, req, action, entry }) =>
      refuseEntry(tx, entry, req.credential!.usuarioId, req.body.motivo.trim(), action.now))

    const read = { rateLimit: limit, credencial: { escopo: 'financeiro' } }
    app.get(R.listar.url, { config: read, schema: R.listar.schema }, async (request) => {
      const q = (request as FastifyRequest<{ Querystring: { limite?: string, antes?: string, estado?: Estado } }>).query
      const found = await withTenant(db, request.credential!.clienteId, (tx) => listManualEntries(tx, q.estado, pageOf(q)))
      return { itens: found.items.map(manualEntryView), proximo: found.next }
    })

    app.get(R.ler.url, { config: read, schema: R.ler.schema }, async (request) => {
      const id = (request as FastifyRequest<{ Params: { id: string } }>).params.id
      const found = isUuid(id) ? await withTenant(db, request.credential!.clienteId, (tx) => getEntry(tx, id)) : undefined
      if (!found) throw NOT_FOUND
      return manualEntryView(found)
    })
  }
}

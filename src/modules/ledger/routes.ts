// The ledger's routes (produto.md §2.7), read only, scope `financeiro`: each answer read in one tenant
// transaction (row-level security: another customer's cedente is not found, its entries never seen).
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Clock } from '../../platform/lib/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { csvFilename, sendCsv, wantsCsv } from '../../platform/http/csv-answer.ts'
import { listBody, listPageOf, orderAsked, searchOf, type ListParams } from '../../platform/http/list-query.ts'
import { problem } from '../../platform/http/problem.ts'
import type { Budget } from '../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../platform/http/rate-limit.ts'
import { RequestValidationError, type ValidationItem } from '../../platform/http/validation-errors.ts'
import { brasiliaDay } from '../../platform/lib/brasilia-time.ts'
import { isUuid } from '../../platform/lib/uuid.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { dayNumber } from '../calendar/index.ts'
import type { Conta } from './accounts.ts'
import { LEDGER_ROUTES } from './definitions.ts'
import { cedenteStatement, entryList, entrySort, trialBalance } from './store.ts'
import { entriesCsv } from './exports.ts'
import { entryView, statementView, trialBalanceView } from './views.ts'

type Deps = { db: Database, clock: Clock, budget: Budget }

export function ledgerRoutes(deps: Deps) {
  const config = { rateLimit: rateLimitFor(deps.budget), credencial: { escopo: 'financeiro' } }
  const { lancamentos, extrato, balancete } = LEDGER_ROUTES

  return async function (app: FastifyInstance) {
    app.get(lancamentos.url, { config, schema: lancamentos.schema }, async (request, reply) => {
      type Q = ListParams & { de?: string, ate?: string, conta?: Conta, cedente_id?: string }
      const q = (request as FastifyRequest<{ Querystring: Q }>).query
      checkDays({ de: q.de, ate: q.ate })
      const page = listPageOf(q)
      const busca = searchOf(q)
      const filter = {
        ...(q.de ? { de: q.de } : {}), ...(q.ate ? { ate: q.ate } : {}), ...(q.conta ? { conta: q.conta } : {}),
        ...(q.cedente_id ? { cedenteId: q.cedente_id } : {}), ...(busca ? { busca } : {}),
      }
      const sort = entrySort(orderAsked(q))
      const clienteId = request.credential!.clienteId
      const filename = csvFilename('lancamentos', brasiliaDay(deps.clock.now()))
      if (wantsCsv(request)) return sendCsv(reply, entriesCsv(deps.db, clienteId, filter, sort, filename), clienteId)
      const found = await entryList(deps.db, clienteId, filter, sort, page)
      return listBody(found, page, q.ordem === undefined, (e) => e.numero, entryView)
    })

    app.get(extrato.url, { config, schema: extrato.schema }, async (request) => {
      const req = request as FastifyRequest<{ Params: { id: string }, Querystring: { de?: string, ate?: string } }>
      const today = brasiliaDay(deps.clock.now())
      const range = { de: req.query.de ?? `${today.slice(0, 8)}01`, ate: req.query.ate ?? today }
      checkDays(range)
      const id = req.params.id
      const found = isUuid(id) ? await cedenteStatement(deps.db, req.credential!.clienteId, id, range) : undefined
      if (!found) throw problem('nao_encontrado')
      return statementView(id, range, found)
    })

    app.get(balancete.url, { config, schema: balancete.schema }, async (request) => {
      const q = (request as FastifyRequest<{ Querystring: { data?: string } }>).query
      const data = q.data ?? brasiliaDay(deps.clock.now())
      checkDays({ data })
      const rows = await withTenant(deps.db, request.credential!.clienteId, (tx) => trialBalance(tx, data))
      return trialBalanceView(data, rows)
    })
  }
}

/** Each day given names a real day, and a range runs forwards. */
function checkDays(days: Record<string, string | undefined>): void {
  const items: ValidationItem[] = []
  for (const [name, value] of Object.entries(days)) {
    if (value !== undefined && dayNumber(value) === undefined) items.push({ type: 'value_error', loc: ['querystring', name],
      msg: 'Value error, no such day', input: value })
  }
  if (!items.length && days.de !== undefined && days.ate !== undefined && days.ate < days.de) {
    items.push({ type: 'value_error', loc: ['querystring', 'ate'], msg: 'Value error, ate must be on or after de', input: days.ate })
  }
  if (items.length) throw new RequestValidationError(items)
}

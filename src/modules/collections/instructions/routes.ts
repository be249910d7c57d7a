// /api/cobrancas/{id}/instrucoes (issue 33): an instruction asked of a registered charge, checked under the charge's
// lock against the instructions asked before it, stored `pendente` and answered at once; the bank is asked apart
// (sending.ts for `api` accounts, the next remessa for `cnab` ones), so a bank down or slow holds no request and
// loses no instruction. [$]: an Idempotency-Key is required; the row and its audit commit together.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Database } from '../../../platform/db/database.ts'
import { problem } from '../../../platform/http/problem.ts'
import type { Budget } from '../../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../../platform/http/rate-limit.ts'
import { RequestValidationError } from '../../../platform/http/validation-errors.ts'
import { jsonAnswer, problemAnswer } from '../../../platform/idempotency/http.ts'
import { mutationRoute } from '../../../platform/idempotency/mutation-route.ts'
import type { Idempotency } from '../../../platform/idempotency/run.ts'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import type { Clock } from '../../../platform/lib/clock.ts'
import { isUuid } from '../../../platform/lib/uuid.ts'
import type { ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { byCredential } from '../../credentials/index.ts'
import { getCharge } from '../charges/store.ts'
import { INSTRUCTION_ROUTES, type InstrucaoInT } from './definitions.ts'
import { checkState, instructionItems } from './rules.ts'
import { extensionIof } from './prorrogacao.ts'
import { createInstruction, instructionsOf, lockChargeToInstruct } from './store.ts'
import type { InstrucaoPedida } from './tables.ts'
import { instructionView } from './views.ts'

export type InstructionRoutesDeps = { db: Database, clock: Clock, idempotency: Idempotency, dbTimeoutMs: number, budget: Budget }

const NOT_FOUND = problem('nao_encontrado')
/** The key, the charge locked, its instructions, the insert, the audit, the answer. */
const TIMEOUT_FACTOR = 8

export function instructionRoutes(deps: InstructionRoutesDeps) {
  const { db, clock } = deps
  const limit = rateLimitFor(deps.budget)
  const mutation = { idempotency: deps.idempotency, clock, dbTimeoutMs: deps.dbTimeoutMs }
  const { instruir, listar } = INSTRUCTION_ROUTES
  const config = { rateLimit: limit, credencial: { escopo: instruir.escopo } }

  return async function (app: FastifyInstance) {
    mutationRoute<{ Params: { id: string }, Body: InstrucaoInT }, ActionContext>(app, mutation, {
      method: instruir.method, url: instruir.url, idempotency: 'required', config, schema: instruir.schema, caller: byCredential,
      timeoutFactor: TIMEOUT_FACTOR,
      work: async ({ tx, req, action }) => {
        const b = req.body
        const charge = isUuid(req.params.id) ? await lockChargeToInstruct(tx, req.params.id) : undefined
        if (!charge) return { answer: problemAnswer(NOT_FOUND) }
        const earlier = await instructionsOf(tx, charge.id)
        checkState(b, charge, earlier)
        const today = brasiliaDay(action.now)
        const items = instructionItems(b, charge, earlier, today)
        if (items.length) throw new RequestValidationError(items)
        const iof = b.instrucao === 'alteracao_vencimento' ? await extensionIof(tx, charge.id, b.vencimento!, today) : undefined
        const made = await createInstruction(tx, {
          clienteId: req.credential!.clienteId, cobrancaId: charge.id, instrucao: b.instrucao as InstrucaoPedida, vencimento: b.vencimento ?? null,
          abatimentoCentavos: b.abatimento_centavos ?? null, transporte: charge.transporte, now: action.now, ...(iof ? { iof } : {}),
        })
        return { answer: jsonAnswer(201, instructionView(made)), audit: { acao: 'cobranca.instrucao', alvoId: made.id } }
      },
    })

    app.get(listar.url, { config, schema: listar.schema }, async (request) => {
      const id = (request as FastifyRequest<{ Params: { id: string } }>).params.id
      const found = isUuid(id)
        ? await withTenant(db, request.credential!.clienteId, async (tx) => (await getCharge(tx, id)) && instructionsOf(tx, id))
        : undefined
      if (!found) throw NOT_FOUND
      return { itens: found.map(instructionView) }
    })
  }
}

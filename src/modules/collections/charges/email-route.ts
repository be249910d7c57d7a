// POST /api/cobrancas/{id}/email (issue 33): the boleto e-mailed to the sacado through the outbox (email.ts), queued in
// the transaction that audits it, so it leaves if and only if the request committed, and is retried by the outbox's
// worker while the mail server refuses it. Only to the sacado's address in the register: the route sends nowhere a
// caller names. Only a registered charge of a título still acquired and with no baixa asked: a boleto its bank does
// not hold cannot be paid, and a título bought back is no longer the customer's to collect.
import type { FastifyInstance } from 'fastify'
import { sql } from 'drizzle-orm'
import { queryRows, type Database, type Orm } from '../../../platform/db/database.ts'
import { problem } from '../../../platform/http/problem.ts'
import type { Budget } from '../../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../../platform/http/rate-limit.ts'
import { jsonAnswer, problemAnswer } from '../../../platform/idempotency/http.ts'
import { mutationRoute } from '../../../platform/idempotency/mutation-route.ts'
import type { Idempotency } from '../../../platform/idempotency/run.ts'
import type { Clock } from '../../../platform/lib/clock.ts'
import { isUuid } from '../../../platform/lib/uuid.ts'
import { enqueueMessage } from '../../../platform/outbox/enqueue.ts'
import type { ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { byCredential } from '../../credentials/index.ts'
import { boletoPdf } from '../boleto/pdf.ts'
import { ChargeNotRegisteredError, WriteOffAskedError } from '../instructions/errors.ts'
import { instructionsOf } from '../instructions/store.ts'
import { CHARGE_ROUTES } from './definitions.ts'
import { renderBoletoMail } from './email.ts'
import { BoletoSentRecentlyError, TitleNotAcquiredError } from './errors.ts'
import { NoSacadoEmailError } from '../../operations/index.ts'
import { dadosDoBoleto } from './ficha-data.ts'
import { boletoRows } from './store.ts'

export type ChargeEmailDeps = { db: Database, clock: Clock, idempotency: Idempotency, dbTimeoutMs: number, budget: Budget, production: boolean }

const NOT_FOUND = problem('nao_encontrado')
/** How long a charge's boleto waits before it is e-mailed again: a sacado gets one notice, not a flood. */
export const REENVIO_MS = 60 * 60_000

/** When the charge's boleto was last e-mailed: its audit rows say (row security keeps them the customer's). */
async function lastSent(tx: Orm, cobrancaId: string): Promise<Date | undefined> {
  const [row] = await queryRows<{ em: string | null }>(tx, sql`SELECT max(em)::text AS em FROM auditoria_cliente
    WHERE alvo_id = ${cobrancaId}::uuid AND acao = 'cobranca.boleto_enviado'`)
  return row?.em ? new Date(row.em) : undefined
}
/** The key, the charge's read, the PDF drawn, the outbox's row, the audit, the answer. */
const TIMEOUT_FACTOR = 8

export function chargeEmailRoute(deps: ChargeEmailDeps) {
  const { enviar } = CHARGE_ROUTES
  const config = { rateLimit: rateLimitFor(deps.budget), credencial: { escopo: enviar.escopo } }
  const mutation = { idempotency: deps.idempotency, clock: deps.clock, dbTimeoutMs: deps.dbTimeoutMs }

  return async function (app: FastifyInstance) {
    mutationRoute<{ Params: { id: string } }, ActionContext>(app, mutation, {
      method: enviar.method, url: enviar.url, idempotency: 'accepted', config, schema: enviar.schema, caller: byCredential,
      timeoutFactor: TIMEOUT_FACTOR,
      work: async ({ tx, req, action }) => {
        // The charge locked first: two requests at once take turns, and the second sees the first's send (red team).
        if (isUuid(req.params.id)) await tx.execute(sql`SELECT 1 FROM cobrancas WHERE id = ${req.params.id}::uuid FOR UPDATE`)
        const rows = isUuid(req.params.id) ? await boletoRows(tx, req.params.id) : undefined
        if (!rows) return { answer: problemAnswer(NOT_FOUND) }
        if (rows.c.estado !== 'registrada') throw new ChargeNotRegisteredError(rows.c.estado)
        // A título bought back or written off is no longer the customer's to collect: its notice would name the wrong payee.
        if (rows.titulo.estado !== 'adquirido') throw new TitleNotAcquiredError(rows.titulo.estado)
        const baixa = (await instructionsOf(tx, rows.c.id)).find((i) => i.instrucao === 'baixa' && i.estado !== 'rejeitada')
        if (baixa) throw new WriteOffAskedError(baixa.id)
        if (!rows.sacado.email) throw new NoSacadoEmailError(rows.sacado.id)
        const last = await lastSent(tx, rows.c.id)
        if (last && action.now.getTime() - last.getTime() < REENVIO_MS) throw new BoletoSentRecentlyError(last, new Date(last.getTime() + REENVIO_MS))
        const dados = dadosDoBoleto(rows, !deps.production)
        const mail = renderBoletoMail({ dados, tipoTitulo: rows.titulo.tipo, numeroCobranca: rows.c.numero, pdf: await boletoPdf(dados, action.now) })
        const { protocolo } = await enqueueMessage(tx, {
          ...mail, kind: 'boleto', name: { prefix: 'BL' }, to: rows.sacado.email, requestId: action.requestId ?? 'cobranca-email',
          clienteId: req.credential!.clienteId, audited: false,
        }, deps.clock)
        return {
          answer: jsonAnswer(202, { protocolo, para: rows.sacado.email }),
          audit: { acao: 'cobranca.boleto_enviado', alvoId: rows.c.id },
        }
      },
    })
  }
}

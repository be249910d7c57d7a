// /api/operacoes/{id}/desembolso and /api/desembolsos (produto.md §2.5, §1 "Two people for money out"): a person
// asks for the payment (scope operacoes), another approves it (aprovacao), and the transfer made or failed is
// recorded (financeiro). Money steps require Idempotency-Key; each locks its rows and checks the state it leaves.
import type { FastifyInstance, FastifyRequest, RouteGenericInterface } from 'fastify'
import { eq } from 'drizzle-orm'
import type { Clock } from '../../platform/lib/clock.ts'
import type { Database, Orm } from '../../platform/db/database.ts'
import { csvFilename, sendCsv, wantsCsv } from '../../platform/http/csv-answer.ts'
import { checkPeriods, listBody, listPageOf, orderAsked, searchOf, type ListParams } from '../../platform/http/list-query.ts'
import { brasiliaDay } from '../../platform/lib/brasilia-time.ts'
import { problem } from '../../platform/http/problem.ts'
import type { Budget } from '../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../platform/http/rate-limit.ts'
import { jsonAnswer, problemAnswer } from '../../platform/idempotency/http.ts'
import { mutationRoute, type Mutation } from '../../platform/idempotency/mutation-route.ts'
import type { Idempotency } from '../../platform/idempotency/run.ts'
import { isUuid } from '../../platform/lib/uuid.ts'
import type { ActionContext, AuditAction } from '../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { byCredential, type Credential } from '../credentials/index.ts'
import { getParty, type StoredConta } from '../origination/index.ts'
import { fail } from './checks.ts'
import { OPERATION_ROUTES } from './definitions.ts'
import {
  approvePayment, confirmedAccount, lockPayment, sameAccount, recordFailure, recordTransfer, refusePayment, requestPayment, type Account, type Requester,
} from './flow/payment.ts'
import type { DesembolsoInT } from './schemas.ts'
import { lockOperation, quoteOf, type Operation, type Payment } from './store.ts'
import { desembolsos, type EstadoDesembolso } from './tables.ts'
import { answerPayment, answerPayments } from './payment-answers.ts'
import { paymentsCsv } from './exports.ts'
import { paymentList, paymentSort, type PaymentListFilter } from './lists.ts'

const NOT_FOUND = problem('nao_encontrado')
const TIMEOUT_FACTOR = 12

const requester = (c: Credential): Requester => ({ tipo: c.kind === 'pat' ? 'token' : 'usuario', id: c.kind === 'pat' ? c.id : c.usuarioId!,
  usuarioId: c.usuarioId })

export function paymentRoutes(deps: { db: Database, clock: Clock, idempotency: Idempotency, dbTimeoutMs: number, budget: Budget }) {
  const { db, clock } = deps
  const limit = rateLimitFor(deps.budget)
  const mutation = { idempotency: deps.idempotency, clock, dbTimeoutMs: deps.dbTimeoutMs }
  const R = OPERATION_ROUTES

  return async function (app: FastifyInstance) {
    mutationRoute<{ Params: { id: string }, Body: DesembolsoInT }, ActionContext>(app, mutation, {
      method: R.desembolso.method, url: R.desembolso.url, idempotency: 'required', config: { rateLimit: limit, credencial: { escopo: 'operacoes' } },
      schema: R.desembolso.schema, caller: byCredential, timeoutFactor: TIMEOUT_FACTOR,
      work: async ({ tx, req, action }) => {
        const id = req.params.id
        const op = isUuid(id) ? await lockOperation(tx, id) : undefined
        if (!op) return { answer: problemAnswer(NOT_FOUND) }
        const cedente = (await getParty(tx, 'cedente', op.cedenteId))!
        const account = chosenAccount(cedente.contas ?? [], req.body.conta_bancaria)
        const quote = op.cotacaoAceita ? await quoteOf(tx, op.id, op.cotacaoAceita) : undefined
        const made = await requestPayment(tx, op, cedente, account, requester(req.credential!), quote?.valorLiquidoCentavos ?? 0n, action.now)
        return { answer: jsonAnswer(201, await answerPayment(tx, made)), audit: { acao: 'desembolso.solicitado', alvoId: made.id } }
      },
    })

    /** A step of one payment: not found unless the customer's, locked with its operation, answered whole. */
    function onPayment<RG extends { Params: { id: string }, Body?: unknown } & RouteGenericInterface>(
      route: typeof R.aprovacao | typeof R.pagamento | typeof R.falha | typeof R.recusa, acao: AuditAction, required: boolean,
      work: (m: { tx: Orm, req: FastifyRequest<RG>, action: ActionContext, payment: Payment, op: Operation }) => Promise<Payment>,
    ): void {
      mutationRoute<RG, ActionContext>(app, mutation, {
        method: route.method, url: route.url, idempotency: required ? 'required' : 'accepted', schema: route.schema, caller: byCredential,
        config: { rateLimit: limit, credencial: { escopo: route.escopo } }, timeoutFactor: TIMEOUT_FACTOR,
        work: async ({ tx, req, action }): Promise<Mutation> => {
          const id = (req.params as { id: string }).id
          // The operation first, then its payment: the order every step of an operation takes its locks in.
          const found = isUuid(id) ? await tx.select({ op: desembolsos.operacaoId }).from(desembolsos).where(eq(desembolsos.id, id)) : []
          if (!found.length) return { answer: problemAnswer(NOT_FOUND) }
          const op = (await lockOperation(tx, found[0]!.op))!
          const payment = (await lockPayment(tx, id))!
          const done = await work({ tx, req, action, payment, op })
          return { answer: jsonAnswer(200, await answerPayment(tx, done)), audit: { acao, alvoId: id } }
        },
      })
    }

    onPayment<{ Params: { id: string } }>(R.aprovacao, 'desembolso.aprovado', true,
      ({ tx, req, action, payment, op }) => approvePayment(tx, payment, op, requester(req.credential!), action.now))

    onPayment<{ Params: { id: string }, Body: { id_transacao: string, pago_em: string } }>(R.pagamento, 'desembolso.pago', true, async ({ tx, req,
      action, payment, op }) => {
      const pagoEm = new Date(req.body.pago_em)
      const late = payment.aprovadoEm !== null && pagoEm < new Date(payment.aprovadoEm.getTime() - 60_000)
      if (Number.isNaN(pagoEm.getTime()) || pagoEm > action.now || late) {
        fail([{ type: 'value_error', loc: ['body', 'pago_em'], msg: 'Value error, an instant not in the future and not before the approval',
          input: req.body.pago_em }])
      }
      return recordTransfer(tx, payment, op, { idTransacao: req.body.id_transacao, pagoEm },
        { now: action.now, requestId: action.requestId ?? null })
    })

    onPayment<{ Params: { id: string }, Body: { motivo: string } }>(R.falha, 'desembolso.falhou', false, ({ tx, req, action, payment, op }) =>
      recordFailure(tx, payment, op, req.body.motivo.trim(), action.now))

    onPayment<{ Params: { id: string }, Body: { motivo: string } }>(R.recusa, 'desembolso.recusado', true, ({ tx, req, action, payment, op }) => {
      // Kept trimmed; MotivoIn's pattern asked for three characters that are not blanks already.
      return refusePayment(tx, payment, op, requester(req.credential!), req.body.motivo.trim(), action.now)
    })

    const read = { rateLimit: limit, credencial: { escopo: 'operacoes' } }
    app.get(R.desembolsos.url, { config: read, schema: R.desembolsos.schema }, async (request, reply) => {
      type Q = ListParams & { estado?: EstadoDesembolso, cedente_id?: string, operacao_id?: string, criado_de?: string, criado_ate?: string }
      const q = (request as FastifyRequest<{ Querystring: Q }>).query
      checkPeriods(q, [['criado_de', 'criado_ate']])
      const page = listPageOf(q)
      const busca = searchOf(q)
      const filter: PaymentListFilter = {
        ...(q.estado ? { estado: q.estado } : {}), ...(q.cedente_id ? { cedenteId: q.cedente_id } : {}),
        ...(q.operacao_id ? { operacaoId: q.operacao_id } : {}),
        ...(busca ? { busca } : {}), ...(q.criado_de ? { de: q.criado_de } : {}), ...(q.criado_ate ? { ate: q.criado_ate } : {}),
      }
      const sort = paymentSort(orderAsked(q))
      const clienteId = request.credential!.clienteId
      const filename = csvFilename('desembolsos', brasiliaDay(clock.now()))
      if (wantsCsv(request)) return sendCsv(reply, paymentsCsv({ db, clienteId, sort }, filter, filename), clienteId)
      const { listed, views } = await withTenant(db, clienteId, async (tx) => {
        const listed = await paymentList(tx, filter, sort, page)
        const views = await answerPayments(tx, clienteId, listed.items.slice(0, page.limit))
        return { listed, views: new Map(views.map((v) => [v.id, v])) }
      })
      return listBody(listed, page, q.ordem === undefined, (p) => p.seq, (p) => views.get(p.id)!)
    })

    app.get(R.lerDesembolso.url, { config: read, schema: R.lerDesembolso.schema }, async (request) => {
      const id = (request as FastifyRequest<{ Params: { id: string } }>).params.id
      const clienteId = request.credential!.clienteId
      const got = isUuid(id) ? await withTenant(db, clienteId, async (tx) => {
        const [row] = await tx.select().from(desembolsos).where(eq(desembolsos.id, id))
        return row && answerPayment(tx, row)
      }) : undefined
      if (!got) throw NOT_FOUND
      return got
    })
  }
}

/** The account to pay: the one given, if it is the cedente's; else the cedente's only one. Confirmed, or refused. */
function chosenAccount(accounts: StoredConta[], given: Account | undefined): Account {
  const loc = ['body', 'conta_bancaria']
  if (given) {
    const match = accounts.find((a) => sameAccount(a, { ...given, digito: given.digito.toUpperCase() }))
    if (!match) fail([{ type: 'value_error', loc, msg: 'Value error, not one of the cedente\'s accounts', input: given }])
    const a = confirmedAccount(accounts, match!)
    return { banco: a.banco, agencia: a.agencia, conta: a.conta, digito: a.digito }
  }
  if (accounts.length !== 1) {
    const msg = accounts.length ? 'Value error, the cedente has several accounts: name one'
      : 'Value error, the cedente has no bank account: add one to the cedente first'
    fail([{ type: 'missing', loc, msg, input: null }])
  }
  const a = confirmedAccount(accounts, accounts[0]!)
  return { banco: a.banco, agencia: a.agencia, conta: a.conta, digito: a.digito }
}

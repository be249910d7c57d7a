// /api/operacoes/{id}/desembolso and /api/desembolsos (produto.md §2.5, §1 "Two people for money out"): a person
// asks for the payment (scope operacoes), another approves it (aprovacao), and the transfer made or failed is
// recorded (financeiro). Money steps require Idempotency-Key; each locks its rows and checks the state it leaves.
import type { FastifyInstance, FastifyRequest, RouteGenericInterface } from 'fastify'
import { and, desc, eq, lt, type SQL } from 'drizzle-orm'
import type { Clock } from '../../platform/lib/clock.ts'
import type { Database, Orm } from '../../platform/db/database.ts'
import { pageFrom, pageOf } from '../../platform/http/api-schemas.ts'
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
import { contasOf, getParty, type StoredConta } from '../origination/index.ts'
import { fail } from './checks.ts'
import { OPERATION_ROUTES } from './definitions.ts'
import {
  approvePayment, confirmedAccount, lockPayment, sameAccount, recordFailure, recordTransfer, requestPayment, type Account, type Requester,
} from './flow/payment.ts'
import type { DesembolsoInT } from './schemas.ts'
import { lockOperation, quoteOf, type Operation, type Payment } from './store.ts'
import { desembolsos, type EstadoDesembolso } from './tables.ts'
import { paymentView } from './views.ts'

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
        return { answer: jsonAnswer(201, paymentView(made, cedente.contas)), audit: { acao: 'desembolso.solicitado', alvoId: made.id } }
      },
    })

    /** A step of one payment: not found unless the customer's, locked with its operation, answered whole. */
    function onPayment<RG extends { Params: { id: string }, Body?: unknown } & RouteGenericInterface>(
      route: typeof R.aprovacao | typeof R.pagamento | typeof R.falha, acao: AuditAction, required: boolean,
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
          const contas = (await contasOf(tx, done.clienteId, [done.cedenteId])).get(done.cedenteId) ?? []
          return { answer: jsonAnswer(200, paymentView(done, contas)), audit: { acao, alvoId: id } }
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

    const read = { rateLimit: limit, credencial: { escopo: 'operacoes' } }
    app.get(R.desembolsos.url, { config: read, schema: R.desembolsos.schema }, async (request) => {
      const q = (request as FastifyRequest<{ Querystring: { limite?: string, antes?: string, estado?: EstadoDesembolso } }>).query
      const page = pageOf(q)
      const where: SQL[] = []
      if (page.before !== undefined) where.push(lt(desembolsos.seq, page.before))
      if (q.estado) where.push(eq(desembolsos.estado, q.estado))
      const clienteId = request.credential!.clienteId
      const { found, contas } = await withTenant(db, clienteId, async (tx) => {
        const rows = pageFrom(await tx.select().from(desembolsos).where(and(...where)).orderBy(desc(desembolsos.seq)).limit(page.limit + 1), page.limit)
        return { found: rows, contas: await contasOf(tx, clienteId, [...new Set(rows.items.map((p) => p.cedenteId))]) }
      })
      return { itens: found.items.map((p) => paymentView(p, contas.get(p.cedenteId) ?? [])), proximo: found.next }
    })

    app.get(R.lerDesembolso.url, { config: read, schema: R.lerDesembolso.schema }, async (request) => {
      const id = (request as FastifyRequest<{ Params: { id: string } }>).params.id
      const clienteId = request.credential!.clienteId
      const got = isUuid(id) ? await withTenant(db, clienteId, async (tx) => {
        const [row] = await tx.select().from(desembolsos).where(eq(desembolsos.id, id))
        return row && { row, contas: (await contasOf(tx, clienteId, [row.cedenteId])).get(row.cedenteId) ?? [] }
      }) : undefined
      if (!got) throw NOT_FOUND
      return paymentView(got.row, got.contas)
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

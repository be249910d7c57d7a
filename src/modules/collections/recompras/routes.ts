// /api/recompras (issue 33): the cedente buys back títulos it sold. The títulos are locked (in a fixed order), each
// must be acquired with an open balance, all of one cedente; a buy-back for the sacado's default needs every título's
// product to carry the cedente's coobrigação and the título to be past its business-day due date. What is owed is
// each título's open balance with the juros and multa its live charge's terms give for today (collections/encargos.ts),
// posted at once: the cedente's conta gráfica debited (it owes it), the receivables and the late charges' income
// credited, and the deságio the títulos had not earned recognised. The cedente then pays it (…/pagamento), or its next
// operation compensates it. A live charge of a título bought back stays at the bank until it is written off there: a
// payment that still comes waits in `valores_a_identificar` (retornos/apply.ts).
import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'drizzle-orm'
import type { Database, Orm } from '../../../platform/db/database.ts'
import { queryRows } from '../../../platform/db/database.ts'
import { pageFrom, pageOf } from '../../../platform/http/api-schemas.ts'
import { problem } from '../../../platform/http/problem.ts'
import type { Budget } from '../../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../../platform/http/rate-limit.ts'
import { RequestValidationError, type ValidationItem } from '../../../platform/http/validation-errors.ts'
import { jsonAnswer, problemAnswer } from '../../../platform/idempotency/http.ts'
import { mutationRoute } from '../../../platform/idempotency/mutation-route.ts'
import type { Idempotency } from '../../../platform/idempotency/run.ts'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import type { Clock } from '../../../platform/lib/clock.ts'
import { isUuid } from '../../../platform/lib/uuid.ts'
import type { ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { addDays, nextBusinessDay, ownHolidays, type HolidaySet } from '../../calendar/index.ts'
import { byCredential } from '../../credentials/index.ts'
import { listEntries, postEntry, reversed } from '../../ledger/index.ts'
import { TitleNotAcquiredError } from '../charges/errors.ts'
import { encargosDevidos, type Juros } from '../encargos.ts'
import { feriadosDoLugar } from '../feriados.ts'
import { RECOMPRA_ROUTES, type RecompraInT } from './definitions.ts'
import { BuyBackStateError, BuyBackTransactionInUseError, BuyBackWithoutRecourseError } from './errors.ts'
import { cancelRecompra, getRecompra, insertRecompra, listRecompras, lockTitulos, setPaid, type TituloARecomprar } from './store.ts'
import { recompraView } from './views.ts'

export type RecompraRoutesDeps = { db: Database, clock: Clock, idempotency: Idempotency, dbTimeoutMs: number, budget: Budget }

const NOT_FOUND = problem('nao_encontrado')
/** The transaction in single queries: the key, the títulos locked, the entry, the títulos, the rows, the audit, the answer. */
const TIMEOUT_FACTOR = 14

const item = (loc: string[], msg: string, input: unknown): ValidationItem => ({ type: 'value_error', loc: ['body', ...loc], msg: `Value error, ${msg}`, input })

/** What a título owes today beyond its balance, by its live charge's terms (none without a charge, or before its due date). */
function lateCharges(t: TituloARecomprar, hoje: string, feriados: HolidaySet): { juros: bigint, multa: bigint } {
  if (!t.juros) return { juros: 0n, multa: 0n }
  const juros: Juros = t.juros.tipo === 'valor_dia' && t.juros.valorCentavos ? { tipo: 'valor_dia', centavos: t.juros.valorCentavos }
    : t.juros.tipo === 'taxa_mensal' && t.juros.taxaMensal ? { tipo: 'taxa_mensal', taxa: t.juros.taxaMensal } : { tipo: 'isento' }
  const e = encargosDevidos({
    vencimento: t.vencimento, pagoEm: hoje, valorCentavos: t.saldo, ...(t.multa ? { multa: t.multa } : {}), juros,
    consumidor: t.sacadoDocumento.length === 11, feriados,
  })
  return { juros: e.jurosCentavos, multa: e.multaCentavos }
}

/**
 * A título bought back is no longer the customer's to collect: a charge the bank never saw (waiting, in no remessa) is
 * written off here; one the bank holds gets a baixa instruction, sent by the charge's account's transport.
 */
async function writeOffCharges(tx: Orm, tituloIds: string[], now: Date): Promise<void> {
  const ids = sql.param(tituloIds)
  await tx.execute(sql`UPDATE cobrancas c SET estado = 'baixada', atualizado_em = ${now.toISOString()}::timestamptz
    WHERE c.titulo_id = ANY(${ids}::uuid[]) AND c.estado = 'a_registrar'
      AND NOT EXISTS (SELECT 1 FROM remessa_itens r WHERE r.cliente_id = c.cliente_id AND r.cobranca_id = c.id)`)
  await tx.execute(sql`INSERT INTO cobranca_instrucoes (cliente_id, cobranca_id, instrucao, transporte, estado, criado_em, atualizado_em)
    SELECT c.cliente_id, c.id, 'baixa', k.transporte, 'pendente', ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      FROM cobrancas c JOIN contas_cobranca k ON k.cliente_id = c.cliente_id AND k.id = c.conta_cobranca_id
     WHERE c.titulo_id = ANY(${ids}::uuid[]) AND c.estado IN ('a_registrar', 'registrada')
       AND NOT EXISTS (SELECT 1 FROM cobranca_instrucoes i WHERE i.cliente_id = c.cliente_id AND i.cobranca_id = c.id AND i.instrucao = 'baixa'
         AND i.estado IN ('pendente', 'enviada', 'confirmada'))`)
}

export function recompraRoutes(deps: RecompraRoutesDeps) {
  const { db, clock } = deps
  const mutation = { idempotency: deps.idempotency, clock, dbTimeoutMs: deps.dbTimeoutMs }
  const { criar, listar, ler, pagamento, cancelamento } = RECOMPRA_ROUTES
  const config = { rateLimit: rateLimitFor(deps.budget), credencial: { escopo: criar.escopo } }

  return async function (app: FastifyInstance) {
    mutationRoute<{ Body: RecompraInT }, ActionContext>(app, mutation, {
      method: criar.method, url: criar.url, idempotency: 'required', config, schema: criar.schema, caller: byCredential, timeoutFactor: TIMEOUT_FACTOR,
      work: async ({ tx, req, action }) => {
        const b = req.body
        const list = await lockTitulos(tx, b.titulo_ids)
        if (list.length !== b.titulo_ids.length) return { answer: problemAnswer(NOT_FOUND) }
        for (const t of list) if (t.estado !== 'adquirido' || t.saldo <= 0n) throw new TitleNotAcquiredError(t.estado)
        const hoje = brasiliaDay(action.now)
        const earliest = list.reduce((d, t) => (t.vencimento < d ? t.vencimento : d), hoje)
        const own = await ownHolidays(tx, { de: earliest, ate: addDays(list.reduce((d, t) => (t.vencimento > d ? t.vencimento : d), hoje), 40) })
        // The customer's own holidays at each sacado's place (the business-day functions know the national ones).
        const feriados = new Map(list.map((t) => [t.id, feriadosDoLugar(own, t.sacadoLugar)]))
        const items: ValidationItem[] = []
        if (new Set(list.map((t) => t.cedenteId)).size > 1) {
          items.push(item(['titulo_ids'], 'os títulos são de mais de um cedente: uma recompra é de um cedente', b.titulo_ids))
        }
        if (b.motivo === 'inadimplencia') {
          const without = list.filter((t) => !t.coobrigacao).map((t) => t.id)
          if (without.length) throw new BuyBackWithoutRecourseError(without)
          for (const t of list) {
            const util = nextBusinessDay(t.vencimento, feriados.get(t.id))
            if (util >= hoje) items.push(item(['titulo_ids'], `o título ${t.numero} ainda não está em atraso (vence, em dia útil, em ${util})`, t.id))
          }
        }
        if (items.length) throw new RequestValidationError(items)

        const parts = list.map((t) => ({ t, ...lateCharges(t, hoje, feriados.get(t.id)!) }))
        const principal = parts.reduce((s, p) => s + p.t.saldo, 0n)
        const encargos = parts.reduce((s, p) => s + p.juros + p.multa, 0n)
        const desagio = parts.reduce((s, p) => s + p.t.desagioPendente, 0n)
        const cedenteId = list[0]!.cedenteId
        const recompraId = randomUUID()
        const lancamentoId = await postEntry(tx, {
          clienteId: req.credential!.clienteId, data: hoje, historico: `Recompra de ${list.length} título(s) pelo cedente: ${b.descricao}`.slice(0, 300),
          origem: { tipo: 'recompra', id: recompraId }, requestId: action.requestId ?? null,
          linhas: [
            { conta: 'conta_grafica_cedentes', cedenteId, debito: principal + encargos },
            { conta: 'direitos_creditorios', credito: principal },
            { conta: 'receita_juros_multa', credito: encargos },
            { conta: 'desagio_a_apropriar', debito: desagio },
            { conta: 'receita_desagio', credito: desagio },
          ],
        }, action.now)
        await tx.execute(sql`UPDATE titulos SET estado = 'recomprado', saldo_centavos = 0,
            desagio_apropriado_centavos = coalesce(desagio_centavos, 0), atualizado_em = ${action.now.toISOString()}::timestamptz
          WHERE id = ANY(${sql.param(list.map((t) => t.id))}::uuid[])`)
        await writeOffCharges(tx, list.map((t) => t.id), action.now)
        const id = await insertRecompra(tx, {
          clienteId: req.credential!.clienteId, cedenteId, motivo: b.motivo, descricao: b.descricao, forma: b.forma,
          coobrigacao: list.every((t) => t.coobrigacao), data: hoje, principal, encargos, lancamentoId,
          titulos: parts.map((p) => ({ id: p.t.id, saldo: p.t.saldo, juros: p.juros, multa: p.multa, desagio: p.t.desagioPendente })),
        }, action.now, recompraId)
        const made = (await getRecompra(tx, id))!
        return { answer: jsonAnswer(201, recompraView(made)), audit: { acao: 'recompra.criada', alvoId: id } }
      },
    })

    mutationRoute<{ Params: { id: string }, Body: { id_transacao: string, pago_em: string } }, ActionContext>(app, mutation, {
      method: pagamento.method, url: pagamento.url, idempotency: 'required', config, schema: pagamento.schema, caller: byCredential,
      timeoutFactor: TIMEOUT_FACTOR,
      work: async ({ tx, req, action }) => {
        const r = isUuid(req.params.id) ? await getRecompra(tx, req.params.id, true) : undefined
        if (!r) return { answer: problemAnswer(NOT_FOUND) }
        if (r.estado !== 'aberta' || r.forma !== 'pagamento') throw new BuyBackStateError(r.estado === 'aberta' ? 'a_compensar' : r.estado)
        const pagoEm = new Date(req.body.pago_em)
        const dia = brasiliaDay(pagoEm)
        if (dia < r.data) throw new RequestValidationError([item(['pago_em'], `o pagamento é do dia da recompra (${r.data}) ou depois`, req.body.pago_em)])
        if (pagoEm > action.now) throw new RequestValidationError([item(['pago_em'], 'o pagamento não pode estar no futuro', req.body.pago_em)])
        const [held] = await queryRows<{ id: string }>(tx, sql`SELECT id FROM recompras WHERE id_transacao = ${req.body.id_transacao}`)
        if (held) throw new BuyBackTransactionInUseError(held.id)
        const lancamentoId = await postEntry(tx, {
          clienteId: req.credential!.clienteId, data: dia, historico: `Pagamento da recompra pelo cedente (${req.body.id_transacao})`,
          origem: { tipo: 'recompra', id: r.id }, requestId: action.requestId ?? null,
          linhas: [
            { conta: 'banco', debito: BigInt(r.valorCentavos) }, { conta: 'conta_grafica_cedentes', cedenteId: r.cedenteId, credito: BigInt(r.valorCentavos) },
          ],
        }, action.now)
        await setPaid(tx, r.id, { idTransacao: req.body.id_transacao, pagoEm: pagoEm.toISOString(), lancamentoId }, action.now)
        return { answer: jsonAnswer(200, recompraView((await getRecompra(tx, r.id))!)), audit: { acao: 'recompra.paga', alvoId: r.id } }
      },
    })

    mutationRoute<{ Params: { id: string }, Body: { motivo: string } }, ActionContext>(app, mutation, {
      method: cancelamento.method, url: cancelamento.url, idempotency: 'required', config, schema: cancelamento.schema, caller: byCredential,
      timeoutFactor: TIMEOUT_FACTOR,
      work: async ({ tx, req, action }) => {
        const r = isUuid(req.params.id) ? await getRecompra(tx, req.params.id, true) : undefined
        if (!r) return { answer: problemAnswer(NOT_FOUND) }
        // Open only: a payment or a compensation moved money after it, which a cancellation would have to undo too.
        if (r.estado !== 'aberta') throw new BuyBackStateError(r.estado)
        const titulos = await lockTitulos(tx, r.titulos.map((t) => t.tituloId))
        const moved = titulos.find((t) => t.estado !== 'recomprado')
        if (moved) throw new BuyBackStateError(`com o título ${moved.numero} ${moved.estado}`)
        // The buy-back's own entry, reversed line by line (an open buy-back has no other: its payment would be the second).
        const { items } = await listEntries(tx, { origemId: r.id }, { limit: 10 })
        const entry = items.find((e) => e.id === r.lancamentoId)!
        const lancamentoId = await postEntry(tx, {
          clienteId: req.credential!.clienteId, data: brasiliaDay(action.now),
          historico: `Cancelamento da recompra de ${r.titulos.length} título(s): ${req.body.motivo}`.slice(0, 300),
          origem: { tipo: 'recompra', id: r.id }, requestId: action.requestId ?? null, linhas: reversed(entry.linhas),
        }, action.now)
        await cancelRecompra(tx, r, { motivo: req.body.motivo.trim(), lancamentoId }, action.now)
        return { answer: jsonAnswer(200, recompraView((await getRecompra(tx, r.id))!)), audit: { acao: 'recompra.cancelada', alvoId: r.id } }
      },
    })

    app.get(listar.url, { config, schema: listar.schema }, async (request) => {
      const q = (request as FastifyRequest<{ Querystring: { limite?: string, antes?: string, cedente_id?: string, estado?: string } }>).query
      const page = pageOf(q)
      const rows = await withTenant(db, request.credential!.clienteId, (tx) => listRecompras(tx, {
        ...(q.cedente_id ? { cedenteId: q.cedente_id } : {}), ...(q.estado ? { estado: q.estado } : {}),
      }, page))
      const found = pageFrom(rows, page.limit)
      return { itens: found.items.map(recompraView), proximo: found.next }
    })

    app.get(ler.url, { config, schema: ler.schema }, async (request) => {
      const id = (request as FastifyRequest<{ Params: { id: string } }>).params.id
      const found = isUuid(id) ? await withTenant(db, request.credential!.clienteId, (tx) => getRecompra(tx, id)) : undefined
      if (!found) throw NOT_FOUND
      return recompraView(found)
    })
  }
}

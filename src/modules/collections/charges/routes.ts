// /api/cobrancas (issue 33): an acquired título charged by boleto under a confirmed collection account, for its open
// balance and due date; listed, read, and printed (HTML or PDF). The creation is [$] (Idempotency-Key required),
// atomic with its audit row; the título and the account are read locked, so a second charge of the título, a
// cancellation or a change of the account waits for it. The nosso número is the account's sequence unless the
// customer gives its own; the barcode and the linha digitável are the bank's campo livre's (boleto/bancos.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Decimal } from 'decimal.js'
import type { Database } from '../../../platform/db/database.ts'
import { pageOf } from '../../../platform/http/api-schemas.ts'
import { csvFilename, sendCsv, wantsCsv } from '../../../platform/http/csv-answer.ts'
import { problem } from '../../../platform/http/problem.ts'
import type { Budget } from '../../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../../platform/http/rate-limit.ts'
import { securityHeaders } from '../../../platform/http/security-headers.ts'
import { RequestValidationError, type ValidationItem } from '../../../platform/http/validation-errors.ts'
import { jsonAnswer, problemAnswer } from '../../../platform/idempotency/http.ts'
import { mutationRoute } from '../../../platform/idempotency/mutation-route.ts'
import type { Idempotency } from '../../../platform/idempotency/run.ts'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import type { Clock } from '../../../platform/lib/clock.ts'
import type { Html } from '../../../platform/lib/html.ts'
import { isUuid } from '../../../platform/lib/uuid.ts'
import type { ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { dayNumber } from '../../calendar/index.ts'
import { byCredential } from '../../credentials/index.ts'
import { getAccount, type CollectionAccount } from '../accounts/store.ts'
import { REGRAS } from '../boleto/bancos.ts'
import { codigoDeBarras, linhaDigitavel, VALOR_MAXIMO_CENTAVOS } from '../boleto/codigo-barras.ts'
import { boletoHtml } from '../boleto/html.ts'
import { boletoPdf } from '../boleto/pdf.ts'
import { CHARGE_ROUTES, type CobrancaInT } from './definitions.ts'
import { AccountInactiveError, AccountUnconfirmedError, NossoNumeroInUseError, TitleChargedError, TitleNotAcquiredError } from './errors.ts'
import { chargesCsv } from './exports.ts'
import { dadosDoBoleto } from './ficha-data.ts'
import {
  boletoRows, createCharge, getCharge, holderOf, listCharges, liveChargeOf, lockTitle, takeNossoNumero, type NewCharge, type TitleToCharge,
} from './store.ts'
import type { EstadoCobranca } from './tables.ts'
import { chargeView, listedChargeView } from './views.ts'

export type ChargeRoutesDeps = { db: Database, clock: Clock, idempotency: Idempotency, dbTimeoutMs: number, budget: Budget, production: boolean }

const NOT_FOUND = problem('nao_encontrado')
/** The transaction in single queries (DB_TIMEOUT_MS): the key, the título and the account locked, the sequence, the insert, the audit, the answer. */
const TIMEOUT_FACTOR = 12

/** The most a fine may be (CDC art. 52 §1º for a person, whose document is a CPF; Decreto 22.626/1933 art. 9 otherwise). */
export const MULTA_MAXIMA = { pessoa: '0.02', empresa: '0.1' } as const

type ListQuery = { limite?: string, antes?: string, estado?: EstadoCobranca, conta_cobranca_id?: string, titulo_id?: string, busca?: string }

export function chargeRoutes(deps: ChargeRoutesDeps) {
  const { db, clock } = deps
  const limit = rateLimitFor(deps.budget)
  const mutation = { idempotency: deps.idempotency, clock, dbTimeoutMs: deps.dbTimeoutMs }
  const { criar, listar, ler, boleto } = CHARGE_ROUTES
  const config = { rateLimit: limit, credencial: { escopo: criar.escopo } }

  return async function (app: FastifyInstance) {
    mutationRoute<{ Body: CobrancaInT }, ActionContext>(app, mutation, {
      method: criar.method, url: criar.url, idempotency: 'required', config, schema: criar.schema, caller: byCredential, timeoutFactor: TIMEOUT_FACTOR,
      work: async ({ tx, req, action }) => {
        const b = req.body
        // The título first, then the account: one order for every charge, so two never wait for each other.
        const titulo = await lockTitle(tx, b.titulo_id)
        const conta = titulo && await getAccount(tx, b.conta_cobranca_id, true)
        if (!titulo || !conta) return { answer: problemAnswer(NOT_FOUND) }
        if (titulo.estado !== 'adquirido' || titulo.saldoCentavos <= 0) throw new TitleNotAcquiredError(titulo.estado)
        if (!conta.ativa) throw new AccountInactiveError()
        if (conta.confirmadaEm === null) throw new AccountUnconfirmedError()
        const items = termItems(b, titulo, conta)
        if (items.length) throw new RequestValidationError(items)
        // Seen here before a number is taken; the partial unique index refuses it all the same for a charge made meanwhile.
        const live = await liveChargeOf(tx, titulo.id)
        if (live) throw new TitleChargedError(live)

        let nossoNumero: string
        if (b.nosso_numero !== undefined) {
          nossoNumero = BigInt(b.nosso_numero).toString()
          const held = await holderOf(tx, conta.id, nossoNumero)
          if (held) throw new NossoNumeroInUseError(held)
        } else {
          nossoNumero = await takeNossoNumero(tx, conta.id, conta.proximoNossoNumero, 10 ** REGRAS[conta.banco].digitosDoNossoNumero - 1)
        }
        const regras = REGRAS[conta.banco]
        const beneficiario = {
          agencia: conta.agencia, conta: conta.conta, contaDigito: conta.contaDigito, carteira: conta.carteira,
          ...(conta.convenio ? { convenio: conta.convenio } : {}),
        }
        const barras = codigoDeBarras({
          banco: conta.banco, vencimento: titulo.vencimento, valorCentavos: titulo.saldoCentavos, campoLivre: regras.campoLivre(beneficiario, nossoNumero),
        })
        const juros = b.juros ?? { tipo: 'isento' as const }
        const charge: NewCharge = {
          clienteId: req.credential!.clienteId, tituloId: titulo.id, contaCobrancaId: conta.id, nossoNumero,
          nossoNumeroImpresso: regras.nossoNumero(beneficiario, nossoNumero).impresso, codigoBarras: barras, linhaDigitavel: linhaDigitavel(barras),
          valorCentavos: titulo.saldoCentavos, vencimento: titulo.vencimento, jurosTipo: juros.tipo,
          jurosValorCentavos: juros.tipo === 'valor_dia' ? juros.valor_centavos : null, jurosTaxaMensal: juros.tipo === 'taxa_mensal' ? juros.taxa : null,
          multaPercentual: b.multa_percentual ?? '0', descontoValorCentavos: b.desconto?.valor_centavos ?? 0, descontoAte: b.desconto?.ate ?? null,
          protestoDias: b.protesto_dias ?? 0, criadoEm: action.now, atualizadoEm: action.now,
        }
        const made = await createCharge(tx, charge)
        return { answer: jsonAnswer(201, chargeView({ ...made, banco: conta.banco })), audit: { acao: 'cobranca.criada', alvoId: made.id } }
      },
    })

    app.get(listar.url, { config, schema: listar.schema }, async (request, reply) => {
      const q = (request as FastifyRequest<{ Querystring: ListQuery }>).query
      const filter = {
        ...(q.estado ? { estado: q.estado } : {}), ...(q.conta_cobranca_id ? { contaCobrancaId: q.conta_cobranca_id } : {}),
        ...(q.titulo_id ? { tituloId: q.titulo_id } : {}), ...(q.busca !== undefined ? { busca: q.busca.trim() } : {}),
      }
      const clienteId = request.credential!.clienteId
      if (wantsCsv(request)) return sendCsv(reply, chargesCsv(db, clienteId, filter, csvFilename('cobrancas', brasiliaDay(clock.now()))), clienteId)
      const found = await withTenant(db, clienteId, (tx) => listCharges(tx, filter, pageOf(q)))
      return { itens: found.items.map(listedChargeView), proximo: found.next }
    })

    app.get(ler.url, { config, schema: ler.schema }, async (request) => {
      const id = (request as FastifyRequest<{ Params: { id: string } }>).params.id
      const found = isUuid(id) ? await withTenant(db, request.credential!.clienteId, (tx) => getCharge(tx, id)) : undefined
      if (!found) throw NOT_FOUND
      return chargeView(found)
    })

    app.get(boleto.url, { config, schema: boleto.schema }, async (request, reply) => {
      const { params: { id }, query } = request as FastifyRequest<{ Params: { id: string }, Querystring: { formato?: 'pdf' | 'html' } }>
      // A link cannot set Accept: `formato` chooses too.
      const form = query.formato ?? (/application\/pdf/i.test(request.headers.accept ?? '') ? 'pdf' : 'html')
      const rows = isUuid(id) ? await withTenant(db, request.credential!.clienteId, (tx) => boletoRows(tx, id)) : undefined
      if (!rows) throw NOT_FOUND
      // Drawn after the transaction: the drawing holds no connection.
      const dados = dadosDoBoleto(rows, !deps.production)
      reply.headers(securityHeaders(deps.production)).header('vary', 'Accept')
      if (form === 'pdf') {
        const pdf = await boletoPdf(dados, clock.now())
        return reply.type('application/pdf').header('content-disposition', `inline; filename="boleto-cobranca-${rows.c.numero}.pdf"`).send(pdf)
      }
      const body: Html = await boletoHtml(dados)
      const title = `Boleto da cobrança nº ${rows.c.numero}`
      const page = app.hasDecorator('siteLayout')
        ? app.siteLayout({ title, description: 'Boleto de cobrança', body, path: request.url.split('?')[0]!, private: true })
        : `<!doctype html><html lang="pt-BR"><meta charset="utf-8"><title>${title}</title>${body.toString()}</html>`
      return reply.type('text/html; charset=utf-8').send(page)
    })
  }
}

const isCalendarDay = (d: string) => dayNumber(d) !== undefined

/**
 * What the body asks that the título, its sacado and the account do not allow, each a 422 item at its field: a
 * nosso número the bank's sequence cannot hold, a fine above what the sacado may be charged, a monthly rate of 0, a
 * discount not below the value or after the due date.
 */
function termItems(b: CobrancaInT, titulo: TitleToCharge, conta: CollectionAccount): ValidationItem[] {
  const items: ValidationItem[] = []
  // A barcode carries ten digits of centavos: a título's balance may be more than a boleto can say.
  if (titulo.saldoCentavos > VALOR_MAXIMO_CENTAVOS) {
    items.push({
      type: 'value_error', loc: ['body', 'titulo_id'], input: b.titulo_id, ctx: { maximo_centavos: VALOR_MAXIMO_CENTAVOS },
      msg: 'Value error, o saldo do título passa de R$ 99.999.999,99, o maior valor que um boleto carrega',
    })
  }
  if (b.nosso_numero !== undefined) {
    const regras = REGRAS[conta.banco]
    const n = BigInt(b.nosso_numero)
    const max = 10n ** BigInt(regras.digitosDoNossoNumero) - 1n
    if (n < 1n || n > max) {
      items.push({
        type: 'value_error', loc: ['body', 'nosso_numero'], input: b.nosso_numero, ctx: { digitos: regras.digitosDoNossoNumero },
        msg: `Value error, o nosso número do ${regras.nome} tem de 1 a ${regras.digitosDoNossoNumero} dígitos de sequência, e não é zero`,
      })
    }
  }
  if (b.multa_percentual !== undefined) {
    const pessoa = titulo.sacadoDocumento.length === 11
    const max = pessoa ? MULTA_MAXIMA.pessoa : MULTA_MAXIMA.empresa
    if (new Decimal(b.multa_percentual).greaterThan(max)) {
      items.push({
        type: 'less_than_equal', loc: ['body', 'multa_percentual'], input: b.multa_percentual, ctx: { le: max },
        msg: pessoa
          ? `Value error, a multa de um sacado pessoa física (CPF) é de no máximo ${max} (2 %): CDC, art. 52, § 1º`
          : `Value error, a multa é de no máximo ${max} (10 % da dívida): Decreto 22.626/1933, art. 9º`,
      })
    }
  }
  if (b.juros?.tipo === 'taxa_mensal' && new Decimal(b.juros.taxa).isZero()) {
    items.push({ type: 'greater_than', loc: ['body', 'juros', 'taxa'], input: b.juros.taxa, ctx: { gt: 0 },
      msg: 'Input should be greater than 0 (sem juros: tipo isento)' })
  }
  if (b.desconto !== undefined) {
    if (b.desconto.valor_centavos >= titulo.saldoCentavos) {
      items.push({ type: 'less_than', loc: ['body', 'desconto', 'valor_centavos'], input: b.desconto.valor_centavos, ctx: { lt: titulo.saldoCentavos },
        msg: `Input should be less than ${titulo.saldoCentavos} (o valor cobrado)` })
    }
    if (!isCalendarDay(b.desconto.ate)) {
      items.push({ type: 'date_parsing', loc: ['body', 'desconto', 'ate'], input: b.desconto.ate,
        msg: 'Input should be a valid date in the format YYYY-MM-DD' })
    } else if (b.desconto.ate > titulo.vencimento) {
      items.push({ type: 'value_error', loc: ['body', 'desconto', 'ate'], input: b.desconto.ate, ctx: { vencimento: titulo.vencimento },
        msg: 'Value error, o desconto vale até o vencimento, no máximo' })
    }
  }
  return items
}

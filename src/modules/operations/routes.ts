// /api/operacoes and /api/titulos (produto.md §2.5): a borderô drafted, quoted, accepted, formalized and sent for
// payment, or cancelled. Every change is a mutationRoute (atomic with its audit row and its stored answer); every
// transition locks the operation's row first and checks the state it leaves (409 estado_invalido otherwise).
import type { FastifyInstance, FastifyRequest, RouteGenericInterface } from 'fastify'
import { inArray } from 'drizzle-orm'
import type { Clock } from '../../platform/lib/clock.ts'
import type { Database, Orm } from '../../platform/db/database.ts'
import { csvFilename, sendCsv, wantsCsv } from '../../platform/http/csv-answer.ts'
import { checkPeriods, listBody, listPageOf, orderAsked, searchOf, type ListParams } from '../../platform/http/list-query.ts'
import { problem } from '../../platform/http/problem.ts'
import type { Budget } from '../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../platform/http/rate-limit.ts'
import { securityHeaders } from '../../platform/http/security-headers.ts'
import type { ValidationItem } from '../../platform/http/validation-errors.ts'
import { JsonText, jsonAnswer, problemAnswer } from '../../platform/idempotency/http.ts'
import { mutationRoute, type Mutation } from '../../platform/idempotency/mutation-route.ts'
import type { Idempotency } from '../../platform/idempotency/run.ts'
import { brasiliaDay } from '../../platform/lib/brasilia-time.ts'
import { isUuid } from '../../platform/lib/uuid.ts'
import type { ActionContext, AuditAction } from '../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { byCredential } from '../credentials/index.ts'
import { getParty, parseDocumento, sacados } from '../origination/index.ts'
import { getProduct } from '../pricing/index.ts'
import { checkDataOperacao, checkTitles, fail } from './checks.ts'
import { InvalidStateError, TitleWithChecksError, TooManyTitlesError } from './errors.ts'
import { OPERATION_ROUTES } from './definitions.ts'
import { acceptQuote } from './flow/accept.ts'
import { cancelOperation } from './flow/cancel.ts'
import { formalize } from './flow/formalize.ts'
import { quoteOperation } from './flow/quote.ts'
import { refuseBlocked } from './flow/registers.ts'
import { termInfo, type TermInfo } from './termo-store.ts'
import { borderoHtml, borderoMarkdown } from './bordero.ts'
import { borderoHead, borderoRows } from './bordero-data.ts'
import { borderoPdf } from './bordero-pdf.ts'
import type { Html } from '../../platform/lib/html.ts'
import { FIRST_PAGE, titlesPageOf, type FormalizacaoInT, type OperacaoInT, type TituloInT } from './schemas.ts'
import {
  addTitles, createOperation, hasChecks, readOperation, getTitle, lockOperation, numbersOf, removeTitle, titleTotals, titlesOf,
  type Operation, type OperationPage,
} from './store.ts'
import { operationListView, operationView, quoteViewJson, titleView } from './views.ts'
import { operationsCsv, titlesCsv } from './exports.ts'
import { operationList, operationSort, titleList, titleSort, type OperationListFilter, type TitleListFilter } from './lists.ts'
import { type EstadoOperacao } from './tables.ts'

export type OperationRoutesDeps = {
  db: Database, clock: Clock, idempotency: Idempotency, dbTimeoutMs: number, budget: Budget, production: boolean, maxTitulos: number
}

const NOT_FOUND = problem('nao_encontrado')
/** A borderô of up to a thousand títulos in one body. */
export const BORDERO_BODY_LIMIT = 1024 * 1024
/** A change's transaction in single queries (DB_TIMEOUT_MS): the key, the rows read and locked, the writes, the audit row, the answer. */
const TIMEOUT_FACTOR = 16

type Work<RG extends RouteGenericInterface> = (m: { tx: Orm, req: FastifyRequest<RG>, action: ActionContext,
  op: Operation }) => Promise<{ status: number, body: unknown, acao: AuditAction }>

export function operationRoutes(deps: OperationRoutesDeps) {
  const { db, clock } = deps
  const config = { rateLimit: rateLimitFor(deps.budget), credencial: { escopo: 'operacoes' } }
  const mutation = { idempotency: deps.idempotency, clock, dbTimeoutMs: deps.dbTimeoutMs }
  const R = OPERATION_ROUTES

  return async function (app: FastifyInstance) {
    /** A change of one operation: not found unless the customer's, locked for the work, answered whole. */
    function onOperation<RG extends { Params: { id: string }, Body?: unknown } & RouteGenericInterface>(
      route: (typeof R)[keyof typeof R], work: Work<RG>, opts: { required?: boolean, bodyLimit?: number } = {},
    ): void {
      mutationRoute<RG, ActionContext>(app, mutation, {
        method: route.method as 'POST' | 'DELETE', url: route.url, idempotency: opts.required ? 'required' : 'accepted', config, schema: route.schema,
        caller: byCredential, timeoutFactor: TIMEOUT_FACTOR, ...(opts.bodyLimit ? { bodyLimit: opts.bodyLimit } : {}),
        work: async ({ tx, req, action }): Promise<Mutation> => {
          const id = (req.params as { id: string }).id
          const op = isUuid(id) ? await lockOperation(tx, id) : undefined
          if (!op) return { answer: problemAnswer(NOT_FOUND) }
          const done = await work({ tx, req, action, op })
          return { answer: jsonAnswer(done.status, done.body), audit: { acao: done.acao, alvoId: op.id } }
        },
      })
    }
    const fresh = async (tx: Orm, id: string) => operationView((await readOperation(tx, id, FIRST_PAGE))!)

    mutationRoute<{ Body: OperacaoInT }, ActionContext>(app, mutation, {
      method: R.criar.method, url: R.criar.url, idempotency: 'accepted', config, schema: R.criar.schema, caller: byCredential,
      timeoutFactor: TIMEOUT_FACTOR, bodyLimit: BORDERO_BODY_LIMIT,
      work: async ({ tx, req, action }) => {
        const made = await draftOperation(tx, req.credential!.clienteId, req.body, action.now, deps.maxTitulos)
        return { answer: jsonAnswer(201, operationView(made)), audit: { acao: 'operacao.criada', alvoId: made.id } }
      },
    })

    app.get(R.listar.url, { config, schema: R.listar.schema }, async (request, reply) => {
      type Q = ListParams & { cedente_id?: string, estado?: EstadoOperacao, id_externo?: string, data_operacao_de?: string, data_operacao_ate?: string }
      const q = (request as FastifyRequest<{ Querystring: Q }>).query
      checkPeriods(q, [['data_operacao_de', 'data_operacao_ate']])
      const page = listPageOf(q)
      const busca = searchOf(q)
      const filter: OperationListFilter = {
        ...(q.cedente_id ? { cedenteId: q.cedente_id } : {}), ...(q.estado ? { estado: q.estado } : {}), ...(q.id_externo ? { idExterno: q.id_externo } : {}),
        ...(busca ? { busca } : {}), ...(q.data_operacao_de ? { de: q.data_operacao_de } : {}), ...(q.data_operacao_ate ? { ate: q.data_operacao_ate } : {}),
      }
      const sort = operationSort(orderAsked(q))
      const clienteId = request.credential!.clienteId
      if (wantsCsv(request)) {
        return sendCsv(reply, operationsCsv({ db, clienteId, sort }, filter, csvFilename('operacoes', brasiliaDay(clock.now()))), clienteId)
      }
      const { found, totals } = await withTenant(db, clienteId, async (tx) => {
        const listed = await operationList(tx, filter, sort, page)
        return { found: listed, totals: await titleTotals(tx, listed.items.slice(0, page.limit).map((o) => o.id)) }
      })
      return listBody(found, page, q.ordem === undefined, (o) => o.numero, (o) => operationListView(o, totals.get(o.id)))
    })

    app.get(R.ler.url, { config, schema: R.ler.schema }, async (request) => {
      const { params: { id }, query } = request as FastifyRequest<{ Params: { id: string }, Querystring: { titulos_limite?: string, titulos_apos?: string } }>
      const found = isUuid(id) ? await withTenant(db, request.credential!.clienteId, (tx) => readOperation(tx, id, titlesPageOf(query))) : undefined
      if (!found) throw NOT_FOUND
      return operationView(found)
    })

    onOperation<{ Params: { id: string }, Body: { titulos: TituloInT[] } }>(R.adicionarTitulos, async ({ tx, req, action, op }) => {
      if (op.estado !== 'rascunho') return stateConflict(op)
      const existing = await titlesOf(tx, op.id)
      refuseOverCap(existing.length, req.body.titulos.length, deps.maxTitulos)
      const titles = await checkedTitles(tx, req.body.titulos, op.dataOperacao, existing.reduce((s, t) => s + t.valorFaceCentavos, 0n))
      fail(titles.items)
      refuseBlocked(undefined, titles.sacadoRows)
      const added = await addTitles(tx, op, titles.kept, action.now)
      const totals = await titleTotals(tx, [op.id])
      const body = { operacao: operationListView(op, totals.get(op.id)), adicionados: added.map(titleView) }
      return { status: 201, body, acao: 'operacao.titulos_adicionados' }
    }, { bodyLimit: BORDERO_BODY_LIMIT })

    onOperation<{ Params: { id: string, titulo_id: string } }>(R.removerTitulo, async ({ tx, req, op }) => {
      if (op.estado !== 'rascunho') return stateConflict(op)
      const tituloId = req.params.titulo_id
      if (!isUuid(tituloId)) throw NOT_FOUND
      if (await hasChecks(tx, op.id, tituloId)) throw new TitleWithChecksError(tituloId)
      if (!await removeTitle(tx, op.id, tituloId)) throw NOT_FOUND
      return { status: 200, body: await fresh(tx, op.id), acao: 'operacao.titulo_removido' }
    })

    onOperation<{ Params: { id: string } }>(R.cotacao, async ({ tx, action, op }) => {
      const quote = await quoteOperation(tx, op, action.now)
      return { status: 201, body: new JsonText(quoteViewJson(quote)), acao: 'operacao.cotada' }
    })

    onOperation<{ Params: { id: string }, Body: { cotacao_versao: number } }>(R.aceite, async ({ tx, req, action, op }) => {
      await acceptQuote(tx, op, req.body.cotacao_versao, { now: action.now, requestId: action.requestId ?? null })
      return { status: 200, body: await fresh(tx, op.id), acao: 'operacao.aceita' }
    }, { required: true })

    onOperation<{ Params: { id: string }, Body: FormalizacaoInT }>(R.formalizacao, async ({ tx, req, action, op }) => {
      const b = req.body
      const items: ValidationItem[] = []
      const assinadoEm = new Date(b.assinado_em)
      if (Number.isNaN(assinadoEm.getTime()) || assinadoEm > action.now) {
        items.push({ type: 'value_error', loc: ['body', 'assinado_em'], msg: 'Value error, an instant not in the future', input: b.assinado_em })
      }
      const signatarios = b.signatarios.map((s, i) => {
        const doc = parseDocumento(s.documento)
        if (typeof doc !== 'object') items.push({ type: 'value_error', loc: ['body', 'signatarios', i, 'documento'],
          msg: 'Value error, not a valid CPF or CNPJ', input: s.documento })
        return { nome: s.nome.trim(), documento: typeof doc === 'object' ? doc.documento : s.documento }
      })
      const sha256 = termSha256(b.termo_sha256, await termInfo(tx, op.id), items)
      fail(items)
      await formalize(tx, op, { sha256: sha256!, assinadoEm, signatarios }, action.now)
      return { status: 200, body: await fresh(tx, op.id), acao: 'operacao.formalizada' }
    })

    onOperation<{ Params: { id: string }, Body: { motivo: string } }>(R.cancelamento, async ({ tx, req, action, op }) => {
      await cancelOperation(tx, op, req.body.motivo.trim(), { now: action.now, requestId: action.requestId ?? null })
      return { status: 200, body: await fresh(tx, op.id), acao: 'operacao.cancelada' }
    })

    app.get(R.bordero.url, { config, schema: R.bordero.schema }, async (request, reply) => {
      const { params: { id }, query } = request as FastifyRequest<{ Params: { id: string }, Querystring: { formato?: 'pdf' | 'md' | 'html' } }>
      const accept = request.headers.accept ?? ''
      // A link cannot set Accept: `formato` chooses too (the back office's "Borderô em PDF").
      const form = query.formato ?? (/application\/pdf/i.test(accept) ? 'pdf' : /text\/markdown/i.test(accept) ? 'md' : 'html')
      const now = clock.now()
      // The rows are read in the transaction and the document drawn after it (seconds of CPU for thousands of
      // títulos) and sent once made: neither the drawing nor a slow reader holds a connection.
      const read = isUuid(id) ? await withTenant(db, request.credential!.clienteId, async (tx) => {
        const head = await borderoHead(tx, id)
        return head && { head, rows: await borderoRows(tx, head.op) }
      }) : undefined
      if (!read) throw NOT_FOUND
      const doc = form === 'pdf' ? await borderoPdf(read.head, read.rows, now)
        : form === 'md' ? borderoMarkdown(read.head, read.rows, now) : borderoHtml(read.head, read.rows, now)
      const numero = read.head.op.numero
      // A document a browser renders (the back office opens it): the site's security headers, CSP included.
      reply.headers(securityHeaders(deps.production)).header('vary', 'Accept')
      if (form === 'pdf') {
        return reply.type('application/pdf').header('content-disposition', `inline; filename="bordero-operacao-${numero}.pdf"`).send(doc)
      }
      if (form === 'md') return reply.type('text/markdown; charset=utf-8').send(doc)
      const body = doc as Html
      const page = app.hasDecorator('siteLayout')
        ? app.siteLayout({ title: `Borderô nº ${numero}`, description: 'Borderô da operação', body, path: request.url.split('?')[0]!, private: true })
        : `<!doctype html><html lang="pt-BR"><meta charset="utf-8"><title>Borderô nº ${numero}</title>${body.toString()}</html>`
      return reply.type('text/html; charset=utf-8').send(page)
    })

    const titleConfig = { config, schema: R.titulos.schema }
    app.get(R.titulos.url, titleConfig, async (request, reply) => {
      type Q = ListParams & { operacao_id?: string, sacado_id?: string, cedente_id?: string, estado?: TitleListFilter['estado'],
        confirmacao_estado?: TitleListFilter['confirmacaoEstado'], chave_nfe?: string, vencimento_de?: string, vencimento_ate?: string }
      const q = (request as FastifyRequest<{ Querystring: Q }>).query
      checkPeriods(q, [['vencimento_de', 'vencimento_ate']])
      const page = listPageOf(q)
      const busca = searchOf(q)
      const filter: TitleListFilter = {
        ...(q.operacao_id ? { operacaoId: q.operacao_id } : {}), ...(q.sacado_id ? { sacadoId: q.sacado_id } : {}),
        ...(q.cedente_id ? { cedenteId: q.cedente_id } : {}), ...(q.estado ? { estado: q.estado } : {}),
        ...(q.confirmacao_estado ? { confirmacaoEstado: q.confirmacao_estado } : {}), ...(q.chave_nfe ? { chaveNfe: q.chave_nfe } : {}),
        ...(busca ? { busca } : {}), ...(q.vencimento_de ? { vencimentoDe: q.vencimento_de } : {}),
        ...(q.vencimento_ate ? { vencimentoAte: q.vencimento_ate } : {}),
      }
      const sort = titleSort(orderAsked(q))
      const clienteId = request.credential!.clienteId
      if (wantsCsv(request)) return sendCsv(reply, titlesCsv({ db, clienteId, sort }, filter, csvFilename('titulos', brasiliaDay(clock.now()))), clienteId)
      const { found, numeros } = await withTenant(db, clienteId, async (tx) => {
        const listed = await titleList(tx, filter, sort, page)
        // Each título names its operation by the customer's number, as every page does (ids only in URLs).
        return { found: listed, numeros: await numbersOf(tx, listed.items.map((t) => t.operacaoId)) }
      })
      return listBody(found, page, q.ordem === undefined, (t) => t.seq, (t) => ({ ...titleView(t), operacao_numero: numeros.get(t.operacaoId) }))
    })

    app.get(R.titulo.url, { config, schema: R.titulo.schema }, async (request) => {
      const id = (request as FastifyRequest<{ Params: { id: string } }>).params.id
      const found = isUuid(id) ? await withTenant(db, request.credential!.clienteId, (tx) => getTitle(tx, id)) : undefined
      if (!found) throw NOT_FOUND
      return titleView(found)
    })
  }
}

/** A draft operation from its body (the route's and the MCP tool's): every rule checked at once, then made whole. */
export async function draftOperation(tx: Orm, clienteId: string, b: OperacaoInT, now: Date, maxTitulos: number): Promise<OperationPage> {
  refuseOverCap(0, b.titulos?.length ?? 0, maxTitulos)
  const dataOperacao = b.data_operacao ?? brasiliaDay(now)
  const [cedente, product] = await Promise.all([getParty(tx, 'cedente', b.cedente_id.toLowerCase()), getProduct(tx, b.produto_id.toLowerCase(), 'latest')])
  const items: ValidationItem[] = checkDataOperacao(dataOperacao, brasiliaDay(now))
  if (!cedente) items.push({ type: 'value_error', loc: ['body', 'cedente_id'],
    msg: 'Value error, no cedente of the customer\'s has this id', input: b.cedente_id })
  if (!product) items.push({ type: 'value_error', loc: ['body', 'produto_id'],
    msg: 'Value error, no product of the customer\'s has this id', input: b.produto_id })
  const titles = b.titulos?.length ? await checkedTitles(tx, b.titulos, dataOperacao, 0n) : { kept: [], items: [], sacadoRows: [] }
  fail([...items, ...titles.items])
  refuseBlocked(cedente, titles.sacadoRows)
  const made = await createOperation(tx, { clienteId, idExterno: b.id_externo ?? null, cedenteId: cedente!.id, produtoId: product!.id, dataOperacao }, now)
  if (titles.kept.length) await addTitles(tx, made, titles.kept, now)
  return (await readOperation(tx, made.id, FIRST_PAGE))!
}

/** One operation holds at most OPERACAO_MAX_TITULOS títulos (the operation row is locked: adds to it take turns). */
function refuseOverCap(held: number, sent: number, max: number): void {
  if (held + sent > max) throw new TooManyTitlesError(max, held, sent)
}

/** The títulos of a body checked against the customer's sacados, with those sacados (to refuse a blocked one). */
async function checkedTitles(tx: Orm, list: TituloInT[], dataOperacao: string, faceSoFar: bigint) {
  const ids = [...new Set(list.map((t) => t.sacado_id.toLowerCase()))]
  const sacadoRows = ids.length ? await tx.select().from(sacados).where(inArray(sacados.id, ids)) : []
  return { ...checkTitles(list, dataOperacao, new Set(sacadoRows.map((s) => s.id)), faceSoFar), sacadoRows }
}

/** The term's SHA-256: the file's when one was sent (a hash typed must be the same), or the one typed (the file kept elsewhere). */
function termSha256(typed: string | undefined, sent: TermInfo | undefined, items: ValidationItem[]): string | undefined {
  const given = typed?.toLowerCase()
  if (sent && given !== undefined && given !== sent.sha256) {
    items.push({ type: 'value_error', loc: ['body', 'termo_sha256'], msg: 'Value error, not the SHA-256 of the term sent', input: typed })
  }
  if (!sent && given === undefined) items.push({ type: 'missing', loc: ['body', 'termo_sha256'], msg: 'Field required', input: null })
  return sent?.sha256 ?? given
}

function stateConflict(op: Operation): never {
  throw new InvalidStateError(op.estado)
}

// The back office's pages under /conta: each GET reads the API as the session's person and draws the page; each
// form post is checked as the account's are (this site's Origin, a live session, its CSRF token), made into its
// API request (actions.ts), and answered with a redirect to the page that shows the result (post/redirect/get,
// so a reload never posts again), or with the page again, showing what was refused and what was typed.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isUuid } from '../../platform/lib/uuid.ts'
import { brasiliaDay } from '../../platform/lib/brasilia-time.ts'
import {
  ACCOUNT_PATHS, CSRF_FIELD, FORM_REFUSED, formFields, fromThisSite, makeWebContext, messagePage, readSessionCookie, ROLE_REFUSED, signedOut,
  type AccountWebDeps, type LiveSession, type Page,
} from '../account/index.ts'
import { sessionCookieName } from '../credentials/index.ts'
import { ACTIONS, doneName, fieldsOf, noticeOf, type PageRef } from './actions.ts'
import { apiFor, type Api, type ApiAnswer } from './api.ts'
import { RETORNO_MAX_BYTES } from '../collections/index.ts'
import type {
  AuditRowNamed, Charge, CollectionAccount, Entry, Holiday, List, Operation, OperationSummary, Party, PaymentAnswer, Product, RetornoAnswer, RetornoLine,
  Statement, TrialBalance,
} from './answers.ts'
import { labelOf } from './field-labels.ts'
import { KEY_FIELD, type Posted } from './forms.ts'
import { auditFiltersOf, auditPage } from './pages/audit.ts'
import { chargeQueryOf, chargesApiUrl, chargesPage, newChargePage } from './pages/charges.ts'
import { collectionAccountsPage, type CollectionAccountAnswer } from './pages/collection-accounts.ts'
import { linesApiUrl, linesQueryOf, retornoPage } from './pages/retorno.ts'
import { retornosApiUrl, retornosPage } from './pages/retornos.ts'
import { dashboardPage, type Painel, type PainelCobranca } from './pages/dashboard.ts'
import { readManualEntries } from './pages/manual-entries.ts'
import { holidaysPage } from './pages/holidays.ts'
import { cedentePage, ledgerPage } from './pages/ledger.ts'
import { operationPage } from './pages/operation.ts'
import { operationsPage } from './pages/operations.ts'
import { paymentsPage } from './pages/payments.ts'
import { productsPage } from './pages/products.ts'
import { registersPage } from './pages/registers.ts'
import { remessasPage, type ContaCobranca, type RemessaResumo } from './pages/remessas.ts'
import { ENTREGA_FILTROS, webhookPage, webhooksPage, type DeliveryAnswer, type DeliveryDetail, type WebhookAnswer } from './pages/webhooks.ts'
import { BACKOFFICE_PATHS as P } from './paths.ts'
import { apiUrlOf, listStateOf, type Listed } from './list-query.ts'
import { LIST_SPECS } from './list-specs.ts'
import { exportUrlOf, RETORNO_PAGE } from './page-exports.ts'
import { streamCsv } from './list-export.ts'
import { titlesPage } from './pages/titles.ts'
import { recomprasPage, type OpenTitle, type RecompraAnswer } from './pages/recompras.ts'
import { refusalOf } from './problems.ts'
import { inShell } from './layout.ts'
import { acceptUploads, readUpload, sendFile, sendFileFirst } from './upload.ts'
import type { ViewContext } from './view-context.ts'

/** A read the page cannot do without was refused: the status and the page that says so. */
class Unreadable extends Error {
  readonly answer: ApiAnswer
  constructor(answer: ApiAnswer) {
    super(`the API answered ${answer.status}`)
    this.answer = answer
  }
}

const LIST = 'limite=200'

async function read<T>(api: Api, url: string): Promise<T> {
  const answer = await api.get(url)
  if (answer.status !== 200) throw new Unreadable(answer)
  return answer.body as T
}

/** The page `ref` names, read through the API. */
async function draw(api: Api, ref: PageRef, v: ViewContext, query: Record<string, string | undefined>, today: string): Promise<Page> {
  switch (ref.kind) {
    case 'operacoes': {
      const state = listStateOf(LIST_SPECS.operacoes, query)
      const [ops, cedentes, produtos] = await Promise.all([
        read<Listed<OperationSummary>>(api, apiUrlOf(LIST_SPECS.operacoes, state)), read<List<Party>>(api, `/api/cedentes?${LIST}`),
        read<List<Product>>(api, `/api/produtos?${LIST}`),
      ])
      return operationsPage(v, ops, cedentes.itens, produtos.itens, state)
    }
    case 'operacao': {
      const after = ref.titulosApos !== undefined && /^[1-9][0-9]{0,5}$/.test(ref.titulosApos) ? ref.titulosApos : undefined
      const op = await read<Operation>(api, `/api/operacoes/${ref.id}${after ? `?titulos_apos=${after}` : ''}`)
      const [cedente, sacados, payment] = await Promise.all([read<Party>(api, `/api/cedentes/${op.cedente_id}`), read<List<Party>>(api, `/api/sacados?${LIST}`),
        op.desembolso ? read<PaymentAnswer>(api, `/api/desembolsos/${op.desembolso.id}`) : undefined])
      return operationPage(v, op, cedente, sacados.itens, after, payment)
    }
    case 'cedentes':
    case 'sacados': {
      const state = listStateOf(LIST_SPECS[ref.kind], query)
      return registersPage(ref.kind, v, await read<Listed<Party>>(api, apiUrlOf(LIST_SPECS[ref.kind], state)), state)
    }
    case 'cedente': {
      const range = new URLSearchParams()
      for (const k of ['de', 'ate'] as const) if (query[k]) range.set(k, query[k])
      const [cedente, extrato] = await Promise.all([
        read<Party>(api, `/api/cedentes/${ref.id}`), read<Statement>(api, `/api/cedentes/${ref.id}/extrato?${range}`),
      ])
      return cedentePage(v, cedente, extrato)
    }
    case 'produtos':
      return productsPage(v, (await read<List<Product>>(api, `/api/produtos?${LIST}`)).itens)
    case 'feriados': {
      const asked = Number(query.ano)
      const year = Number.isInteger(asked) && asked >= 2000 && asked <= 2099 ? asked : Number(today.slice(0, 4))
      return holidaysPage(v, year, (await read<{ itens: Holiday[] }>(api, `/api/feriados?de=${year}-01-01&ate=${year}-12-31`)).itens)
    }
    case 'desembolsos': {
      // The pending ones asked by state (however old), and all of them as the list's search and filters ask.
      const state = listStateOf(LIST_SPECS.desembolsos, query)
      const [waiting, approved, all, cedentes] = await Promise.all([
        read<List<PaymentAnswer>>(api, `/api/desembolsos?estado=aguardando_aprovacao&${LIST}`),
        read<List<PaymentAnswer>>(api, `/api/desembolsos?estado=aprovado&${LIST}`),
        read<Listed<PaymentAnswer>>(api, apiUrlOf(LIST_SPECS.desembolsos, state)), read<List<Party>>(api, `/api/cedentes?${LIST}`),
      ])
      return paymentsPage(v, [...waiting.itens, ...approved.itens], all, cedentes.itens, state)
    }
    case 'razao': {
      const state = listStateOf(LIST_SPECS.lancamentos, query)
      const [balancete, lancamentos] = await Promise.all([
        read<TrialBalance>(api, '/api/contabil/balancete'), read<Listed<Entry & { numero: number }>>(api, apiUrlOf(LIST_SPECS.lancamentos, state)),
      ])
      return ledgerPage(v, balancete, lancamentos, state)
    }
    case 'titulos': {
      const state = listStateOf(LIST_SPECS.titulos, query)
      const [titulos, sacados, cedentes] = await Promise.all([
        read<Parameters<typeof titlesPage>[1]>(api, apiUrlOf(LIST_SPECS.titulos, state)), read<List<Party>>(api, `/api/sacados?${LIST}`),
        read<List<Party>>(api, `/api/cedentes?${LIST}`),
      ])
      return titlesPage(v, titulos, sacados.itens, cedentes.itens, state)
    }
    case 'auditoria': {
      const antes = /^[1-9][0-9]{0,14}$/.test(query.antes ?? '') ? `&antes=${query.antes}` : ''
      const filters = auditFiltersOf(query)
      const asked = new URLSearchParams(filters as Record<string, string>).toString()
      return auditPage(v, await read<List<AuditRowNamed>>(api, `/api/conta/auditoria?limite=100${antes}${asked ? `&${asked}` : ''}`), filters)
    }
    case 'painel': {
      const [painel, cobranca] = await Promise.all([read<Painel>(api, '/api/painel'), read<PainelCobranca>(api, '/api/cobrancas/painel')])
      return dashboardPage(v, painel, cobranca)
    }
    case 'recompras': {
      const [recompras, cedentes, titulos] = await Promise.all([
        read<List<RecompraAnswer>>(api, `/api/recompras?${LIST}`), read<List<Party>>(api, `/api/cedentes?${LIST}`),
        read<List<OpenTitle>>(api, `/api/titulos?estado=adquirido&ordem=vencimento&${LIST}`),
      ])
      return recomprasPage(v, recompras, cedentes.itens, titulos.itens)
    }
    case 'contas-cobranca':
      return collectionAccountsPage(v, await read<List<CollectionAccountAnswer>>(api, `/api/contas-cobranca?${LIST}`))
    case 'remessas': {
      const [remessas, contas] = await Promise.all([
        read<List<RemessaResumo>>(api, `/api/cnab/remessas?${LIST}`), read<List<ContaCobranca>>(api, `/api/contas-cobranca?${LIST}`),
      ])
      return remessasPage(v, remessas, contas.itens)
    }
    case 'cobrancas': {
      const q = chargeQueryOf(query)
      const [cobrancas, contas] = await Promise.all([
        read<List<Charge>>(api, chargesApiUrl(q)), read<List<CollectionAccount>>(api, `/api/contas-cobranca?${LIST}`),
      ])
      return chargesPage(v, cobrancas, contas.itens, q)
    }
    case 'nova-cobranca': {
      // What the form offers: the acquired títulos, soonest due first, less those with a live charge; the accounts.
      const [contas, adquiridos, aRegistrar, registradas, sacados] = await Promise.all([
        read<List<CollectionAccount>>(api, `/api/contas-cobranca?${LIST}`),
        read<List<OpenTitle & { sacado_id: string }>>(api, `/api/titulos?estado=adquirido&ordem=vencimento&${LIST}`),
        read<List<Charge>>(api, `/api/cobrancas?estado=a_registrar&${LIST}`), read<List<Charge>>(api, `/api/cobrancas?estado=registrada&${LIST}`),
        read<List<Party>>(api, `/api/sacados?${LIST}`),
      ])
      const live = new Set([...aRegistrar.itens, ...registradas.itens].map((c) => c.titulo_id))
      const nomes = new Map(sacados.itens.map((p) => [p.id, p.razao_social]))
      const aCobrar = adquiridos.itens.filter((t) => !live.has(t.id) && t.saldo_centavos > 0)
        .map((t) => ({ ...t, ...(nomes.has(t.sacado_id) ? { sacado: nomes.get(t.sacado_id)! } : {}) }))
      return newChargePage(v, aCobrar, contas.itens)
    }
    case 'retornos': {
      const antes = /^[1-9][0-9]{0,14}$/.test(query.antes ?? '') ? query.antes : undefined
      const [retornos, contas] = await Promise.all([
        read<List<RetornoAnswer>>(api, retornosApiUrl(antes)), read<List<CollectionAccount>>(api, `/api/contas-cobranca?${LIST}`),
      ])
      return retornosPage(v, retornos, contas.itens, antes)
    }
    case 'retorno': {
      const q = linesQueryOf(query)
      const [retorno, linhas] = await Promise.all([
        read<RetornoAnswer>(api, `/api/cnab/retornos/${ref.id}`), read<List<RetornoLine>>(api, linesApiUrl(ref.id, q)),
      ])
      return retornoPage(v, retorno, await read<CollectionAccount>(api, `/api/contas-cobranca/${retorno.conta_cobranca_id}`), linhas, q)
    }
    case 'lancamentos-manuais':
      return readManualEntries((url) => read(api, url), v, today)
    case 'webhooks':
      return webhooksPage(v, await read<List<WebhookAnswer>>(api, `/api/webhooks?${LIST}`))
    case 'webhook': {
      const estado = (ENTREGA_FILTROS as readonly string[]).includes(query.estado ?? '') ? query.estado : undefined
      const entrega = isUuid(query.entrega ?? '') ? query.entrega : undefined
      const [webhook, entregas, detalhe] = await Promise.all([
        read<WebhookAnswer>(api, `/api/webhooks/${ref.id}`),
        read<List<DeliveryAnswer>>(api, `/api/webhooks/${ref.id}/entregas?${LIST}${estado ? `&estado=${estado}` : ''}`),
        entrega ? read<DeliveryDetail>(api, `/api/webhooks/${ref.id}/entregas/${entrega}`) : undefined,
      ])
      return webhookPage(v, webhook, entregas, estado, detalhe)
    }
  }
}

export function backofficeRoutes(deps: AccountWebDeps & { termoMaxBytes?: number }) {
  return async function backoffice(app: FastifyInstance): Promise<void> {
    const web = makeWebContext(app, deps)
    /** The API as the person whose session cookie `req` carries (only that cookie is passed on). */
    const apiOf = (req: FastifyRequest) => apiFor(app, req, `${sessionCookieName(web.secure)}=${readSessionCookie(req, web.secure) ?? ''}`)

    const toLogin = (req: FastifyRequest, reply: FastifyReply) => (readSessionCookie(req, web.secure) !== undefined
      ? signedOut(reply, web, 'sessao-expirada')
      : reply.header('cache-control', 'no-store').redirect(ACCOUNT_PATHS.entrar, 303))

    /** The page `ref` with `status`; a read the page needs, refused, answered in words (or the login, when the session ended meanwhile). */
    const show = async (
      req: FastifyRequest, reply: FastifyReply, s: LiveSession, ref: PageRef, status: number, extra: Pick<ViewContext, 'shown' | 'posted'>,
    ) => {
      const api = apiOf(req)
      try {
        const v: ViewContext = { csrf: web.csrf.issue(s.id), usuarioId: s.usuarioId, papel: s.papel, ...extra }
        // The shell names the customer and the person as the API knows them (GET /api/conta), read beside the page's own.
        const [who, page] = await Promise.all([
          read<{ cliente: { nome: string }, credencial: { nome: string } }>(api, '/api/conta'),
          draw(api, ref, v, req.query as Record<string, string | undefined>, brasiliaDay(web.clock.now())),
        ])
        return web.send(reply, status, inShell(page, { ...v, cliente: who.cliente.nome, pessoa: who.credencial.nome }, req.url.split('?')[0]!))
      } catch (err) {
        if (!(err instanceof Unreadable)) throw err
        return unreadable(req, reply, err.answer)
      }
    }
    const unreadable = (req: FastifyRequest, reply: FastifyReply, answer: ApiAnswer) => {
      if (answer.status === 401) return toLogin(req, reply)
      if (answer.status === 403) {
        return web.send(reply, 403, messagePage(ROLE_REFUSED[0], refusalOf(403, answer.body).message, { href: P.operacoes, label: 'Voltar' }))
      }
      if (answer.status === 404) {
        const back = { href: P.operacoes, label: 'Voltar às operações' }
        return web.send(reply, 404, messagePage('Não encontrado', 'Nada da sua empresa tem este identificador.', back))
      }
      const r = refusalOf(answer.status, answer.body)
      // A query the API refused (a period that is not one): the person's to correct; anything else is ours or the database's.
      if (answer.status === 429) return web.send(reply, 429, messagePage('Muitas requisições', `${r.message} Depois, recarregue a página.`))
      if (answer.status < 500) {
        const asked = Object.entries(r.fields).map(([k, m]) => `${k}: ${m}`).join('; ')
        const text = asked ? `${r.message} ${asked}.` : r.message
        return web.send(reply, answer.status, messagePage('Pedido inválido', text, { href: P.operacoes, label: 'Voltar' }))
      }
      return web.send(reply, 503, messagePage('Indisponível agora', `${r.message} Tente de novo em instantes.`))
    }

    const page = (path: string, ref: (id: string, query: Record<string, string | undefined>) => PageRef) => {
      app.get<{ Params: { id?: string }, Querystring: Record<string, string | undefined> }>(path, async (req, reply) => {
        const s = await web.session(req)
        if (!s) return toLogin(req, reply)
        const id = req.params.id ?? ''
        if (path.includes(':id') && !isUuid(id)) return unreadable(req, reply, { status: 404, body: null })
        const url = req.query.formato === 'csv' ? exportUrlOf(path, id, req.query) : undefined
        if (url) {
          const answer = await streamCsv(app, req, reply, `${sessionCookieName(web.secure)}=${readSessionCookie(req, web.secure) ?? ''}`, url)
          return 'sent' in answer ? answer.sent : unreadable(req, reply, answer.refused)
        }
        const done = req.query.feito
        const notice = noticeOf(done)
        return show(req, reply, s, ref(id, req.query), 200, { shown: { notice } })
      })
    }
    page(P.operacoes, () => ({ kind: 'operacoes' }))
    page('/conta/operacoes/:id', (id, query) => ({ kind: 'operacao', id, titulosApos: query.titulos_apos }))
    page(P.cedentes, () => ({ kind: 'cedentes' }))
    page('/conta/cedentes/:id', (id) => ({ kind: 'cedente', id }))
    page(P.sacados, () => ({ kind: 'sacados' }))
    page(P.produtos, () => ({ kind: 'produtos' }))
    page(P.feriados, () => ({ kind: 'feriados' }))
    page(P.desembolsos, () => ({ kind: 'desembolsos' }))
    page(P.razao, () => ({ kind: 'razao' }))
    page(P.auditoria, () => ({ kind: 'auditoria' }))
    page(P.titulos, () => ({ kind: 'titulos' }))
    page(P.recompras, () => ({ kind: 'recompras' }))
    page(P.remessas, () => ({ kind: 'remessas' }))
    page(P.contasCobranca, () => ({ kind: 'contas-cobranca' }))
    page(P.novaCobranca, () => ({ kind: 'nova-cobranca' }))
    page(ACCOUNT_PATHS.painel, () => ({ kind: 'painel' }))
    page(P.lancamentosManuais, () => ({ kind: 'lancamentos-manuais' }))
    page(P.cobrancas, () => ({ kind: 'cobrancas' }))
    page(P.retornos, () => ({ kind: 'retornos' }))
    page(RETORNO_PAGE, (id) => ({ kind: 'retorno', id }))
    page(P.webhooks, () => ({ kind: 'webhooks' }))
    page(P.webhook(':id'), (id) => ({ kind: 'webhook', id }))

    // A refused form is answered at its post's address (the page again, with what was typed): a reload or a
    // bookmark of that address is a GET, which goes to the page the form is on rather than to "not found".
    const formAddress = (path: string, to: (id: string) => string) => {
      app.get<{ Params: { id?: string } }>(path, async (req, reply) => {
        const id = req.params.id ?? ''
        if (path.includes(':id') && !isUuid(id)) return unreadable(req, reply, { status: 404, body: null })
        return reply.header('cache-control', 'no-store').redirect(to(id), 303)
      })
    }
    formAddress('/conta/operacoes/:id/:acao', (id) => P.operacao(id))
    formAddress('/conta/desembolsos/:id/:acao', () => P.desembolsos)
    formAddress('/conta/razao/lancamentos-manuais/:id/:acao', () => P.lancamentosManuais)
    formAddress(P.removerFeriado, () => P.feriados)
    formAddress('/conta/cobrancas/:id/:acao', () => P.cobrancas)
    formAddress('/conta/cobrancas/recompras/:id/:acao', () => P.recompras)
    formAddress('/conta/webhooks/:id/:acao', (id) => P.webhook(id))

    const post = (path: string, name: (acao: string) => string, on: FastifyInstance = app) => {
      on.post<{ Params: { id?: string, acao?: string } }>(path, async (req, reply) => {
        // A file is read (up to TERMO_MAX_BYTES) only for a page of this site, a live session and the form's own token,
        // all checked before its bytes: anyone else is answered without the server holding them.
        const withFile = req.isMultipart?.() === true
        if (withFile && !fromThisSite(req, web.publicUrl)) return web.send(reply, 403, messagePage(...FORM_REFUSED))
        const early = withFile ? await web.session(req) : undefined
        if (withFile && !early) return toLogin(req, reply)
        const upload = await readUpload(req, (sofar) => early !== undefined && web.csrf.verify(early.id, sofar.get(CSRF_FIELD)))
        const fields = upload?.fields ?? formFields(req.body)
        if (!fields || !fromThisSite(req, web.publicUrl)) return web.send(reply, 403, messagePage(...FORM_REFUSED))
        const s = early ?? await web.session(req)
        if (!s) return toLogin(req, reply)
        if (!web.csrf.verify(s.id, fields.get(CSRF_FIELD))) return web.send(reply, 403, messagePage(...FORM_REFUSED))
        const actionName = name(req.params.acao ?? '')
        const action = Object.hasOwn(ACTIONS, actionName) ? ACTIONS[actionName] : undefined
        const id = req.params.id ?? ''
        if (!action || (path.includes(':id') && !isUuid(id))) return unreadable(req, reply, { status: 404, body: null })
        const f = fieldsOf(fields)
        const built = action.build(f)
        /** The form's page again: the refusal, each field's error beside it and in the summary (some name no field on the page). */
        const refuse = (status: number, message: string, errors: Record<string, string>) => {
          const items = Object.entries(errors).map(([k, m]) => (k ? `${labelOf(actionName, k)}: ${m}` : m))
          const posted: Posted = { values: fields, errors, form: f.get('formulario') ?? '' }
          return show(req, reply, s, action.page(id, f), status, { shown: { refused: [message, ...items] }, posted })
        }
        if (Object.keys(built.errors).length) return refuse(422, 'Corrija os campos indicados.', built.errors)
        const file = action.fileBody === undefined ? undefined : upload?.files.get(action.fileBody)
        const answer = file ? await sendFile(apiOf(req), 'POST', action.url(id, f), file, fields.get(CSRF_FIELD)!)
          : await sendFileFirst(apiOf(req), action.upload, id, upload, fields.get(CSRF_FIELD)!)
            ?? await apiOf(req).send(action.method, action.url(id, f), built.body, f.get(KEY_FIELD), fields.get(CSRF_FIELD)!)
        if (answer.status < 300) {
          const to = action.done(id, (answer.body ?? {}) as { id?: string }, f)
          return reply.header('cache-control', 'no-store').redirect(`${to}?feito=${encodeURIComponent(doneName(actionName, answer.status))}`, 303)
        }
        if (answer.status === 401) return toLogin(req, reply)
        if (answer.status >= 500) return unreadable(req, reply, answer)
        const refusal = refusalOf(answer.status, answer.body)
        return refuse(answer.status, refusal.message, Object.fromEntries(Object.entries(refusal.fields).map(([k, m]) => [action.field?.(k) ?? k, m])))
      })
    }
    for (const kind of ['cedentes', 'sacados', 'produtos', 'feriados', 'operacoes', 'remessas'] as const) post(P[kind], () => kind)
    post(P.removerFeriado, () => 'feriados/remover')
    post('/conta/operacoes/:id/:acao', (acao) => `operacao/${acao}`)
    post('/conta/desembolsos/:id/:acao', (acao) => `desembolso/${acao}`)
    post(P.cobrancas, () => 'cobrancas')
    post(P.contasCobranca, () => 'contas-cobranca')
    post('/conta/cobrancas/contas/:id/:acao', (acao) => `conta-cobranca/${acao}`)
    post(P.instrucoes, () => 'instrucoes')
    post(P.recompras, () => 'recompras')
    post('/conta/cobrancas/recompras/:id/:acao', (acao) => `recompra/${acao}`)
    post('/conta/cobrancas/:id/:acao', (acao) => `cobranca/${acao}`)
    post(P.lancamentosManuais, () => 'lancamentos-manuais')
    post('/conta/razao/lancamentos-manuais/:id/:acao', (acao) => `lancamento-manual/${acao}`)
    post('/conta/webhooks/:id/:acao', (acao) => `webhook/${acao}`)
    // The formalization's form carries the signed term's file: a context of its own reads multipart forms.
    await app.register(async (scoped) => {
      await acceptUploads(scoped, deps.termoMaxBytes ?? 10 * 1024 * 1024)
      post('/conta/operacoes/:id/formalizacao', () => 'operacao/formalizacao', scoped)
    })
    // The retorno's form carries the bank's file, up to the largest the API takes.
    await app.register(async (scoped) => {
      await acceptUploads(scoped, RETORNO_MAX_BYTES)
      post(P.retornos, () => 'retornos', scoped)
    })
  }
}


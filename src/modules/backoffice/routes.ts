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
import { ACTIONS, fieldsOf, type PageRef } from './actions.ts'
import { apiFor, type Api, type ApiAnswer } from './api.ts'
import type { AuditRow, Entry, Holiday, List, Operation, OperationSummary, Party, Payment, Product, Statement, TrialBalance } from './answers.ts'
import { KEY_FIELD, type Posted } from './forms.ts'
import { auditPage } from './pages/audit.ts'
import { holidaysPage } from './pages/holidays.ts'
import { cedentePage, ledgerPage } from './pages/ledger.ts'
import { operationPage } from './pages/operation.ts'
import { operationsPage } from './pages/operations.ts'
import { paymentsPage } from './pages/payments.ts'
import { productsPage } from './pages/products.ts'
import { registersPage } from './pages/registers.ts'
import { BACKOFFICE_PATHS as P } from './paths.ts'
import { refusalOf } from './problems.ts'
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
      const [ops, cedentes, produtos] = await Promise.all([
        read<List<OperationSummary>>(api, `/api/operacoes?${LIST}`), read<List<Party>>(api, `/api/cedentes?${LIST}`),
        read<List<Product>>(api, `/api/produtos?${LIST}`),
      ])
      return operationsPage(v, ops, cedentes.itens, produtos.itens)
    }
    case 'operacao': {
      const after = ref.titulosApos !== undefined && /^[1-9][0-9]{0,5}$/.test(ref.titulosApos) ? ref.titulosApos : undefined
      const op = await read<Operation>(api, `/api/operacoes/${ref.id}${after ? `?titulos_apos=${after}` : ''}`)
      const [cedente, sacados] = await Promise.all([read<Party>(api, `/api/cedentes/${op.cedente_id}`), read<List<Party>>(api, `/api/sacados?${LIST}`)])
      return operationPage(v, op, cedente, sacados.itens, after)
    }
    case 'cedentes':
    case 'sacados':
      return registersPage(ref.kind, v, await read<List<Party>>(api, `/api/${ref.kind}?${LIST}`))
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
      // The pending ones asked by state (however old), and the latest of all.
      const [waiting, approved, latest] = await Promise.all(['estado=aguardando_aprovacao&', 'estado=aprovado&', ''].map((q) =>
        read<List<Payment>>(api, `/api/desembolsos?${q}${LIST}`)))
      return paymentsPage(v, [...waiting!.itens, ...approved!.itens], latest!.itens)
    }
    case 'razao': {
      const [balancete, lancamentos] = await Promise.all([
        read<TrialBalance>(api, '/api/contabil/balancete'), read<List<Entry>>(api, '/api/lancamentos?limite=50'),
      ])
      return ledgerPage(v, balancete, lancamentos.itens)
    }
    case 'auditoria': {
      const antes = /^[1-9][0-9]{0,14}$/.test(query.antes ?? '') ? `&antes=${query.antes}` : ''
      return auditPage(v, await read<List<AuditRow>>(api, `/api/conta/auditoria?limite=100${antes}`))
    }
  }
}

export function backofficeRoutes(deps: AccountWebDeps) {
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
      const v: ViewContext = { csrf: web.csrf.issue(s.id), usuarioId: s.usuarioId, papel: s.papel, ...extra }
      try {
        return web.send(reply, status, await draw(api, ref, v, req.query as Record<string, string | undefined>, brasiliaDay(web.clock.now())))
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
        const done = req.query.feito
        const notice = done !== undefined && Object.hasOwn(ACTIONS, done) ? ACTIONS[done]!.notice : undefined
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

    const post = (path: string, name: (acao: string) => string) => {
      app.post<{ Params: { id?: string, acao?: string } }>(path, async (req, reply) => {
        const fields = formFields(req.body)
        if (!fields || !fromThisSite(req, web.publicUrl)) return web.send(reply, 403, messagePage(...FORM_REFUSED))
        const s = await web.session(req)
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
          const items = Object.entries(errors).map(([k, m]) => (k ? `${k}: ${m}` : m))
          const posted: Posted = { values: fields, errors, form: f.get('formulario') ?? '' }
          return show(req, reply, s, action.page(id, f), status, { shown: { refused: [message, ...items] }, posted })
        }
        if (Object.keys(built.errors).length) return refuse(422, 'Corrija os campos indicados.', built.errors)
        const answer = await apiOf(req).send(action.method, action.url(id, f), built.body, f.get(KEY_FIELD), fields.get(CSRF_FIELD)!)
        if (answer.status < 300) {
          const to = action.done(id, (answer.body ?? {}) as { id?: string }, f)
          return reply.header('cache-control', 'no-store').redirect(`${to}?feito=${encodeURIComponent(actionName)}`, 303)
        }
        if (answer.status === 401) return toLogin(req, reply)
        if (answer.status >= 500) return unreadable(req, reply, answer)
        const refusal = refusalOf(answer.status, answer.body)
        return refuse(answer.status, refusal.message, Object.fromEntries(Object.entries(refusal.fields).map(([k, m]) => [action.field?.(k) ?? k, m])))
      })
    }
    for (const kind of ['cedentes', 'sacados', 'produtos', 'feriados', 'operacoes'] as const) post(P[kind], () => kind)
    post(P.removerFeriado, () => 'feriados/remover')
    post('/conta/operacoes/:id/:acao', (acao) => `operacao/${acao}`)
    post('/conta/desembolsos/:id/:acao', (acao) => `desembolso/${acao}`)
  }
}


// /conta and its forms: make a token (its secret shown on the answer, once), revoke one, end a session or all of
// the person's. Every post needs a live session, this site's Origin and the session's CSRF token; the changes run
// in the customer's tenant transaction and are audited as the person's (the stores write the rows).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { getCustomer } from '../../credentials/index.ts'
import { endSession, endUserSessions, listSessions } from '../../credentials/index.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { createToken, listTokens, revokeToken } from '../../credentials/index.ts'
import { getUser, isPapel, listUsers, setRole } from '../../credentials/index.ts'
import type { Orm } from '../../../platform/db/database.ts'
import { refusalOf } from '../../../platform/http/refusal.ts'
import { isUuid } from '../../../platform/lib/uuid.ts'
import { accountPage, type AccountView } from './account-views.ts'
import { field, formFields } from './form-body.ts'
import { signedOut } from './login-routes.ts'
import { FORM_REFUSED, LAST_ADMIN, noticeOf, NOTICES, ROLE_REFUSED, TOKEN_FORM_IN_USE, TOKEN_FORM_REUSED, TOKEN_REFUSED, type Notice } from './messages.ts'
import { ACCOUNT_PATHS } from './paths.ts'
import { fromThisSite } from './same-origin.ts'
import type { LiveSession } from './session.ts'
import { readSessionCookie } from './session-cookie.ts'
import { readTokenForm, TOKEN_KEY_FIELD } from './token-form.ts'
import { requestFingerprint } from '../../../platform/idempotency/fingerprint.ts'
import { sendAnswer } from '../../../platform/idempotency/http.ts'
import { parseIdempotencyKey } from '../../../platform/idempotency/key.ts'
import type { StoredAnswer } from '../../../platform/idempotency/store.ts'
import { CSRF_FIELD, messagePage } from './view-parts.ts'
import type { WebContext } from './web-context.ts'

type Extra = Pick<AccountView, 'notice' | 'created' | 'form'>

/** What a token form's key answers when posted again: the list, with a notice (the secret is never stored). */
const ALREADY_MADE: StoredAnswer = {
  status: 303, headers: { location: `${ACCOUNT_PATHS.conta}?aviso=token-ja-criado`, 'cache-control': 'no-store' }, body: '',
}
/** A token's transaction, in single queries (DB_TIMEOUT_MS): the key, the checks, the token, its audit row, the page's reads. */
const TOKEN_TIMEOUT_FACTOR = 8

export function accountRoutes(app: FastifyInstance, web: WebContext): void {
  const { db } = web

  const toLogin = (reply: FastifyReply) => signedOut(reply, web, 'sessao-expirada')
  const inShell = (v: AccountView) => web.framed(accountPage(v), { csrf: v.csrf, papel: v.user.papel, cliente: v.customer.nome, pessoa: v.user.nome },
    ACCOUNT_PATHS.conta)
  const notFound = (reply: FastifyReply, title: string, text: string) =>
    web.send(reply, 404, messagePage(title, text, { href: ACCOUNT_PATHS.conta, label: 'Voltar à conta' }))
  const back = (reply: FastifyReply, aviso: Notice) => reply.header('cache-control', 'no-store').redirect(`${ACCOUNT_PATHS.conta}?aviso=${aviso}`, 303)

  /**
   * The page as of now, read in the session's tenant transaction `t` (the one that just changed something, when
   * there is one): on the embedded database a query outside it would wait for it.
   */
  const read = async (t: Orm, s: LiveSession, extra: Extra = {}): Promise<AccountView | undefined> => {
    const customer = await getCustomer(t, s.clienteId)
    const user = await getUser(t, s.usuarioId)
    if (!customer || !user) return undefined
    const [all, sessions, people] = [await listTokens(t, s.clienteId), await listSessions(t, s, web.clock.now()), await listUsers(t, s.clienteId)]
    // The company's tokens are an administrador's to see and revoke; anyone else sees their own.
    const tokens = user.papel === 'administrador' ? all : all.filter((k) => k.usuarioId === s.usuarioId)
    return { customer, user, tokens, sessions, people, currentSessionId: s.id, csrf: web.csrf.issue(s.id), now: web.clock.now(), limits: web.limits, ...extra }
  }
  const show = async (reply: FastifyReply, status: number, s: LiveSession, extra: Extra = {}) => {
    const view = await withTenant(db, s.clienteId, (t) => read(t, s, extra))
    return view ? web.send(reply, status, inShell(view)) : toLogin(reply)
  }

  app.get<{ Querystring: Record<string, string | undefined> }>(ACCOUNT_PATHS.conta, async (req, reply) => {
    const s = await web.session(req)
    if (!s) {
      // A cookie that no longer works is dropped, and the person told why they are asked to log in again.
      if (readSessionCookie(req, web.secure) !== undefined) return toLogin(reply)
      return reply.header('cache-control', 'no-store').redirect(ACCOUNT_PATHS.entrar, 303)
    }
    const notice = noticeOf(req.query.aviso)
    return show(reply, 200, s, { notice: notice && NOTICES[notice] })
  })

  /**
   * A post of the account's: its fields and the session, once the Origin and the CSRF token are checked; else
   * `refused`, the answer already sent (a refusal, or the login page). Wrapped, never the reply itself: a reply is
   * thenable, and an async function returning it would resolve to what its `then` gives (nothing).
   */
  const admitted = async (req: FastifyRequest, reply: FastifyReply): Promise<{ s: LiveSession, fields: URLSearchParams } | { refused: FastifyReply }> => {
    const fields = formFields(req.body)
    if (!fields || !fromThisSite(req, web.publicUrl)) return { refused: web.send(reply, 403, messagePage(...FORM_REFUSED)) }
    const s = await web.session(req)
    if (!s) return { refused: toLogin(reply) }
    if (!web.csrf.verify(s.id, fields.get(CSRF_FIELD))) return { refused: web.send(reply, 403, messagePage(...FORM_REFUSED)) }
    return { s, fields }
  }
  const actor = (req: FastifyRequest, s: LiveSession) => web.actionContext(req, { tipo: 'usuario', id: s.usuarioId })

  app.post(ACCOUNT_PATHS.criarToken, async (req, reply) => {
    const ok = await admitted(req, reply)
    if ('refused' in ok) return ok.refused
    const { s, fields } = ok
    const form = readTokenForm(fields)
    if (!form.request) return show(reply, 422, s, { form })
    const r = form.request
    const ctx = actor(req, s)
    // The token and the page that shows its secret, in one tenant transaction; the page is sent once it committed.
    const make = async (tx: Orm) => {
      const created = await createToken(tx, {
        clienteId: s.clienteId, usuarioId: s.usuarioId, nome: r.nome, escopos: r.escopos, dpopJkt: r.dpopJkt,
        expiraEm: new Date(ctx.now.getTime() + r.dias * 86_400_000),
      }, ctx)
      return read(tx, s, { created })
    }
    const shown = (view: AccountView | undefined) => (view ? web.send(reply, 201, inShell(view)) : toLogin(reply))
    try {
      const rawKey = fields.get(TOKEN_KEY_FIELD)
      const key = rawKey === null ? undefined : parseIdempotencyKey(rawKey)
      if (key && key.kind !== 'key') return web.send(reply, 400, messagePage(...FORM_REFUSED))
      // One path with or without the form's key; what is stored for a key is a redirect to the list, never the
      // page: the secret is shown once.
      const call = key ? {
        scope: { escopo: `sessao:${s.id}`, clienteId: s.clienteId }, key: key.key,
        fingerprint: requestFingerprint('POST', ACCOUNT_PATHS.criarToken, r),
      } : { clienteId: s.clienteId }
      const outcome = await web.idempotency.run(call, async (tx) => ({ answer: ALREADY_MADE, result: await make(tx) }),
        TOKEN_TIMEOUT_FACTOR * web.dbTimeoutMs)
      if (outcome.kind === 'fresh') return shown(outcome.result)
      if (outcome.kind === 'replayed') return sendAnswer(reply, outcome.answer, true)
      const [title, text] = outcome.kind === 'in_use' ? TOKEN_FORM_IN_USE : TOKEN_FORM_REUSED
      return web.send(reply, outcome.kind === 'in_use' ? 409 : 422, messagePage(title, text, { href: ACCOUNT_PATHS.conta, label: 'Voltar à conta' }))
    } catch (err) {
      const refused = refusalOf(err)?.code
      if (refused === 'assinatura_inativa') return toLogin(reply)
      // The form checked the store's rules first; what the store or the database still refuses (a person suspended
      // meanwhile, a rule changed) is the person's input, answered in words, never a 500.
      if (refused === 'entrada_recusada') return web.send(reply, 422, messagePage(...TOKEN_REFUSED))
      if (refused === 'papel_insuficiente') return web.send(reply, 403, messagePage(...ROLE_REFUSED))
      throw err
    }
  })

  app.post(ACCOUNT_PATHS.revogarToken, async (req, reply) => {
    const ok = await admitted(req, reply)
    if ('refused' in ok) return ok.refused
    const { s, fields } = ok
    const tokenId = field(fields, 'token_id', 100)
    // Another customer's id is not found: row-level security hides it.
    // Someone who is not an administrador revokes only their own tokens: another's is not found, as on their page.
    const outcome = isUuid(tokenId)
      ? await withTenant(db, s.clienteId, async (tx) => {
        const user = await getUser(tx, s.usuarioId)
        const theirs = user?.papel === 'administrador' || (await listTokens(tx, s.clienteId)).some((k) => k.id === tokenId && k.usuarioId === s.usuarioId)
        return theirs ? revokeToken(tx, { clienteId: s.clienteId, tokenId }, actor(req, s)) : 'not_found'
      })
      : 'not_found'
    if (outcome === 'not_found') return notFound(reply, 'Token não encontrado', 'Nenhum token da sua empresa tem este identificador.')
    return back(reply, outcome === 'revoked' ? 'token-revogado' : 'token-ja-revogado')
  })

  app.post(ACCOUNT_PATHS.papel, async (req, reply) => {
    const ok = await admitted(req, reply)
    if ('refused' in ok) return ok.refused
    const { s, fields } = ok
    const usuarioId = field(fields, 'usuario_id', 100)
    const papel = field(fields, 'papel', 40)
    if (!isUuid(usuarioId) || !isPapel(papel)) return web.send(reply, 422, messagePage(...FORM_REFUSED))
    try {
      const done = await withTenant(db, s.clienteId, async (tx) => {
        // The role of the one who asks, as it is now (it may have changed since the page was shown).
        if ((await getUser(tx, s.usuarioId))?.papel !== 'administrador') return 'refused' as const
        return setRole(tx, { clienteId: s.clienteId, usuarioId }, papel, actor(req, s))
      })
      if (done === 'refused') return web.send(reply, 403, messagePage(...ROLE_REFUSED))
      return back(reply, done.changed ? 'papel-alterado' : 'papel-igual')
    } catch (err) {
      const refused = refusalOf(err)?.code
      if (refused === 'nao_encontrado') return notFound(reply, 'Pessoa não encontrada', 'Nenhuma pessoa da sua empresa tem este identificador.')
      if (refused === 'ultimo_administrador') return web.send(reply, 409, messagePage(...LAST_ADMIN))
      throw err
    }
  })

  app.post(ACCOUNT_PATHS.encerrarSessao, async (req, reply) => {
    const ok = await admitted(req, reply)
    if ('refused' in ok) return ok.refused
    const { s, fields } = ok
    const sessaoId = field(fields, 'sessao_id', 100)
    // Only the person's own sessions: another person of the same customer is not theirs to end.
    const ended = await withTenant(db, s.clienteId, async (tx) => {
      const mine = (await listSessions(tx, s, web.clock.now())).some((x) => x.id === sessaoId)
      return mine && endSession(tx, { clienteId: s.clienteId, sessaoId }, actor(req, s))
    })
    if (sessaoId === s.id) return signedOut(reply, web, 'saiu')
    return ended ? back(reply, 'sessao-encerrada') : notFound(reply, 'Sessão não encontrada', 'Nenhuma sessão aberta sua tem este identificador.')
  })

  app.post(ACCOUNT_PATHS.encerrarTodas, async (req, reply) => {
    const ok = await admitted(req, reply)
    if ('refused' in ok) return ok.refused
    const { s } = ok
    await withTenant(db, s.clienteId, (tx) => endUserSessions(tx, s, actor(req, s)))
    return signedOut(reply, web, 'saiu-de-todos')
  })
}

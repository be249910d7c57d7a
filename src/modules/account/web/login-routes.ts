// /conta/entrar and /conta/sair. Login answers a wrong password and an unknown e-mail alike, after the same
// work: a password hash is verified either way (the hasher's dummy for no account), the refusal is the same
// page, and the failure's audit row (written only when there is an account to write it to) is written without
// the answer waiting for it, so its time is not in the answer's. A new session every time (rotation), the
// cookie's old one ended.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { appendAudit } from '../../../platform/tenancy/audit/store.ts'
import { createSession, endSession } from '../../credentials/index.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { findLogin, normalizeEmail, rehashPassword, type LoginCandidate } from '../../credentials/index.ts'
import { auditRequestIds } from '../../../platform/http/request-id.ts'
import { errorFacts } from '../../../platform/lib/log-safety.ts'
import { field, formFields } from './form-body.ts'
import { makeLoginLimits, type LoginBudgets } from './login-limits.ts'
import { FORM_REFUSED, LOGIN_FAILED, LOGIN_SUSPENDED_CUSTOMER, LOGIN_SUSPENDED_USER, noticeOf, NOTICES, tooManyAttempts } from './messages.ts'
import { ACCOUNT_PATHS } from './paths.ts'
import { fromThisSite } from './same-origin.ts'
import { endCookieSession } from './session.ts'
import { clearSessionCookie, readSessionCookie, setSessionCookie } from './session-cookie.ts'
import { loginPage } from './sign-in-views.ts'
import { CSRF_FIELD, messagePage } from './view-parts.ts'
import type { WebContext } from './web-context.ts'

const EMAIL_MAX = 254

export function loginRoutes(app: FastifyInstance, web: WebContext, budgets?: LoginBudgets): void {
  const { db } = web
  const limits = makeLoginLimits(app, budgets)
  // Failure audit rows the answers did not wait for; the app waits for them before it closes.
  const pending = new Set<Promise<void>>()
  app.addHook('onClose', async () => { await Promise.allSettled([...pending]) })
  const besideAnswer = (req: FastifyRequest, work: () => Promise<void>) => {
    const p = work().catch((err: unknown) => req.log.error(errorFacts(err), 'login audit not written')).finally(() => pending.delete(p))
    pending.add(p)
  }

  app.get<{ Querystring: Record<string, string | undefined> }>(ACCOUNT_PATHS.entrar, async (req, reply) => {
    if (await web.session(req)) return reply.header('cache-control', 'no-store').redirect(ACCOUNT_PATHS.painel, 303)
    const notice = noticeOf(req.query.aviso)
    return web.send(reply, 200, loginPage({ notice: notice && NOTICES[notice] }))
  })

  app.post(ACCOUNT_PATHS.entrar, async (req, reply) => {
    const fields = formFields(req.body)
    if (!fields || !fromThisSite(req, web.publicUrl)) return web.send(reply, 403, messagePage(...FORM_REFUSED))
    const typed = field(fields, 'email', EMAIL_MAX + 1).trim()
    const email = normalizeEmail(typed)
    const senha = field(fields, 'senha', 4096)
    const wait = await limits.admit(req, email)
    if (wait !== undefined) {
      reply.header('retry-after', String(wait))
      return web.send(reply, 429, loginPage({ email: typed, error: tooManyAttempts(wait) }))
    }
    // No one's address is that long or holds a NUL (which PostgreSQL's text cannot take): not looked up, the same work.
    const candidate = email.length <= EMAIL_MAX && !email.includes('\0') ? await findLogin(db.orm, email) : undefined
    const right = await web.hasher.verify(candidate?.senhaHash, senha)
    if (!right) {
      await limits.failed(req, email)
      if (candidate) besideAnswer(req, () => auditFailure(req, candidate, 'senha'))
      return web.send(reply, 422, loginPage({ email: typed, error: LOGIN_FAILED }))
    }
    const who = candidate!
    if (who.usuarioEstado !== 'ativo' || who.clienteEstado !== 'ativo') {
      const customer = who.clienteEstado !== 'ativo'
      await auditFailure(req, who, customer ? 'cliente_suspenso' : 'usuario_inativo')
      return web.send(reply, 403, loginPage({ email: typed, error: customer ? LOGIN_SUSPENDED_CUSTOMER : LOGIN_SUSPENDED_USER }))
    }
    await endCookieSession(db, readSessionCookie(req, web.secure), { now: web.clock.now(), ...auditRequestIds(req), ip: req.ip })
    // A hash made with older parameters is replaced now, while the password is at hand (hashed outside the transaction).
    const rehashed = await web.hasher.needsRehash(who.senhaHash!) ? await web.hasher.hash(senha) : undefined
    const ctx = web.actionContext(req, { tipo: 'usuario', id: who.usuarioId })
    const { token } = await withTenant(db, who.clienteId, async (tx) => {
      if (rehashed) await rehashPassword(tx, who.usuarioId, rehashed)
      await appendAudit(tx, who.clienteId, ctx, 'login.sucesso', { alvoId: who.usuarioId })
      return createSession(tx, { clienteId: who.clienteId, usuarioId: who.usuarioId }, ctx, web.limits)
    })
    setSessionCookie(reply, token, web.secure)
    return reply.header('cache-control', 'no-store').redirect(ACCOUNT_PATHS.painel, 303)
  })

  async function auditFailure(req: FastifyRequest, who: LoginCandidate, motivo: string): Promise<void> {
    const ctx = web.actionContext(req, { tipo: 'usuario', id: who.usuarioId })
    await withTenant(db, who.clienteId, (tx) => appendAudit(tx, who.clienteId, ctx, 'login.falha', { alvoId: who.usuarioId, motivo }))
  }

  // Ends this browser's session. The CSRF token is asked for too, so another site cannot log a person out; a post
  // without a live session just drops the cookie.
  app.post(ACCOUNT_PATHS.sair, async (req, reply) => {
    const fields = formFields(req.body)
    if (!fields || !fromThisSite(req, web.publicUrl)) return web.send(reply, 403, messagePage(...FORM_REFUSED))
    const session = await web.session(req)
    if (session) {
      if (!web.csrf.verify(session.id, fields.get(CSRF_FIELD))) return web.send(reply, 403, messagePage(...FORM_REFUSED))
      const ctx = web.actionContext(req, { tipo: 'usuario', id: session.usuarioId })
      await withTenant(db, session.clienteId, (tx) => endSession(tx, { clienteId: session.clienteId, sessaoId: session.id }, ctx))
    }
    return signedOut(reply, web, 'saiu')
  })
}

/** Drops the cookie and goes to the login page with `aviso`. */
export function signedOut(reply: FastifyReply, web: Pick<WebContext, 'secure'>, aviso: keyof typeof NOTICES): FastifyReply {
  clearSessionCookie(reply, web.secure)
  return reply.header('cache-control', 'no-store').redirect(`${ACCOUNT_PATHS.entrar}?aviso=${aviso}`, 303)
}

// /conta/ativar, the invitation e-mail's link: trades the link's secret for a cookie and a clean URL
// (invitation-cookie.ts), shows who is being let in, takes the new password (the policy's refusals in words), uses
// the invitation, and logs the person in. A link that cannot be used any more gets a page saying why (unknown,
// used, expired, the customer suspended), never an error.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { getCustomer } from '../../credentials/index.ts'
import { passwordProblem } from '../../credentials/index.ts'
import { createSession } from '../../credentials/index.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { refusalOf } from '../../../platform/http/refusal.ts'
import { auditRequestIds } from '../../../platform/http/request-id.ts'
import { acceptInvitation, findInvitation, getUser, type FoundInvitation } from '../../credentials/index.ts'
import { field, formFields } from './form-body.ts'
import { FORM_REFUSED, INVITATION_TEXT, PASSWORD_MESSAGES, type InvitationProblem } from './messages.ts'
import { ACCOUNT_PATHS, INVITATION_PARAM } from './paths.ts'
import { fromThisSite } from './same-origin.ts'
import { endCookieSession } from './session.ts'
import { readSessionCookie, setSessionCookie } from './session-cookie.ts'
import { clearInvitationCookie, readInvitationCookie, setInvitationCookie } from './invitation-cookie.ts'
import { activationPage } from './sign-in-views.ts'
import { messagePage } from './view-parts.ts'
import type { WebContext } from './web-context.ts'

const CONTINUE_TEXT = ['Ativar o acesso', 'Abrindo o formulário de ativação…'] as const

const PROBLEM_STATUS: Record<InvitationProblem, number> = { desconhecido: 404, usado: 410, expirado: 410, suspenso: 403 }

export function activationRoutes(app: FastifyInstance, web: WebContext): void {
  const { db } = web

  const refuse = (reply: FastifyReply, problem: InvitationProblem) => {
    const [title, text] = INVITATION_TEXT[problem]
    const link = problem === 'usado' ? { href: ACCOUNT_PATHS.entrar, label: 'Entrar' } : { href: '/contato', label: 'Fale com o comercial' }
    return web.send(reply, PROBLEM_STATUS[problem], messagePage(title, text, link))
  }

  /** The invitation of `token` if it can still be used, else why not. */
  const usable = async (token: string): Promise<FoundInvitation | InvitationProblem> => {
    const inv = await findInvitation(db.orm, token)
    if (!inv) return 'desconhecido'
    if (inv.usadoEm) return 'usado'
    if (inv.expiraEm.getTime() <= web.clock.now().getTime()) return 'expirado'
    if (inv.clienteEstado !== 'ativo') return 'suspenso'
    return inv
  }

  const form = async (reply: FastifyReply, status: number, inv: FoundInvitation, error?: string) => {
    const [user, customer] = await withTenant(db, inv.clienteId,
      async (tx) => [await getUser(tx, inv.usuarioId), await getCustomer(tx, inv.clienteId)] as const)
    if (!user || !customer) return refuse(reply, 'desconhecido')
    return web.send(reply, status, activationPage({ nome: user.nome, email: user.email, cliente: customer.nome, error }))
  }

  app.get<{ Querystring: Record<string, string | undefined> }>(ACCOUNT_PATHS.ativar, async (req, reply) => {
    if (req.query[INVITATION_PARAM] !== undefined) {
      // The e-mail's link: a secret that can be used moves into the cookie, and the browser on to the clean URL.
      const token = String(req.query[INVITATION_PARAM])
      const inv = await usable(token)
      if (typeof inv === 'string') return refuse(reply, inv)
      setInvitationCookie(reply, token, web.secure)
      return reply.header('cache-control', 'no-store').header('referrer-policy', 'same-origin').redirect(ACCOUNT_PATHS.ativar, 303)
    }
    const token = readInvitationCookie(req, web.secure)
    if (token === undefined) {
      // Followed from another site (the webmail's link), the redirect is still that site's navigation, and a
      // SameSite=Strict cookie is not sent with it: the page reloads itself, a navigation of this site, which carries it.
      if (req.headers['sec-fetch-site'] === 'cross-site') return continueHere(reply)
      return refuse(reply, 'desconhecido')
    }
    const inv = await usable(token)
    if (typeof inv === 'string') return refuse(reply, inv)
    return form(reply, 200, inv)
  })

  /** A page that reloads itself at once (and a link to do it, should the browser not). */
  const continueHere = (reply: FastifyReply) => web.send(reply.header('refresh', `0; url=${ACCOUNT_PATHS.ativar}`), 200,
    messagePage(...CONTINUE_TEXT, { href: ACCOUNT_PATHS.ativar, label: 'Continuar' }))

  app.post(ACCOUNT_PATHS.ativar, async (req, reply) => {
    const fields = formFields(req.body)
    if (!fields || !fromThisSite(req, web.publicUrl)) return web.send(reply, 403, messagePage(...FORM_REFUSED))
    const token = readInvitationCookie(req, web.secure) ?? ''
    const inv = await usable(token)
    if (typeof inv === 'string') return refuse(reply, inv)
    const senha = field(fields, 'senha', 4096)
    const user = await withTenant(db, inv.clienteId, (tx) => getUser(tx, inv.usuarioId))
    if (!user) return refuse(reply, 'desconhecido')
    const problem = passwordProblem(senha, { email: user.email, nome: user.nome }, web.commonPasswords())
      ?? (senha === field(fields, 'senha_confirmacao', 4096) ? undefined : 'senha_diferente')
    if (problem) return form(reply, 422, inv, PASSWORD_MESSAGES[problem])
    const senhaHash = await web.hasher.hash(senha)
    // Whatever session this browser had (another person's, on a shared computer) ends: the new one replaces it.
    await endCookieSession(db, readSessionCookie(req, web.secure), { now: web.clock.now(), ...auditRequestIds(req), ip: req.ip })
    const ctx = web.actionContext(req, { tipo: 'usuario', id: inv.usuarioId })
    let session: string
    try {
      session = await withTenant(db, inv.clienteId, async (tx) => {
        await acceptInvitation(tx, inv, senhaHash, ctx)
        return (await createSession(tx, { clienteId: inv.clienteId, usuarioId: inv.usuarioId }, ctx, web.limits)).token
      })
    } catch (err) {
      // Used by a second tab (or a double click) between the check above and this transaction.
      if (refusalOf(err)?.code === 'convite_inutilizavel') return refuse(reply, 'usado')
      throw err
    }
    setSessionCookie(reply, session, web.secure)
    clearInvitationCookie(reply, web.secure)
    return reply.code(303).header('cache-control', 'no-store').redirect(ACCOUNT_PATHS.painel, 303)
  })
}

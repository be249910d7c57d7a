// The invitation's secret leaves the link's URL at once: the link's first answer moves it into this cookie and
// redirects to the bare /conta/ativar, so the secret is not left in the address bar, the history, a Referer, or a
// proxy's log line of the pages that follow. HttpOnly (no script reads it), SameSite=Strict (no other site's
// request carries it), sent to /conta/ativar alone, and short-lived: long enough to choose a password, and a link
// opened again makes a new one. Secure (with the `__Secure-` prefix) under the session cookie's rule.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { cookieValue } from '../../credentials/index.ts'
import { ACCOUNT_PATHS } from './paths.ts'

export const INVITATION_COOKIE_MAX_AGE_S = 30 * 60

export function invitationCookieName(secure: boolean): string {
  return secure ? '__Secure-convite' : 'convite'
}

export function readInvitationCookie(req: FastifyRequest, secure: boolean): string | undefined {
  return cookieValue(req.headers.cookie, invitationCookieName(secure))
}

export function setInvitationCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.header('set-cookie', `${serialize(token, secure)}; Max-Age=${INVITATION_COOKIE_MAX_AGE_S}`)
}

/** Once the invitation is used (or cannot be), the browser drops its secret. */
export function clearInvitationCookie(reply: FastifyReply, secure: boolean): void {
  reply.header('set-cookie', `${serialize('', secure)}; Max-Age=0`)
}

function serialize(value: string, secure: boolean): string {
  return `${invitationCookieName(secure)}=${value}; Path=${ACCOUNT_PATHS.ativar}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`
}

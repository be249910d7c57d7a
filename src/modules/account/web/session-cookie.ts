// Reading and writing the session cookie (name and attributes from src/modules/credentials/sessions/cookie.ts). The cookie has
// no Max-Age: the session's idle and absolute expiry are kept by the server (sessoes), and a closed browser
// forgets it sooner.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { cookieValue, sessionCookieAttributes, sessionCookieName } from '../../credentials/index.ts'

/** The cookie's value as sent, or undefined (also when repeated with different values: see cookieValue). */
export function readSessionCookie(req: FastifyRequest, secure: boolean): string | undefined {
  return cookieValue(req.headers.cookie, sessionCookieName(secure))
}

export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.header('set-cookie', serialize(sessionCookieName(secure), token, secure))
}

/** Tells the browser to drop the cookie (an expiry in the past). */
export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.header('set-cookie', `${serialize(sessionCookieName(secure), '', secure)}; Max-Age=0`)
}

function serialize(name: string, value: string, secure: boolean): string {
  const a = sessionCookieAttributes(secure)
  // The attributes' spelling is RFC 6265bis's; SameSite=Lax keeps the cookie off cross-site posts.
  return `${name}=${value}; Path=${a.path}; HttpOnly; SameSite=Lax${a.secure ? '; Secure' : ''}`
}

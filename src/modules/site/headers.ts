// Security headers of every site response (pages, Markdown, 404/406, assets, llms.txt…), never of the
// API's: the site's policy allows only this origin's files, no inline script or style, no framing.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { isApiPath } from '../../platform/http/gate.ts'

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** Paths outside /api that belong to someone else and keep their own headers. */
const NOT_SITE = new Set(['/openapi.json'])

export function isSitePath(url: string): boolean {
  if (isApiPath(url)) return false
  const q = url.indexOf('?')
  return !NOT_SITE.has(q === -1 ? url : url.slice(0, q))
}

export function securityHeaders(production: boolean): Record<string, string> {
  return {
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    ...(production ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  }
}

/** Adds `value` to the response's Vary unless it is there already. */
export function addVary(reply: FastifyReply, value: string): void {
  const current = String(reply.getHeader('vary') ?? '')
  const have = current.split(',').map((v) => v.trim().toLowerCase()).filter(Boolean)
  if (have.includes('*') || have.includes(value.toLowerCase())) return
  reply.header('vary', current ? `${current}, ${value}` : value)
}

/** An onSend hook for the root: site responses get the headers, whoever answered them (errors included). */
export function siteHeadersHook(production: boolean) {
  const headers = securityHeaders(production)
  const entries = Object.entries(headers)
  // A callback hook: it runs for every response, the API's too, and a promise each is measurable.
  return (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    if (isSitePath(req.url)) {
      for (const [k, v] of entries) if (!reply.hasHeader(k)) reply.header(k, v)
      addVary(reply, 'Accept')
    }
    done(null, payload)
  }
}

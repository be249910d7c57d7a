// The security headers (src/platform/http/security-headers.ts) on every site response (pages, Markdown, 404/406,
// assets, llms.txt…), never on the API's.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { isApiPath } from '../../platform/http/gate.ts'
import { securityHeaders } from '../../platform/http/security-headers.ts'

/** Paths outside /api that belong to someone else and keep their own headers. */
const NOT_SITE = new Set(['/openapi.json'])

export function isSitePath(url: string): boolean {
  if (isApiPath(url)) return false
  const q = url.indexOf('?')
  return !NOT_SITE.has(q === -1 ? url : url.slice(0, q))
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

// The Origin check of every state-changing form of the web app (with the CSRF token where a session exists):
// a post counts only when the browser says it comes from a page of this site. Browsers send Origin on every
// POST; when a privacy tool removed it, Referer stands in; with neither the post is refused, since the account's
// forms (unlike the public contact form) have nothing to lose by being strict.
import type { FastifyRequest } from 'fastify'

/**
 * True when the post's Origin (or, without one, its Referer) is this site: PUBLIC_URL when it is set, whatever Host
 * the request names (a client chooses its Host, and a proxy may pass it on); without it (a development server), the
 * origin the request was addressed to.
 */
export function fromThisSite(req: FastifyRequest, publicUrl: string | undefined): boolean {
  const claimed = originOf(req.headers.origin) ?? originOf(req.headers.referer)
  if (!claimed) return false
  return claimed === (publicUrl ?? originOf(`${req.protocol}://${req.host}`))
}

function originOf(value: string | undefined): string | undefined {
  if (!value || value === 'null') return undefined
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined
  } catch {
    return undefined
  }
}

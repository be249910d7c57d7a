// Handing a reply to the MCP transport, which writes to the Node response itself (reply.hijack()). A hijacked
// reply skips Fastify's onSend hooks and never sends the headers the onRequest hooks put on it (they wait in the
// reply until it is sent): so those are written on the raw response here, before the transport writes its own.
// They are the request id, the CORS answer of /api (src/platform/http/cors.ts), the rate limiter's and the guard's
// (DPoP-Nonce); the response also gets the security headers, as an API answer that is never cached.
import type { FastifyReply } from 'fastify'
import { securityHeaders } from '../../platform/http/security-headers.ts'

export function mcpResponseHeaders(production: boolean): Record<string, string> {
  return { ...securityHeaders(production), 'cache-control': 'no-store' }
}

export function hijackWithHeaders(reply: FastifyReply, own: Record<string, string>): void {
  const headers = { ...own, ...reply.getHeaders() }
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) reply.raw.setHeader(name, value as string | number | string[])
  reply.hijack()
}

// A sane incoming X-Request-ID is kept (so a trace spans the load balancer and us), anything else replaced. A kept
// id is still the client's claim (any client may send any id, another request's included): where the service keeps a
// record, the audit trail, the request also gets an id of the service's own, and the client's is kept beside it.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { RequestGuard } from './request-guards.ts'

/** What a request id may be, wherever one is taken from outside (a header, a caller of the outbox). */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/

const CLIENT_GIVEN = Symbol('the request id is the client\'s X-Request-ID')
const OWN_ID = Symbol('the service\'s own id of a request whose client named it')
type Marked = { [CLIENT_GIVEN]?: true, [OWN_ID]?: string }

export function requestIdFrom(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id']
  if (typeof incoming !== 'string' || !REQUEST_ID_PATTERN.test(incoming)) return randomUUID()
  ;(req as Marked)[CLIENT_GIVEN] = true
  return incoming
}

/**
 * The ids an audit row keeps: `requestId` the service's own (the request id when the service made it, else a UUID
 * made on first use and kept for the request), `requestIdCliente` the client's X-Request-ID when one was kept.
 */
export function auditRequestIds(req: { id: string, raw: object }): { requestId: string, requestIdCliente: string | null } {
  const raw = req.raw as Marked
  if (!raw[CLIENT_GIVEN]) return { requestId: req.id, requestIdCliente: null }
  return { requestId: (raw[OWN_ID] ??= randomUUID()), requestIdCliente: req.id }
}

/** The service's own id of a request whose client named it, once an audit row used it (for the access log line). */
export function ownRequestId(req: { raw: object }): string | undefined {
  return (req.raw as Marked)[OWN_ID]
}

/** Every answer carries its request id, errors included: what a client quotes when it asks us. */
export const echoRequestId: RequestGuard = (req, reply) => {
  reply.header('x-request-id', req.id)
  return undefined
}

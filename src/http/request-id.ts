// A sane incoming X-Request-ID is kept (so a trace spans the load balancer and us), anything else replaced.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { RequestGuard } from './request-guards.ts'

/** What a request id may be, wherever one is taken from outside (a header, a caller of the outbox). */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/

export function requestIdFrom(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id']
  return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID()
}

/** Every answer carries its request id, errors included: what a client quotes when it asks us. */
export const echoRequestId: RequestGuard = (req, reply) => {
  reply.header('x-request-id', req.id)
  return undefined
}

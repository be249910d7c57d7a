// A sane incoming X-Request-ID is kept (so a trace spans the load balancer and us), anything else replaced.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { RequestGuard } from './request-guards.ts'

const SANE = /^[A-Za-z0-9._-]{1,128}$/

export function requestIdFrom(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id']
  return typeof incoming === 'string' && SANE.test(incoming) ? incoming : randomUUID()
}

/** Every answer carries its request id, errors included: what a client quotes when it asks us. */
export const echoRequestId: RequestGuard = (req, reply) => {
  reply.header('x-request-id', req.id)
  return undefined
}

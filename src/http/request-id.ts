// A sane incoming X-Request-ID is kept (so a trace spans the load balancer and us), anything else replaced.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { FastifyInstance } from 'fastify'

const SANE = /^[A-Za-z0-9._-]{1,128}$/

export function requestIdFrom(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id']
  return typeof incoming === 'string' && SANE.test(incoming) ? incoming : randomUUID()
}

export function echoRequestId(app: FastifyInstance): void {
  // A callback hook, not an async one: this runs on every request, and a promise per request is measurable.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id)
    done()
  })
}

// Slow and idle clients: deadlines for a request's headers and for the whole request, an idle keep-alive
// deadline longer than the load balancer's, and a cap on open connections, so a few hundred clients that
// trickle bytes (slowloris) cannot hold the instance.
import type { ServerOptions } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { problem } from './problem.ts'
import type { RequestGuard } from './request-guards.ts'

export type HttpServerLimits = {
  /** The request line and headers must arrive within this (Node answers 408 and closes). */
  headersTimeoutMs: number
  /** The whole request, body included (at most 64 KiB here), must arrive within this. */
  requestTimeoutMs: number
  /**
   * An idle keep-alive connection is closed after this. Longer than nginx's upstream `keepalive_timeout`
   * (60 s) so the balancer always closes first and never reuses a connection we are closing.
   */
  keepAliveTimeoutMs: number
  /** Connections beyond this are refused at accept (closed at once) until others close. */
  maxConnections: number
}

export function serverOptions(limits: HttpServerLimits): { requestTimeout: number, keepAliveTimeout: number, http: ServerOptions } {
  return {
    // Fastify copies its own requestTimeout onto the server (its default, 0, would switch Node's off).
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node enforces both deadlines only when it sweeps its connections (every 30 s by default): sweep often
      // enough that a slow client is cut close to its deadline.
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
      // Node's own refusal of an HTTP/1.1 request without Host is a bare 400: the hook below answers it instead.
      requireHostHeader: false,
    },
  }
}

/** What is set on the server once it exists, and a refusal Node would otherwise answer without a body. */
export function configureServer(app: FastifyInstance, limits: HttpServerLimits): void {
  const server = app.server as import('node:http').Server
  server.maxConnections = limits.maxConnections
  // Node answers an Expect other than 100-continue with a bare 417 (no body, no request id). The expectation
  // is one a server may ignore (RFC 9110 §10.1.1): the request gets its ordinary answer instead.
  server.on('checkExpectation', (req, res) => server.emit('request', req, res))
}

/** HTTP/1.1 requires Host (RFC 9112 §3.2): 400, in the contract's shape (Node's own refusal is off, above). */
export const requireHost: RequestGuard = (req) =>
  req.raw.httpVersion === '1.1' && req.headers.host === undefined ? problem('requisicao_invalida') : undefined

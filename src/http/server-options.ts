// Slow and idle clients: deadlines for a request's headers and for the whole request, an idle keep-alive
// deadline longer than the load balancer's, and a cap on open connections, so a few hundred clients that
// trickle bytes (slowloris) cannot hold the instance.
import type { ServerOptions } from 'node:http'

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
    },
  }
}

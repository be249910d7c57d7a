// Per-IP rate limits on /api routes: in memory, or in Redis so that every instance shares one budget.
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import { problem } from './problem.ts'
import type { RequestGuard } from './request-guards.ts'
import { fallbackStoreClass, type RedisAvailability } from './rate-limit-store.ts'
import type { Budget } from './rate-limit-config.ts'

export type RateLimitDeps = {
  redis: Redis | undefined
  /** Follows the Redis connection; while it is down each instance counts in its own memory. */
  availability: RedisAvailability | undefined
  isAllowlisted: (ip: string) => boolean
  /** Redis key prefix; tests give each app its own so their budgets do not mix. */
  nameSpace: string
  /** Told of every request refused with 429 (the metrics' rate-limit rejections). */
  onExceeded?: (req: FastifyRequest) => void
}

/**
 * A request Node parsed from bytes that arrived just before its client reset the connection has no address:
 * nobody is left to answer and there is no IP to count (the plugin would throw: an unexpected 500).
 */
export const requireClientAddress: RequestGuard = (req) =>
  req.socket.remoteAddress === undefined ? problem('requisicao_invalida') : undefined

export const rateLimits = fp(async (app: FastifyInstance, deps: RateLimitDeps) => {
  await app.register(rateLimit, {
    global: false, // each /api route names its budget (rateLimitFor) in its config
    // A Redis outage must neither take the API down nor lift the limits: the store falls back to memory.
    ...(deps.redis && deps.availability ? { store: fallbackStoreClass(deps.redis, deps.nameSpace, deps.availability) } : {}),
    enableDraftSpec: true,
    // The plugin's own key: the client IP, IPv6 taken by its /64 (one allocation is one client).
    allowList: (req) => deps.isAllowlisted(req.ip),
    ...(deps.onExceeded ? { onExceeded: deps.onExceeded } : {}),
    // Retry-After and RateLimit-* are on the reply already; the plugin throws what this returns.
    errorResponseBuilder: () => problem('limite_de_requisicoes'),
  })
}, { name: 'rate-limit' })

export function rateLimitFor(budget: Budget) {
  return { max: budget.max, timeWindow: budget.windowSeconds * 1000 }
}

export type KeyedLimit = (req: FastifyRequest) => Promise<{ exceeded: false } | { exceeded: true, retryAfterSeconds: number, limit: number }>

/**
 * A budget counted per `key(req)` (a credential's id) in the same store as the per-IP ones, for a caller to apply
 * after the route's per-IP limit (which marks the request as limited: the plugin's own hook would not run twice).
 * The IP allowlist does not lift it (a credential's share is its own, wherever it calls from), unless the key is the
 * address's (`perAddress`), as the per-IP budgets are.
 */
export function keyedLimit(
  app: FastifyInstance, budget: Budget, key: (req: FastifyRequest) => string, onExceeded?: (req: FastifyRequest) => void, perAddress = false,
): KeyedLimit {
  const limit = app.createRateLimit({ ...rateLimitFor(budget), keyGenerator: key, ...(perAddress ? {} : { allowList: () => false }) })
  return async (req) => {
    const result = await limit(req)
    if (result.isAllowed || !result.isExceeded) return { exceeded: false }
    onExceeded?.(req)
    return { exceeded: true, retryAfterSeconds: result.ttlInSeconds, limit: result.max }
  }
}

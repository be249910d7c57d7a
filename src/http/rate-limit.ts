// Per-IP rate limits on /api routes: in memory, or in Redis so that every instance shares one budget.
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import type { Redis } from 'ioredis'
import { HttpProblem } from './problem.ts'
import type { Budget } from './rate-limit-config.ts'

export type RateLimitDeps = {
  redis: Redis | undefined
  isAllowlisted: (ip: string) => boolean
  /** Redis key prefix; tests give each app its own so their budgets do not mix. */
  nameSpace: string
}

export async function registerRateLimit(app: FastifyInstance, deps: RateLimitDeps): Promise<void> {
  // A request Node parsed from bytes that arrived just before its client reset the connection has no address:
  // nobody is left to answer and there is no IP to count (the plugin would throw: an unexpected 500).
  app.addHook('onRequest', (req, _reply, done) => {
    done(req.socket.remoteAddress === undefined ? new HttpProblem(400, 'requisicao_invalida') : undefined)
  })
  await app.register(rateLimit, {
    global: false, // each /api route names its budget (rateLimitFor) in its config
    ...(deps.redis ? { redis: deps.redis, nameSpace: deps.nameSpace } : {}),
    // A Redis outage must not take the API down with it: serve unlimited until it returns.
    skipOnError: true,
    enableDraftSpec: true,
    // The plugin's own key: the client IP, IPv6 taken by its /64 (one allocation is one client).
    allowList: (req) => deps.isAllowlisted(req.ip),
    errorResponseBuilder: (_req, ctx) => new HttpProblem(ctx.statusCode, 'limite_de_requisicoes'),
  })
}

export function rateLimitFor(budget: Budget) {
  return { max: budget.max, timeWindow: budget.windowSeconds * 1000 }
}

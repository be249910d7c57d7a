// The small checks and fix-ups every request passes on arrival, run by one onRequest hook: each hook
// Fastify runs per request has a cost of its own, and these are a few comparisons each.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

/** Returns an error to answer the request with (through the error handler), or nothing to let it on. */
export type RequestGuard = (req: FastifyRequest, reply: FastifyReply) => Error | undefined

export const requestGuards = fp(async (app: FastifyInstance, opts: { guards: RequestGuard[] }) => {
  const { guards } = opts
  // A callback hook: no promise per request on the hot path.
  app.addHook('onRequest', (req, reply, done) => {
    for (const guard of guards) {
      const refused = guard(req, reply)
      if (refused) return done(refused)
    }
    done()
  })
}, { name: 'request-guards' })

// Load shedding: when the event loop lags or memory nears its limit, answer 503 at once (cheap, with
// Retry-After) instead of queueing work the process cannot finish in time. Liveness is exempt: a
// liveness probe failing under load gets the instance killed and its load moved onto the others, which
// makes the overload worse. Readiness is not exempt: taking a pressed instance out of rotation is the point.
import underPressure from '@fastify/under-pressure'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { problem } from './problem.ts'

export type OverloadConfig = {
  /** Mean event-loop delay (ms) over a sample above which requests are shed; 0: not checked. */
  maxEventLoopDelayMs: number
  /** V8 heap in use (bytes) above which requests are shed; 0: not checked. */
  maxHeapUsedBytes: number
  /** Resident memory (bytes) above which requests are shed; 0: not checked. */
  maxRssBytes: number
  sampleMs: number
  retryAfterSeconds: number
}

const LIVENESS = '/api/health'

export const overload = fp(async (app: FastifyInstance, config: OverloadConfig) => {
  // The first sample after start-up measures start-up (compiling, migrating, the first status), not load:
  // shedding only begins once a sample taken after ready has replaced it.
  const armed = { now: false }
  app.addHook('onReady', async () => {
    setTimeout(() => { armed.now = true }, config.sampleMs * 2).unref()
  })
  await app.register(underPressure, {
    maxEventLoopDelay: config.maxEventLoopDelayMs,
    maxHeapUsedBytes: config.maxHeapUsedBytes,
    maxRssBytes: config.maxRssBytes,
    sampleInterval: config.sampleMs,
    retryAfter: config.retryAfterSeconds,
    pressureHandler: shed(config.retryAfterSeconds, armed),
  })
}, { name: 'overload', dependencies: ['request-guards'] }) // a shed answer still names its request (echoRequestId)

/**
 * Returning nothing lets the request through; returning a value sends it (documented in the plugin's
 * README), after the status and Retry-After set here. Its types say void, which a function returning a
 * value satisfies: hence the declared return type.
 */
function shed(retryAfterSeconds: number, armed: { now: boolean }): (req: FastifyRequest, reply: FastifyReply) => void {
  // Built once: shedding must stay cheap, and the answer never changes.
  const answer = problem('servico_indisponivel', { 'retry-after': String(retryAfterSeconds) })
  return (req, reply) => {
    if (!armed.now || req.routeOptions.url === LIVENESS) return undefined
    reply.code(answer.statusCode).headers(answer.headers)
    return answer.body
  }
}

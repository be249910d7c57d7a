// The credential gate: everything under /api outside the public set answers 401, whether or not a route
// exists behind it (so guessing paths teaches nothing). A public path with the wrong method answers 405.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { problem, sendProblem } from './problem.ts'
import type { Budget } from './rate-limit-config.ts'
import { rateLimitFor } from './rate-limit.ts'

/** Public /api paths and their methods, as the routes registered them (HEAD comes with GET). */
type PublicRoutes = Map<string, Set<string>>

type Answer = (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>

export type GateOptions = {
  /** The per-IP budget of the answers under /api outside the public set. */
  budget: Budget
  /** Answers a path outside /api that no route serves (the website's 404 page). */
  notFound: Answer
}

const UNAUTHENTICATED = problem('nao_autenticado')

/**
 * Registered before the routes (they declare it as a dependency), so that it sees each public route as it is
 * added; the catch-all routes below lose to any more specific route whatever the order.
 */
export const gate = fp(async (app: FastifyInstance, opts: GateOptions) => {
  const answer = gateAnswer(collectPublicRoutes(app))
  const budget = rateLimitFor(opts.budget)
  for (const url of ['/api', '/api/*']) {
    app.all(url, {
      schema: { hide: true },
      config: { rateLimit: budget },
      // preParsing: answer before the body is read, so a large or oddly typed body still gets the 401.
      preParsing: answer,
    }, async () => { throw new Error('unreachable: the gate answers in preParsing') })
  }
  // Methods Fastify cannot route (SEARCH, PROPFIND…) land here: under /api they get the gate's answer too.
  app.setNotFoundHandler({ preHandler: app.rateLimit(budget) }, async (req, reply) => {
    if (isApiPath(req.url)) return answer(req, reply)
    return opts.notFound(req, reply)
  })
}, { name: 'gate', dependencies: ['rate-limit'] })

function collectPublicRoutes(app: FastifyInstance): PublicRoutes {
  const routes: PublicRoutes = new Map()
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.includes('*')) return
    const methods = routes.get(route.url) ?? new Set<string>()
    for (const m of [route.method].flat()) methods.add(m)
    if (methods.has('GET')) methods.add('HEAD')
    routes.set(route.url, methods)
  })
  return routes
}

function gateAnswer(publicRoutes: PublicRoutes): Answer {
  return async (req, reply) => {
    const allowed = publicRoutes.get(normalizePath(req.url))
    if (allowed && !allowed.has(req.method)) {
      return sendProblem(reply, problem('metodo_nao_permitido', { allow: [...allowed].join(', ') }))
    }
    return sendProblem(reply, UNAUTHENTICATED)
  }
}

export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')
}

function normalizePath(url: string): string {
  const path = url.split('?')[0]!.replace(/\/{2,}/g, '/')
  return path.length > 1 ? path.replace(/\/$/, '') : path
}

// The credential gate: everything under /api outside the public set answers 401, whether or not a route
// exists behind it (so guessing paths teaches nothing). A public path with the wrong method answers 405.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Budget } from './rate-limit-config.ts'
import { rateLimitFor } from './rate-limit.ts'

/** Public /api paths and their methods, as the routes registered them (HEAD comes with GET). */
export type PublicRoutes = Map<string, Set<string>>

export function collectPublicRoutes(app: FastifyInstance): PublicRoutes {
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

export type Gate = (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>

export function makeGate(publicRoutes: PublicRoutes): Gate {
  return async (req, reply) => {
    const allowed = publicRoutes.get(normalizePath(req.url))
    if (allowed && !allowed.has(req.method)) {
      return reply.code(405).header('allow', [...allowed].join(', ')).send({ detail: 'metodo_nao_permitido' })
    }
    return reply.code(401).header('www-authenticate', 'Bearer realm="api"').send({ detail: 'nao_autenticado' })
  }
}

/** Routes every method Fastify knows under /api to the gate; the not-found handler sends it the rest. */
export function registerGate(app: FastifyInstance, gate: Gate, budget: Budget): void {
  for (const url of ['/api', '/api/*']) {
    app.all(url, {
      schema: { hide: true },
      config: { rateLimit: rateLimitFor(budget) },
      // preParsing: answer before the body is read, so a large or oddly typed body still gets the 401.
      preParsing: gate,
    }, async () => { throw new Error('unreachable: the gate answers in preParsing') })
  }
}

export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')
}

function normalizePath(url: string): string {
  const path = url.split('?')[0]!.replace(/\/{2,}/g, '/')
  return path.length > 1 ? path.replace(/\/$/, '') : path
}

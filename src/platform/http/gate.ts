// The credential gate: everything under /api outside the public set answers 401 without a valid credential,
// whether or not a route exists behind it (so guessing paths teaches nothing); with one, a path no route serves
// answers 404. A public path with the wrong method answers 405. A route that needs a credential says so in its
// config (`credencial`), and the gate puts the guard in front of it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { problem, sendProblem } from './problem.ts'
import type { Budget } from './rate-limit-config.ts'
import { rateLimitFor } from './rate-limit.ts'

/** Public /api paths and their methods, as the routes registered them (HEAD comes with GET). */
type PublicRoutes = Map<string, Set<string>>

type Answer = (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>

/** What a route asks of the credential. */
export type Need = {
  escopo?: string
  /**
   * The route changes nothing although its method is not GET (a simulation): a role that only reads the scope's
   * area may call it. Otherwise GET and HEAD read and every other method changes.
   */
  somenteLeitura?: boolean
  /** A personal access token only: the site's session cookie is not looked at (the MCP server). */
  apenasToken?: boolean
  /** The resource's path when it has an RFC 9728 metadata document: its refusals name it (`resource_metadata`). */
  recurso?: string
}

/**
 * The credential layer's check (src/modules/credentials/http/guard.ts): true when the request has a credential, with the scope
 * `need.escopo` when given, and goes on; false when the guard answered it (401, 403, 429, 503).
 */
export type Guard = (req: FastifyRequest, reply: FastifyReply, need?: Need) => Promise<boolean>

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs a credential (with this scope, when given): it is not public, and the guard runs first. */
    credencial?: Need
  }
}

export type GateOptions = {
  /** The per-IP budget of the answers under /api outside the public set. */
  budget: Budget
  /** Answers a path outside /api that no route serves (the website's 404 page). */
  notFound: Answer
  guard: Guard
}

const NOT_FOUND = problem('nao_encontrado')

/**
 * Registered before the routes (they declare it as a dependency), so that it sees each public route as it is
 * added; the catch-all routes below lose to any more specific route whatever the order.
 */
export const gate = fp(async (app: FastifyInstance, opts: GateOptions) => {
  const answer = gateAnswer(collectPublicRoutes(app), opts.guard)
  guardCredentialRoutes(app, opts.guard)
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
    if (!route.url.startsWith('/api/') || route.url.includes('*') || route.config?.credencial) return
    const methods = routes.get(route.url) ?? new Set<string>()
    for (const m of [route.method].flat()) methods.add(m)
    if (methods.has('GET')) methods.add('HEAD')
    routes.set(route.url, methods)
  })
  return routes
}

/** The guard before the body is read (preParsing, as the gate's own answer), first of the route's hooks. */
function guardCredentialRoutes(app: FastifyInstance, guard: Guard): void {
  // The HEAD route Fastify adds for a GET is made from the GET's options, hook included: never guard twice (a
  // DPoP proof is good once).
  const guards = new WeakSet<object>()
  app.addHook('onRoute', (route) => {
    const need = route.config?.credencial
    const hooks = [route.preParsing ?? []].flat()
    if (!need || hooks.some((h) => guards.has(h))) return
    const hook = async (req: FastifyRequest, reply: FastifyReply) => ((await guard(req, reply, need)) ? undefined : reply)
    guards.add(hook)
    route.preParsing = [hook, ...hooks]
  })
}

function gateAnswer(publicRoutes: PublicRoutes, guard: Guard): Answer {
  return async (req, reply) => {
    const allowed = publicRoutes.get(normalizePath(req.url))
    if (allowed && !allowed.has(req.method)) {
      return sendProblem(reply, problem('metodo_nao_permitido', { allow: [...allowed].join(', ') }))
    }
    if (!await guard(req, reply)) return reply
    return sendProblem(reply, NOT_FOUND)
  }
}

export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')
}

function normalizePath(url: string): string {
  const path = url.split('?')[0]!.replace(/\/{2,}/g, '/')
  return path.length > 1 ? path.replace(/\/$/, '') : path
}

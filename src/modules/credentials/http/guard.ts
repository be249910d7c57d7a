// The credential guard of every /api path outside the public set: finds the request's credential (a token in
// `Authorization`, else the site's session cookie unless the route takes tokens only), answers a refusal itself
// (naming the route's RFC 9728 document when it has one), counts the credential's own rate budget, checks the
// scope the route needs, and leaves the credential on the request for the route. Every answer it guards, its own
// refusals, the route's answer and its errors alike, is `Cache-Control: no-store`: a credential's view of an account
// must not be kept by a browser or a shared cache, and a route added behind a credential gets this without asking.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { holdTurn, type CustomerTurns } from '../../../platform/http/customer-turns.ts'
import type { Guard, Need } from '../../../platform/http/gate.ts'
import { DATABASE_UNAVAILABLE } from '../../../platform/http/errors.ts'
import { problem, sendProblem } from '../../../platform/http/problem.ts'
import type { KeyedLimit } from '../../../platform/http/rate-limit.ts'
import { parseAuthorization } from './authorization.ts'
import { headerValues, type CheckResult, type Credential } from './credential.ts'
import { checkPat, type PatDeps } from './pat.ts'
import type { Refusals } from './refusals.ts'
import { resourceMetadataUrl } from './resource-metadata.ts'
import { checkSession, type SessionDeps } from './session.ts'
import { permits } from '../roles.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the credential guard once the request's credential is accepted. */
    credential: Credential | null
  }
}

/**
 * `limiter`: the credential's own budget (keyedLimit, src/platform/http/rate-limit.ts). `refusalLimiter`: the budget
 * of an address's 401 answers, counted across every route (a route's own per-address budget is for reads, five times
 * larger: guessing at tokens must not get it). `refusalsFor`: the refusals that name a resource's metadata document
 * (given its URL), for routes that declare `recurso`.
 */
export type GuardDeps = PatDeps & SessionDeps & {
  limiter?: KeyedLimit
  refusalLimiter?: KeyedLimit
  refusalsFor?: (resourceMetadata: string) => Refusals
  /** One customer's requests take turns (src/platform/http/customer-turns.ts), taken once the credential may go on. */
  turns?: CustomerTurns
}

/** The gate's Guard: true when the request goes on with `req.credential` set; false when it has answered it. */
export type CredentialGuard = Guard

export function makeCredentialGuard(guardDeps: GuardDeps): CredentialGuard {
  // One set of dependencies per resource with a metadata document (there are few): its refusals name it.
  const byResource = new Map<string, GuardDeps>()
  const depsFor = (need: Need): GuardDeps => {
    if (need.recurso === undefined || !guardDeps.refusalsFor) return guardDeps
    let deps = byResource.get(need.recurso)
    if (!deps) {
      deps = { ...guardDeps, refusals: guardDeps.refusalsFor(resourceMetadataUrl(guardDeps.publicUrl, need.recurso)) }
      byResource.set(need.recurso, deps)
    }
    return deps
  }

  const check = async (req: FastifyRequest, deps: GuardDeps, need: Need): Promise<CheckResult> => {
    const auth = parseAuthorization(headerValues(req, 'authorization'))
    if (auth.ok) return checkPat(req, auth, deps)
    if (auth.failure === 'multiple') return { ok: false, answer: deps.refusals.invalidToken('Bearer', 'send one Authorization header') }
    if (auth.failure === 'malformed') {
      const scheme = /^\s*dpop\b/i.test(String(req.headers.authorization)) ? 'DPoP' : 'Bearer'
      return { ok: false, answer: deps.refusals.invalidToken(scheme, 'Authorization must be "Bearer <token>" or "DPoP <token>"') }
    }
    // None, or a scheme of no credential of ours (Basic…): the site's session, if any, where the route takes one.
    if (need.apenasToken) return { ok: false, answer: deps.refusals.unauthenticated }
    return await checkSession(req, deps) ?? { ok: false, answer: deps.refusals.unauthenticated }
  }

  return async (req, reply, need = {}) => {
    reply.header('cache-control', 'no-store')
    const deps = depsFor(need)
    let result: CheckResult
    try {
      result = await check(req, deps, need)
    } catch (err) {
      // The database did not answer the lookup: the caller may retry, so 503 rather than the 500 of a fault of
      // ours; logged by its code alone (a query's message may quote the token's hash or the cookie).
      req.log.error({ code: (err as { code?: string }).code }, 'credential check failed: database unavailable')
      sendProblem(reply, DATABASE_UNAVAILABLE)
      return false
    }
    if (result.headers) reply.headers(result.headers)
    if (!result.ok) {
      const limit = result.answer.statusCode === 401 ? await deps.refusalLimiter?.(req) : undefined
      if (!limit?.exceeded) sendProblem(reply, result.answer)
      else {
        // The RateLimit-* the route's own budget set would say requests remain: these are the budget that refused it.
        const reset = String(limit.retryAfterSeconds)
        reply.headers({ 'retry-after': reset, 'ratelimit-limit': String(limit.limit), 'ratelimit-remaining': '0', 'ratelimit-reset': reset })
        sendProblem(reply, problem('limite_de_requisicoes'))
      }
      return false
    }
    const credential = result.credential
    req.credential = credential
    const limit = await deps.limiter?.(req)
    if (limit?.exceeded) {
      sendProblem(reply.header('retry-after', String(limit.retryAfterSeconds)), problem('limite_de_requisicoes'))
      return false
    }
    if (need.escopo && !(credential.escopos as readonly string[]).includes(need.escopo)) {
      const scheme = credential.kind === 'sessao' ? undefined : credential.dpop ? 'DPoP' : 'Bearer'
      sendProblem(reply, deps.refusals.insufficientScope(scheme, need.escopo))
      return false
    }
    if (need.escopo && credential.papel && !permits(credential.papel, need.escopo, changes(req.method, need))) {
      sendProblem(reply, problem('papel_insuficiente'))
      return false
    }
    return deps.turns ? takeTurn(deps.turns, credential.clienteId, reply) : true
  }
}

const TURN_REFUSED = problem('requisicoes_simultaneas', { 'retry-after': '1' })

/** Waits for the customer's turn; the turn ends when the answer is sent or the client goes away. */
async function takeTurn(turns: CustomerTurns, clienteId: string, reply: FastifyReply): Promise<boolean> {
  // A client that went while its credential was checked has closed already: `close` will not be emitted again, so a
  // turn taken now would never come back (the bench's two-customer runs lost every turn of a customer this way).
  if (reply.raw.destroyed) {
    sendProblem(reply, TURN_REFUSED)
    return false
  }
  const gone = new AbortController()
  const onClose = () => gone.abort()
  reply.raw.once('close', onClose)
  const turn = await turns.take(clienteId, gone.signal)
  reply.raw.off('close', onClose)
  // A client gone while it waited is answered too (the bytes go nowhere), so the request ends as any refused one.
  if (turn.ok && gone.signal.aborted) turn.release()
  if (!turn.ok || gone.signal.aborted) {
    sendProblem(reply, TURN_REFUSED)
    return false
  }
  reply.raw.once('close', turn.release)
  holdTurn(reply.request, turn.release)
  return true
}

/** Whether a request to a route with this need changes data, for the role's check: every method but GET and HEAD. */
export function changes(method: string, need: Need): boolean {
  return !need.somenteLeitura && method !== 'GET' && method !== 'HEAD'
}

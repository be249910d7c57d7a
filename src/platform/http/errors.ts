// The one error handler: every error becomes an answer of the catalogue (problemOf), sent as JSON, or as a
// website page on a path outside the API; never a stack. Paths Fastify cannot even decode are answered by
// frameworkErrorHandler, through the same factory.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { isApiPath } from './gate.ts'
import { errorFacts } from '../lib/log-safety.ts'
import { databaseUnavailable } from '../db/unavailable.ts'
import { HttpProblem, problem, sendProblem, type ProblemAnswer } from './problem.ts'
import { refusalOf } from './refusal.ts'
import { fromAjv, RequestValidationError, schemaFieldOrder, type AjvError, type ValidationPart } from './validation-errors.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body schema's property names in order, recorded when the route is registered (422 item order). */
    bodyFields?: string[]
  }
}

/** Renders an error as a website page (HTML or Markdown) for a path outside the API, or declines. */
export type ErrorPage = (err: unknown, req: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined

const BAD_REQUEST = problem('requisicao_invalida')
const TOO_LARGE = problem('corpo_muito_grande')
const RATE_LIMITED = problem('limite_de_requisicoes')
const INTERNAL = problem('erro_interno')
/** A database that did not answer: the client may retry (also the credential guard's answer, src/modules/credentials/http/guard.ts). */
export const DATABASE_UNAVAILABLE = problem('banco_indisponivel', { 'retry-after': '5' })

/** What the contract answers for `err`: its own answer, a domain refusal's, a 422 from a schema failure, or a catalogue code. */
export function problemOf(err: unknown, req: FastifyRequest): ProblemAnswer {
  if (err instanceof HttpProblem || err instanceof RequestValidationError) return err
  const refused = refusalOf(err)
  if (refused) return refused.answer
  const fe = err as Partial<FastifyError>
  if (fe.validation) {
    const part = (fe.validationContext ?? 'body') as ValidationPart
    const input = { body: req.body, querystring: req.query, params: req.params, headers: req.headers }[part]
    return new RequestValidationError(fromAjv(fe.validation as AjvError[], part, input, req.routeOptions.config.bodyFields))
  }
  // Other errors Fastify raises: a body over the limit, anything else the client got wrong, or our fault.
  if (fe.statusCode === 413) return TOO_LARGE
  if (fe.statusCode === 429) return RATE_LIMITED
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) return BAD_REQUEST
  // A handler's query that timed out (DB_TIMEOUT_MS) or lost its connection: the client may retry.
  if (databaseUnavailable(err)) return DATABASE_UNAVAILABLE
  return INTERNAL
}

export type ErrorHandlerOptions = {
  /** The website's renderer of errors on its paths (a visitor's browser gets a page, not JSON). */
  page?: ErrorPage
}

export const errorHandler = fp(async (app: FastifyInstance, opts: ErrorHandlerOptions) => {
  // pydantic reports a body's errors in model order; Ajv reports `required` first. The order is read from the
  // route's body schema once, here, so an error never has to look the schema up.
  app.addHook('onRoute', function (this: FastifyInstance, route) {
    const fields = schemaFieldOrder(route.schema?.body, (id) => this.getSchema(id))
    if (fields.length) route.config = { ...route.config, bodyFields: fields }
  })
  app.setErrorHandler((err, req, reply) => {
    if (opts.page && !isApiPath(req.url) && !req.url.startsWith('/openapi.json')) {
      const rendered = opts.page(err, req, reply)
      if (rendered) return rendered
    }
    const answer = problemOf(err, req)
    if (answer === INTERNAL) req.log.error(errorFacts(err), 'unexpected error')
    else if (answer === DATABASE_UNAVAILABLE) req.log.error(errorFacts(err), 'database unavailable')
    return sendProblem(reply, answer)
  })
}, { name: 'error-handler' })

/**
 * Fastify's `frameworkErrors`: a path that cannot be decoded (/api/%zz) never reaches the router or the hooks.
 * Under /api it gets the gate's 401 (`unauthenticated`, with the credential layer's challenges); elsewhere a 400
 * with the website's headers (`siteHeaders`).
 */
export function frameworkErrorHandler(siteHeaders: Readonly<Record<string, string>>, unauthenticated: ProblemAnswer) {
  return (_err: FastifyError, req: FastifyRequest, reply: FastifyReply): void => {
    reply.header('x-request-id', req.id)
    if (isApiPath(req.url)) {
      sendProblem(reply, unauthenticated)
      return
    }
    sendProblem(reply.headers(siteHeaders).header('vary', 'Accept'), BAD_REQUEST)
  }
}

// The one error handler: 422 in FastAPI's shape, every other error as {"detail": code}, never a stack.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isApiPath } from './gate.ts'
import { errorFacts } from '../log-safety.ts'
import { HttpProblem } from './problem.ts'
import { fromAjv, RequestValidationError, type AjvError } from './validation-errors.ts'

/** Renders an error as a website page (HTML or Markdown) for a path outside the API, or declines. */
export type ErrorPage = (err: unknown, req: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined

export function registerErrorHandler(app: FastifyInstance, page?: ErrorPage): void {
  app.setErrorHandler((err: FastifyError | HttpProblem | RequestValidationError, req, reply) => {
    // A visitor's browser gets a page, not JSON; API clients keep the JSON contract.
    if (page && !isApiPath(req.url) && !req.url.startsWith('/openapi.json')) {
      const rendered = page(err, req, reply)
      if (rendered) return rendered
    }
    if (err instanceof RequestValidationError) {
      return reply.code(422).send({ detail: err.items })
    }
    if (err instanceof HttpProblem) {
      return reply.code(err.statusCode).headers(err.headers).send({ detail: err.detail })
    }
    const fe = err as FastifyError
    if (fe.validation) {
      const part = (fe.validationContext ?? 'body') as 'body' | 'query' | 'params' | 'headers'
      const input = part === 'body' ? req.body : (req as unknown as Record<string, unknown>)[part]
      // The body schema is usually a $ref to a shared schema: its properties give pydantic's field order.
      const body = req.routeOptions.schema?.body as { $ref?: string, properties?: object } | undefined
      const schema = body?.$ref ? req.server.getSchema(body.$ref.replace(/#$/, '')) as { properties?: object } | undefined : body
      const order = Object.keys(schema?.properties ?? {})
      return reply.code(422).send({ detail: fromAjv(fe.validation as AjvError[], part, input, order) })
    }
    switch (fe.statusCode) {
      case 413: return reply.code(413).send({ detail: 'corpo_muito_grande' })
      case 429: return reply.code(429).send({ detail: 'limite_de_requisicoes' })
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return reply.code(400).send({ detail: 'requisicao_invalida' })
    }
    req.log.error(errorFacts(err), 'unexpected error')
    return reply.code(500).send({ detail: 'erro_interno' })
  })
}

// The site's answers to what no page route answered: a path nobody serves (404, or 405 on a page's path), and
// an error raised on a site path (a page, not the API's JSON). Decorated on the root instance, so the app's
// not-found and error handlers reach them through siteNotFound and siteError.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { HttpProblem, problem } from '../../platform/http/problem.ts'
import { RequestValidationError } from '../../platform/http/validation-errors.ts'
import { errorFacts } from '../../platform/lib/log-safety.ts'
import { formInput, FORM_PATH } from './contact-form.ts'
import { pageStatus } from './error-pages.ts'
import { tooManyRequests } from './format.ts'
import { allowedMethods } from './page-list.ts'
import type { Pages } from './pages.ts'
import type { SendPage } from './respond.ts'

export type SiteAnswers = {
  notFound(req: FastifyRequest, reply: FastifyReply): FastifyReply
  error(err: Error, req: FastifyRequest, reply: FastifyReply): FastifyReply
  /** The error page for `status`, as an answer of the page at `path`. */
  errorPage(req: FastifyRequest, reply: FastifyReply, status: number, path: string): FastifyReply
}

export function makeSiteAnswers(pages: Pages, send: SendPage): SiteAnswers {
  const errorPage: SiteAnswers['errorPage'] = (req, reply, status, path) =>
    send(req, reply, pages.error(status), { status, path, cache: 'no-store', error: true })

  const notFound: SiteAnswers['notFound'] = (req, reply) => {
    const path = pathOf(req)
    const allowed = allowedMethods(path)
    if (allowed) {
      reply.header('allow', allowed)
      return errorPage(req, reply, 405, path)
    }
    return send(req, reply, pages.notFound(), { status: 404, path, cache: 'no-store' })
  }

  const error = (err: FastifyError | HttpProblem | RequestValidationError, req: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const status = err.statusCode ?? 500
    const path = pathOf(req)
    if (status === 429 && req.method === 'POST' && path.replace(/\/$/, '') === FORM_PATH) {
      // The form again, with what was typed and when to try again.
      const seconds = Number.parseInt(String(reply.getHeader('retry-after') ?? ''), 10)
      const values = formInput(req.body)?.values ?? {}
      const page = pages.contactForm({ values, errors: [], alert: tooManyRequests(Number.isFinite(seconds) ? seconds : null) })
      return send(req, reply, page, { status: 429, path: FORM_PATH, cache: 'no-store', error: true })
    }
    if (status >= 500) req.log.error(errorFacts(err), 'unexpected error')
    if (status === 404) return notFound(req, reply)
    return errorPage(req, reply, pageStatus(status), path)
  }

  return { notFound, error, errorPage }
}

const pathOf = (req: FastifyRequest) => req.url.split('?')[0]!

// On the root, so every encapsulated instance (and the not-found handler) reaches it.
const SITE = Symbol('site')
const siteOf = (instance: FastifyInstance) => (instance as unknown as Record<symbol, SiteAnswers | undefined>)[SITE]

export function decorateSite(app: FastifyInstance, answers: SiteAnswers): void {
  app.decorate(SITE, answers)
}

/** Paths outside /api that no route serves: the 404 page, negotiated like every page (405 on a page's path). */
export async function siteNotFound(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const site = siteOf(req.server)
  if (!site) throw problem('nao_encontrado')
  return site.notFound(req, reply)
}

/**
 * An error raised outside the site's routes on a site path (the not-found handler's rate limit, a body too
 * large for an unknown path) answered as a page. For the app's error handler to call on non-/api paths;
 * undefined when the site is not registered on this instance.
 */
export function siteError(err: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  if (!(err instanceof Error)) return undefined
  return siteOf(req.server)?.error(err, req, reply)
}

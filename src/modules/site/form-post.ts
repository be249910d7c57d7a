// The contact form without JavaScript (POST /contato): the API's validation and the API's submit path
// (src/modules/contact/submit.ts), answered as a page: the receipt, or the form again with what was typed.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Config } from '../../platform/config.ts'
import type { ContactService } from '../contact/index.ts'
import { RETRY_AFTER_SECONDS, submitContact } from '../contact/index.ts'
import { rateLimitFor } from '../../platform/http/rate-limit.ts'
import { formInput, FORM_PATH } from './contact-form.ts'
import type { SiteAnswers } from './error-answers.ts'
import { UNAVAILABLE } from './format.ts'
import { preferredFormat } from './negotiate.ts'
import type { Pages } from './pages.ts'
import { notAcceptable, type SendPage } from './respond.ts'

const FORM_EXPIRED = 'Sua mensagem ainda não foi enviada: a página precisava ser atualizada. Confira os dados e envie de novo.'

export type FormPostDeps = {
  config: Pick<Config, 'rateLimits' | 'siteOrigins' | 'dbTimeoutMs'>
  contact: ContactService
  pages: Pages
  send: SendPage
  answers: Pick<SiteAnswers, 'errorPage'>
  /** Loads what a fresh form needs (its token's key), within a bounded time. */
  prepareForm: () => Promise<void>
}

export function registerFormPost(scope: FastifyInstance, deps: FormPostDeps): void {
  const { config, contact, pages, send, answers } = deps
  const again = { status: 200, path: FORM_PATH, cache: 'no-store' }
  scope.post(FORM_PATH, {
    // After the body is read, so that a refused submission can be shown again with what was typed.
    config: { rateLimit: { ...rateLimitFor(config.rateLimits.contato), hook: 'preHandler' } },
  }, async (req, reply) => {
    if (!preferredFormat(req.headers.accept)) return notAcceptable(reply)
    if (crossSite(req, config.siteOrigins)) return answers.errorPage(req, reply, 403, FORM_PATH)
    const form = formInput(req.body)
    if (!form) return answers.errorPage(req, reply, 415, FORM_PATH)
    await deps.prepareForm()
    const checked = contact.validate(form.input)
    if (!checked.ok) return send(req, reply, pages.contactForm({ values: form.values, errors: checked.errors }), { ...again, status: 422 })
    const result = await submitContact(contact, req, { value: checked.value, posted: form.raw, via: 'site' }, config.dbTimeoutMs)
    switch (result.kind) {
      case 'accepted':
        // A bot's contact gets the same page as a person's; only the log says.
        return send(req, reply, pages.receipt(result.accepted), { ...again, status: 202 })
      case 'expired':
        // A person who left the page open (or got it while the database was away): the form again, with a fresh token.
        return send(req, reply, pages.contactForm({ values: form.values, errors: [], alert: FORM_EXPIRED }), again)
      case 'unavailable':
        reply.header('retry-after', String(RETRY_AFTER_SECONDS))
        return send(req, reply, pages.contactForm({ values: form.values, errors: [], alert: UNAVAILABLE }), { ...again, status: 503 })
    }
  })
}

/** A cross-site form post (another site submitting our form with a visitor's browser), by its Origin. */
function crossSite(req: FastifyRequest, allowed: string[]): boolean {
  const origin = req.headers.origin
  if (!origin || origin === 'null') return false
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return true
  }
  if (allowed.includes(url.origin)) return false
  try {
    // Both as the origin's scheme writes them (a default port is left out of an Origin).
    return new URL(`${url.protocol}//${req.host}`).host !== url.host
  } catch {
    return true
  }
}

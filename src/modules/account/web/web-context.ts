// What every route of the web app shares: the database and clock, the password hasher, the session's limits,
// the CSRF tokens (the API's own, keyed by the installation's secret), how a page is sent, and who is acting.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ActionContext, Actor } from '../../../platform/tenancy/audit/store.ts'
import { actionContext } from '../../credentials/index.ts'
import { makePasswordHasher, type PasswordHasher } from '../../credentials/index.ts'
import { loadCommonPasswords } from '../../credentials/index.ts'
import { sessionCookieSecure } from '../../credentials/index.ts'
import type { CsrfTokens } from '../../credentials/index.ts'
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from '../../credentials/index.ts'
import type { Clock } from '../../../platform/lib/clock.ts'
import type { Config } from '../../../platform/config.ts'
import type { Database } from '../../../platform/db/database.ts'
import type { Idempotency } from '../../../platform/idempotency/run.ts'
import type { LoginBudgets } from './login-limits.ts'
import { liveSession, type LiveSession } from './session.ts'
import { readSessionCookie } from './session-cookie.ts'
import type { Page } from './view-parts.ts'
import type { AccountShell, ShellWho } from './shell.ts'

export type AccountWebDeps = {
  config: Pick<Config, 'publicUrl' | 'publicUrlSet' | 'ambiente' | 'dbTimeoutMs'>
  db: Database
  clock: Clock
  csrf: CsrfTokens
  /** The token form's key (a hidden field): a form posted twice makes one token. */
  idempotency: Idempotency
  hasher?: PasswordHasher
  sessionLimits?: SessionLimits
  loginBudgets?: LoginBudgets
  /** The back office's shell for the account's page, once every module's setup ran (shell.ts). */
  shell?: () => AccountShell | undefined
}

export type WebContext = {
  db: Database
  clock: Clock
  /** PUBLIC_URL when it is set, the one origin forms are taken from; undefined: the origin each request was addressed to. */
  publicUrl: string | undefined
  /** The cookie is `__Host-` and Secure (src/modules/credentials/sessions/cookie.ts). */
  secure: boolean
  hasher: PasswordHasher
  limits: SessionLimits
  commonPasswords(): ReadonlySet<string>
  csrf: CsrfTokens
  idempotency: Idempotency
  dbTimeoutMs: number
  /** The request's live session, from its cookie; undefined when there is none that may be used. */
  session(req: FastifyRequest): Promise<LiveSession | undefined>
  actionContext(req: FastifyRequest, actor: Actor): ActionContext
  send(reply: FastifyReply, status: number, page: Page): FastifyReply
  /** `page` in the back office's shell when there is one (shell.ts), else as it is. */
  framed(page: Page, who: ShellWho, path: string): Page
}

export function makeWebContext(app: FastifyInstance, deps: AccountWebDeps): WebContext {
  const { db, clock } = deps
  const secure = sessionCookieSecure(deps.config)
  const limits = deps.sessionLimits ?? DEFAULT_SESSION_LIMITS
  let common: ReadonlySet<string> | undefined
  return {
    db, clock, secure, limits, csrf: deps.csrf, idempotency: deps.idempotency, dbTimeoutMs: deps.config.dbTimeoutMs,
    publicUrl: deps.config.publicUrlSet ? deps.config.publicUrl : undefined,
    hasher: deps.hasher ?? makePasswordHasher(),
    commonPasswords: () => (common ??= loadCommonPasswords()),
    session: (req) => liveSession(db, readSessionCookie(req, secure), clock.now(), limits),
    actionContext: (req, actor) => actionContext(req, actor, clock.now()),
    framed: (page, who, path) => deps.shell?.()?.frame(page, who, path) ?? page,
    send(reply, status, page) {
      return reply.code(status)
        .header('content-type', 'text/html; charset=utf-8')
        // A person's own data and secrets: never kept by a browser or a proxy, never indexed, and the activation
        // link's secret never sent to another site as a Referer. Not `no-referrer`: with it a browser sends
        // `Origin: null` on the page's own form posts, which the Origin check must refuse.
        .header('cache-control', 'no-store')
        .header('x-robots-tag', 'noindex, nofollow')
        .header('referrer-policy', 'same-origin')
        .send(app.siteLayout({ ...page, path: reply.request.url.split('?')[0]!, private: true }))
    },
  }
}

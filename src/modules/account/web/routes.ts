// The web application of the credential layer: a person activates their invitation, logs in, and manages their
// tokens and sessions at /conta. Pages in the site's layout and under its security headers (CSP included), never
// cached or indexed, not in the sitemap; forms that work without JavaScript.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { accountRoutes } from './account-routes.ts'
import { activationRoutes } from './activation-routes.ts'
import { loginRoutes } from './login-routes.ts'
import { makeWebContext, type AccountWebDeps } from './web-context.ts'

export type { AccountWebDeps } from './web-context.ts'

export function accountWebRoutes(deps: AccountWebDeps) {
  async function accountWeb(app: FastifyInstance): Promise<void> {
    await app.register(async function account(scope) {
      const web = makeWebContext(scope, deps)
      activationRoutes(scope, web)
      loginRoutes(scope, web, deps.loginBudgets)
      accountRoutes(scope, web)
    })
  }
  // The site's layout and headers come from its plugin.
  return fp(accountWeb, { name: 'account-web', fastify: '5.x', dependencies: ['site'] })
}

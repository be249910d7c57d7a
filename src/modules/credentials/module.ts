// The credentials module: customers, people, sessions, tokens and DPoP, and the guard the gate runs before every
// /api route that needs a credential; the operator's `clientes`, `tokens` and `usuarios`.
import { customersCommand, CUSTOMERS_HELP } from './cli/customers.ts'
import { tokensCommand, TOKENS_HELP } from './cli/tokens.ts'
import { usersCommand, USERS_HELP } from './cli/users.ts'
import { routeLabel } from '../../platform/http/route-label.ts'
import { defineModule } from '../../platform/module.ts'
import { credentialGuard, jtiPurgeJob } from './http/setup.ts'
import { readInstallationSecret } from './installation-secret.ts'
import { sessionCookieSecure } from './sessions/cookie.ts'
import { makeCsrfTokens, type CsrfTokens } from './sessions/csrf.ts'

declare module '../../platform/module.ts' {
  interface ModuleServices {
    credentials: { csrf: CsrfTokens }
  }
}

export const credentialsModule = defineModule({
  name: 'credentials',
  async setup({ config, db, redis, clock, metrics, http }) {
    // Read once: DPoP nonces and the session's CSRF tokens (API and web app alike) are keyed from it.
    const secret = await readInstallationSecret(db.orm)
    const csrf = makeCsrfTokens(secret)
    const { guard, listening } = credentialGuard(http, {
      db, redis, clock, publicUrl: config.publicUrl, secureCookie: sessionCookieSecure(config), budget: config.rateLimits.credencial,
      refusalBudget: config.rateLimits.restrito, turns: config.turns,
      secret, csrf, onRateLimited: (req) => metrics.rateLimited.inc({ route: routeLabel(req) }),
    })
    return { provides: { credentials: { csrf } }, credentialGuard: guard, background: [listening] }
  },
  jobs: ({ db }) => [jtiPurgeJob(db)],
  commands: [
    { name: 'clientes', help: CUSTOMERS_HELP, run: customersCommand },
    { name: 'tokens', help: TOKENS_HELP, run: tokensCommand },
    { name: 'usuarios', help: USERS_HELP, run: usersCommand },
  ],
})

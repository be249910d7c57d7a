// The back office: the product in the browser at /conta (operations, payments, registers, pricing terms, holidays,
// the ledger), for people of a customer, with and without JavaScript. It reads and changes everything through
// the customers' API (api.ts), so it comes after every module whose routes it calls, and imports none of them
// but for lists of values (título types, cancellable states).
import fp from 'fastify-plugin'
import { defineModule } from '../../platform/module.ts'
import { backofficeRoutes } from './routes.ts'
import { inShell } from './layout.ts'

export const backofficeModule = defineModule({
  name: 'backoffice',
  setup({ config, db, clock, idempotency, use }) {
    const csrf = use('credentials').csrf
    return {
      // The account's page of people and tokens is one of the back office's sections: drawn in its shell.
      contributes: { accountShell: { frame: inShell } },
      async routes(app) {
        // The site's layout (siteLayout) is its plugin's.
        const routes = backofficeRoutes({ config, db, clock, csrf, idempotency, termoMaxBytes: config.termoMaxBytes })
        await app.register(fp(routes, { name: 'backoffice-web', fastify: '5.x', dependencies: ['site'] }))
      },
    }
  },
})

// The account module: what a customer's credential reaches of its own account, as an API (/api/conta…, with the
// customers' OpenAPI document) and as the web app at /conta (activation, login, tokens, people, sessions).
import { accountWebRoutes } from './web/routes.ts'
import { defineModule } from '../../platform/module.ts'
import { accountRoutes } from './api/routes.ts'
import { accountTools } from './mcp-tools.ts'

export const accountModule = defineModule({
  name: 'account',
  setup({ config, db, clock, idempotency, use, customerApiPaths, contributions }) {
    return {
      contributes: { mcp: { tools: accountTools(db, clock) } },
      async routes(app) {
        await app.register(accountRoutes({ config, db, clock, idempotency, documentPaths: customerApiPaths() }))
        await app.register(accountWebRoutes({ config, db, clock, csrf: use('credentials').csrf, idempotency, shell: () => contributions('accountShell')[0] }))
      },
    }
  },
})

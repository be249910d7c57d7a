// The pricing module: the engine that prices a borderô to the centavo (engine.ts), the IOF table it prices with
// (iof/: the table in the database, GET /api/iof/aliquotas, the operator's `iof`), and the customer's pricing
// terms (terms/: /api/produtos and their versions; listed to agents by the MCP tool listar_produtos).
import { defineModule } from '../../platform/module.ts'
import { pathItems } from '../../platform/http/route-document.ts'
import { IOF_HELP, iofCommand } from './iof/cli.ts'
import { IOF_ROUTE, iofRoutes } from './iof/routes.ts'
import { TERMS_ROUTES } from './terms/definitions.ts'
import { termsRoutes } from './terms/routes.ts'
import { termsTools } from './mcp-tools.ts'

export const pricingModule = defineModule({
  name: 'pricing',
  setup({ config, db, clock, idempotency }) {
    const budget = config.rateLimits.leitura
    return {
      async routes(app) {
        await iofRoutes({ db, budget, dbTimeoutMs: config.dbTimeoutMs })(app)
        await termsRoutes({ db, clock, idempotency, budget, dbTimeoutMs: config.dbTimeoutMs })(app)
      },
      customerApiPaths: () => pathItems([IOF_ROUTE, ...Object.values(TERMS_ROUTES)]),
      contributes: { mcp: { tools: termsTools(db) } },
    }
  },
  commands: [{ name: 'iof', help: IOF_HELP, run: iofCommand }],
})

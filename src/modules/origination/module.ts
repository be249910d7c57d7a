// The origination module (produto.md §2.1): the customer's cedentes and sacados, behind the credential layer with
// the scope `cadastro`, in the customers' OpenAPI document.
import { defineModule } from '../../platform/module.ts'
import { pathItems } from '../../platform/http/route-document.ts'
import { partyRoutes } from './registers/definitions.ts'
import { registerRoutes } from './registers/routes.ts'
import { registerTools } from './mcp-tools.ts'

export const originationModule = defineModule({
  name: 'origination',
  setup({ config, db, clock, idempotency }) {
    return {
      routes: registerRoutes({ db, clock, idempotency, dbTimeoutMs: config.dbTimeoutMs, budget: config.rateLimits.leitura }),
      customerApiPaths: () => pathItems([...Object.values(partyRoutes('cedente')), ...Object.values(partyRoutes('sacado'))]),
      contributes: { mcp: { tools: registerTools(db) } },
    }
  },
})

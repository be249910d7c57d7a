// The operations module (produto.md §2.5–2.6): borderôs drafted, quoted, accepted, formalized, paid with two
// people's approval, or cancelled; títulos; simulations. It prices with the pricing module, reads the registers
// of origination and the calendar's business days, and posts to the ledger, each through its public entry.
import { defineModule } from '../../platform/module.ts'
import { pathItems } from '../../platform/http/route-document.ts'
import { OPERATION_ROUTES } from './definitions.ts'
import { paymentRoutes } from './payment-routes.ts'
import { operationRoutes } from './routes.ts'
import { termPathItems, termRoutes } from './termo-routes.ts'
import { SIMULATION_ROUTE, simulationRoute } from './simulation.ts'
import { dashboardRoute, PAINEL_ROUTE } from './dashboard.ts'
import { operationTools } from './mcp-tools.ts'
import { OPERATIONS_HELP, operationsCommand } from './cli.ts'
import { desagioJob } from './desagio.ts'
import { CONFIRMATION_ROUTES } from './confirmation/definitions.ts'
import { confirmationRoutes } from './confirmation/routes.ts'
import { sacadoRoutes } from './confirmation/sacado-routes.ts'

export const operationsModule = defineModule({
  name: 'operations',
  setup({ config, db, clock, idempotency }) {
    const deps = { db, clock, idempotency, dbTimeoutMs: config.dbTimeoutMs, budget: config.rateLimits.leitura, production: config.ambiente === 'producao',
      maxTitulos: config.maxTitulosPorOperacao }
    return {
      async routes(app) {
        await operationRoutes(deps)(app)
        await paymentRoutes(deps)(app)
        await simulationRoute(deps)(app)
        await termRoutes({ ...deps, termoMaxBytes: config.termoMaxBytes })(app)
        await dashboardRoute(deps)(app)
        await confirmationRoutes({ ...deps, publicUrl: config.publicUrl })(app)
        await sacadoRoutes({ db, clock, budget: config.rateLimits.confirmacao, publicUrl: config.publicUrlSet ? config.publicUrl : undefined })(app)
      },
      customerApiPaths: () => ({
        ...pathItems([...Object.values(OPERATION_ROUTES), ...Object.values(CONFIRMATION_ROUTES), SIMULATION_ROUTE, PAINEL_ROUTE]), ...termPathItems(),
      }),
      contributes: { mcp: { tools: operationTools(db, clock, config.maxTitulosPorOperacao) } },
    }
  },
  jobs: ({ db }) => [desagioJob(db)],
  commands: [{ name: 'operacoes', help: OPERATIONS_HELP, run: operationsCommand }],
})

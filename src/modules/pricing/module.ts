// The pricing module: the engine that prices a borderô to the centavo (engine.ts), and the IOF table it prices
// with (iof/: the table in the database, GET /api/iof/aliquotas, the operator's `iof`).
import { defineModule } from '../../platform/module.ts'
import { pathItems } from '../../platform/http/route-document.ts'
import { IOF_HELP, iofCommand } from './iof/cli.ts'
import { IOF_ROUTE, iofRoutes } from './iof/routes.ts'

export const pricingModule = defineModule({
  name: 'pricing',
  setup({ config, db }) {
    return {
      routes: iofRoutes({ db, budget: config.rateLimits.leitura, dbTimeoutMs: config.dbTimeoutMs }),
      customerApiPaths: () => pathItems([IOF_ROUTE]),
    }
  },
  commands: [{ name: 'iof', help: IOF_HELP, run: iofCommand }],
})

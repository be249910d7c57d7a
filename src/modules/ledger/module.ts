// The ledger module (produto.md §2.7): the double-entry ledger other modules post to (postEntry, in their own
// transaction), and its reading routes: entries, a cedente's conta gráfica, the trial balance; and the manual
// entries a second person confirms before they are posted (manual/).
import { defineModule } from '../../platform/module.ts'
import { pathItems } from '../../platform/http/route-document.ts'
import { LEDGER_ROUTES } from './definitions.ts'
import { ledgerRoutes } from './routes.ts'
import { MANUAL_ENTRY_ROUTES } from './manual/definitions.ts'
import { manualEntryRoutes } from './manual/routes.ts'
import { LEDGER_HELP, ledgerCommand } from './cli.ts'

export const ledgerModule = defineModule({
  name: 'ledger',
  setup({ config, db, clock, idempotency }) {
    const budget = config.rateLimits.leitura
    return {
      async routes(app) {
        await ledgerRoutes({ db, clock, budget })(app)
        await manualEntryRoutes({ db, clock, idempotency, dbTimeoutMs: config.dbTimeoutMs, budget })(app)
      },
      customerApiPaths: () => pathItems([...Object.values(LEDGER_ROUTES), ...Object.values(MANUAL_ENTRY_ROUTES)]),
    }
  },
  commands: [{ name: 'contabil', help: LEDGER_HELP, run: ledgerCommand }],
})

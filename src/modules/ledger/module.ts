// The ledger module (produto.md §2.7): the double-entry ledger other modules post to (postEntry, in their own
// transaction), and its reading routes: entries, a cedente's conta gráfica, the trial balance.
import { defineModule } from '../../platform/module.ts'
import { pathItems } from '../../platform/http/route-document.ts'
import { LEDGER_ROUTES } from './definitions.ts'
import { ledgerRoutes } from './routes.ts'
import { LEDGER_HELP, ledgerCommand } from './cli.ts'

export const ledgerModule = defineModule({
  name: 'ledger',
  setup({ config, db, clock }) {
    return {
      routes: ledgerRoutes({ db, clock, budget: config.rateLimits.leitura }),
      customerApiPaths: () => pathItems(Object.values(LEDGER_ROUTES)),
    }
  },
  commands: [{ name: 'contabil', help: LEDGER_HELP, run: ledgerCommand }],
})

// The modules of the service, in the order they are set up: a module may use what an earlier one provides
// (src/platform/module.ts). The app registers their routes and background work, the CLI their commands.
import { accountModule } from './modules/account/index.ts'
import { backofficeModule } from './modules/backoffice/index.ts'
import { calendarModule } from './modules/calendar/index.ts'
import { collectionsModule } from './modules/collections/index.ts'
import { credentialsModule } from './modules/credentials/index.ts'
import { contactModule } from './modules/contact/index.ts'
import { ledgerModule } from './modules/ledger/index.ts'
import { mcpModule } from './modules/mcp/index.ts'
import { operationsModule } from './modules/operations/index.ts'
import { originationModule } from './modules/origination/index.ts'
import { pricingModule } from './modules/pricing/index.ts'
import type { AppModule } from './platform/module.ts'
import { siteModule } from './modules/site/index.ts'
import { statusModule } from './modules/status/index.ts'
import { webhooksModule } from './modules/webhooks/index.ts'
import { registryModule } from './modules/registry/index.ts'

export const MODULES: readonly AppModule[] = [
  statusModule,
  contactModule,
  siteModule,
  credentialsModule,
  accountModule,
  mcpModule,
  originationModule,
  calendarModule,
  pricingModule,
  ledgerModule,
  operationsModule,
  collectionsModule,
  registryModule,
  webhooksModule,
  backofficeModule,
]

// The modules of the service, in the order they are set up: a module may use what an earlier one provides
// (src/module.ts). The app registers their routes and background work, the CLI their commands.
import { accountModule } from './account-api/module.ts'
import { credentialsModule } from './auth/module.ts'
import { contactModule } from './contact/module.ts'
import { mcpModule } from './mcp/module.ts'
import type { AppModule } from './module.ts'
import { siteModule } from './site/module.ts'
import { statusModule } from './status/module.ts'

export const MODULES: readonly AppModule[] = [
  statusModule,
  contactModule,
  siteModule,
  credentialsModule,
  accountModule,
  mcpModule,
]

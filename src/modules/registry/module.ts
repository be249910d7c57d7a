// The registry module (issue 34): duplicatas escriturais queried at the registradora before they are bought, their
// assignment registered at acquisition (queued by the database, migration 0050), their payment and write-off recorded,
// each título with the mirror of what the registry said; the registradora reached through its adapter, or the labelled
// sandbox registradora outside production.
import { defineModule } from '../../platform/module.ts'
import { pathItems } from '../../platform/http/route-document.ts'
import { registradoraConnection } from './configured.ts'
import { REGISTRY_ROUTES } from './definitions.ts'
import { registryRoutes } from './routes.ts'
import { registryJob, type RegistryDeps } from './worker.ts'

const workerDeps = (db: RegistryDeps['db'], config: Parameters<typeof registradoraConnection>[0], log: Parameters<typeof registradoraConnection>[1]) => {
  const connection = registradoraConnection(config, log)
  return { db, adapter: () => connection.adapter, config: config.registradora }
}

export const registryModule = defineModule({
  name: 'registry',
  setup({ config, db, clock, idempotency, log }) {
    return {
      // Started on first use (configured.ts); stopped with the app.
      background: [{ start: () => {}, stop: () => registradoraConnection(config, log).close() }],
      routes: registryRoutes({ db, clock, idempotency, dbTimeoutMs: config.dbTimeoutMs, budget: config.rateLimits.leitura,
        worker: workerDeps(db, config, log) }),
      customerApiPaths: () => pathItems(Object.values(REGISTRY_ROUTES)),
    }
  },
  jobs: ({ db, config, log }) => [registryJob(workerDeps(db, config, log))],
})

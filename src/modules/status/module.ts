// The status module: probes, build identity and the public status view, and the snapshot they read (the
// database, the mail channel, the rate limits' store, the maintenance windows); the operator's `manutencao`.
import { maintenanceCommand, MAINTENANCE_HELP } from './cli.ts'
import { checkMail } from '../../platform/outbox/check.ts'
import { defineModule } from '../../platform/module.ts'
import { withTimeout } from '../../platform/lib/timeout.ts'
import { checkDatabase, checkLimits } from './checks.ts'
import { describeWindow, openWindows, pickWindow } from './maintenance.ts'
import { statusRoutes, statusVersion } from './routes.ts'
import { ManutencaoOut, ServicoOut, StatusOut, VersionOut } from './schemas.ts'
import { StatusSnapshot } from './snapshot.ts'
import { statusTools } from './mcp-tools.ts'
import { statusMetrics } from './metrics.ts'

declare module '../../platform/module.ts' {
  interface ModuleServices {
    status: { snapshot: StatusSnapshot, version: ReturnType<typeof statusVersion> }
  }
}

export const statusModule = defineModule({
  name: 'status',
  setup({ config, db, redis, clock, log, channel, lifecycle, metrics }) {
    const snapshot = new StatusSnapshot({
      ambiente: config.ambiente || 'desenvolvimento',
      versao: config.build.versao,
      checks: [
        () => checkDatabase(db, config.dbTimeoutMs),
        () => checkMail(channel, db, clock.now(), config.dbTimeoutMs),
        () => checkLimits(redis, config.dbTimeoutMs),
      ],
      maintenance: async (now) => {
        const w = pickWindow(await withTimeout(openWindows(db.orm, now), config.dbTimeoutMs), now)
        return w ? describeWindow(w, now) : null
      },
      clock,
      log,
    }, config.statusRefreshMs)
    statusMetrics(metrics.registry, snapshot, () => clock.now())
    const version = statusVersion(config)
    return {
      provides: { status: { snapshot, version } },
      contributes: { mcp: { tools: statusTools(snapshot, version) } },
      publicSchemas: [VersionOut, StatusOut, ServicoOut, ManutencaoOut],
      routes: statusRoutes({ config, db, snapshot, lifecycle }),
      background: [{ start: () => snapshot.start(), stop: () => snapshot.stop() }],
    }
  },
  commands: [{ name: 'manutencao', help: MAINTENANCE_HELP, run: maintenanceCommand }],
})

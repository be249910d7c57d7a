// The status module's metrics, read at scrape time from the snapshot GET /api/status answers: how old it is, and
// each dependency's state as it last said.
import { Gauge, type Registry } from 'prom-client'
import type { StatusSnapshot } from './snapshot.ts'

export function statusMetrics(registry: Registry, snapshot: Pick<StatusSnapshot, 'current' | 'lastRefreshedAt'>, now: () => Date): void {
  const registers = [registry]
  new Gauge({
    name: 'status_snapshot_age_seconds',
    help: 'Seconds since the /api/status snapshot was last computed; grows when its refresh is stuck',
    registers,
    collect() {
      this.reset()
      const at = snapshot.lastRefreshedAt()
      if (at) this.set((now().getTime() - at.getTime()) / 1000)
    },
  })
  new Gauge({
    name: 'dependency_up',
    help: 'Whether a dependency works (1) or not (0), with its mode, as the latest /api/status snapshot says: ' +
      'banco (postgres, pglite), email (smtp, sandbox), limites (redis, memoria: per-instance budgets)',
    labelNames: ['dependency', 'mode'],
    registers,
    async collect() {
      this.reset()
      try {
        // The snapshot itself (the first call waits for its first computation): no checks of our own.
        for (const s of (await snapshot.current()).servicos) {
          if (s.nome !== 'api') this.set({ dependency: s.nome, mode: s.modo ?? '' }, s.ok ? 1 : 0)
        }
      } catch {
        // No snapshot could be made: no samples, and the rest of the scrape still answers.
      }
    },
  })
}

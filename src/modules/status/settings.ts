// The status snapshot's setting.
import { int } from '../../platform/settings/kinds.ts'

declare module '../../platform/config.ts' {
  interface Config {
    statusRefreshMs: number
  }
}

export const STATUS_SETTINGS = {
  statusRefreshMs: int('STATUS_REFRESH_MS', { default: 2000, min: 100, max: 60_000, description: 'how often the status snapshot is recomputed' }),
}

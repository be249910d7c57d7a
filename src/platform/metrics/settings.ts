// The metrics listener's setting.
import { optionalInt } from '../settings/kinds.ts'

export const METRICS_SETTINGS = {
  metricsPort: optionalInt('METRICS_PORT', { min: 1, max: 65535, unset: 'off', description: 'Prometheus metrics on this port of HOST, never the public one' }),
}

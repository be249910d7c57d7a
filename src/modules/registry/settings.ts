// The registry's settings (issue 34): how the service reaches the registradora of duplicatas escriturais. Unset URL:
// outside production the labelled sandbox registradora runs in-process (configured.ts); in production there is none,
// and what waits for the registry says so until one is configured.
import { ConfigError } from '../../platform/lib/startup-error.ts'
import { int, text, url } from '../../platform/settings/kinds.ts'
import type { Values } from '../../platform/settings/load.ts'

declare module '../../platform/config.ts' {
  interface Config {
    registradora: RegistradoraConfig
  }
}

export type RegistradoraConfig = {
  /** The registradora API's base URL; undefined: the sandbox outside production, none in production. */
  apiUrl: string | undefined
  apiToken: string
  timeoutMs: number
  retry: { baseMs: number, maxMs: number }
  /** How soon a request the registradora took is read back, when no callback came first. */
  pollMs: number
}

const DAY_MS = 86_400_000

export const REGISTRY_SETTINGS = {
  registradoraUrl: url('REGISTRADORA_URL', {
    protocols: ['https:', 'http:'], unset: 'the sandbox registradora in-process outside production; none in production (requests wait)',
    description: 'the base URL of the registradora\'s API (query, assignment, payment and write-off of duplicatas escriturais)',
  }),
  registradoraToken: text('REGISTRADORA_TOKEN', {
    unset: 'required with REGISTRADORA_URL in production', description: 'the bearer token of the registradora\'s API',
  }),
  registradoraTimeoutMs: int('REGISTRADORA_TIMEOUT_MS', {
    default: 10_000, min: 100, max: 120_000,
    description: 'one request to the registradora, its answer included; past it the registradora counts as unavailable',
  }),
  registradoraRetryBaseMs: int('REGISTRADORA_RETRY_BASE_MS', {
    default: 30_000, min: 10, max: DAY_MS, description: 'the first wait before asking an unavailable registradora again (doubling, with jitter)',
  }),
  registradoraRetryMaxMs: int('REGISTRADORA_RETRY_MAX_MS', {
    default: 3_600_000, min: 10, max: 7 * DAY_MS, description: 'the longest wait before asking the registradora again',
  }),
  registradoraPollMs: int('REGISTRADORA_POLL_MS', {
    default: 60_000, min: 10, max: DAY_MS, description: 'how soon a request the registradora took is read back when its callback has not come',
  }),
}

export function registradoraConfig(v: Values<typeof REGISTRY_SETTINGS>, ambiente: string): RegistradoraConfig {
  if (v.registradoraUrl && !v.registradoraToken && ambiente === 'producao') {
    throw new ConfigError('REGISTRADORA_URL needs REGISTRADORA_TOKEN in production: the registradora would refuse every request')
  }
  if (v.registradoraRetryMaxMs < v.registradoraRetryBaseMs) {
    throw new ConfigError(`REGISTRADORA_RETRY_MAX_MS (${v.registradoraRetryMaxMs}) must not be less than REGISTRADORA_RETRY_BASE_MS `
      + `(${v.registradoraRetryBaseMs})`)
  }
  return {
    apiUrl: v.registradoraUrl?.replace(/\/+$/, ''), apiToken: v.registradoraToken, timeoutMs: v.registradoraTimeoutMs,
    retry: { baseMs: v.registradoraRetryBaseMs, maxMs: v.registradoraRetryMaxMs }, pollMs: v.registradoraPollMs,
  }
}

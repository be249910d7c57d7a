// The collections module's settings: how the service reaches the banks' collection API (issue 33). Unset URL: in
// development and sandbox the labelled sandbox bank runs in-process (bank/configured.ts); in production there is no
// bank API, and charges and instructions under `api` accounts wait, saying so, until one is configured.
import { ConfigError } from '../../platform/lib/startup-error.ts'
import { int, text, url } from '../../platform/settings/kinds.ts'
import type { Values } from '../../platform/settings/load.ts'

declare module '../../platform/config.ts' {
  interface Config {
    banco: BancoConfig
  }
}

export type BancoConfig = {
  /** The bank API's base URL; undefined: the sandbox bank outside production, none in production. */
  apiUrl: string | undefined
  apiToken: string
  timeoutMs: number
  retry: { baseMs: number, maxMs: number }
}

const DAY_MS = 86_400_000

export const COLLECTIONS_SETTINGS = {
  bancoApiUrl: url('BANCO_API_URL', {
    protocols: ['https:', 'http:'], unset: 'the sandbox bank in-process outside production; none in production (charges wait)',
    description: 'the base URL of the bank\'s collection API (register, instruct, read back)',
  }),
  bancoApiToken: text('BANCO_API_TOKEN', { unset: 'required with BANCO_API_URL in production', description: 'the bearer token of the bank\'s API' }),
  bancoApiTimeoutMs: int('BANCO_API_TIMEOUT_MS', {
    default: 10_000, min: 100, max: 120_000, description: 'one request to the bank\'s API, its answer included; past it the bank counts as unavailable',
  }),
  // Doubling from 30 s, capped at an hour: a bank back within minutes is asked again within minutes, one out for a
  // day is asked hourly, never in a storm.
  bancoRetryBaseMs: int('BANCO_RETRY_BASE_MS', {
    default: 30_000, min: 10, max: DAY_MS, description: 'the first wait before asking an unavailable bank again (doubling, with jitter)',
  }),
  bancoRetryMaxMs: int('BANCO_RETRY_MAX_MS', { default: 3_600_000, min: 10, max: 7 * DAY_MS, description: 'the longest wait before asking the bank again' }),
}

export function bancoConfig(v: Values<typeof COLLECTIONS_SETTINGS>, ambiente: string): BancoConfig {
  if (v.bancoApiUrl && !v.bancoApiToken && ambiente === 'producao') {
    throw new ConfigError('BANCO_API_URL needs BANCO_API_TOKEN in production: the bank would refuse every request')
  }
  if (v.bancoRetryMaxMs < v.bancoRetryBaseMs) {
    throw new ConfigError(`BANCO_RETRY_MAX_MS (${v.bancoRetryMaxMs}) must not be less than BANCO_RETRY_BASE_MS (${v.bancoRetryBaseMs})`)
  }
  return {
    apiUrl: v.bancoApiUrl?.replace(/\/+$/, ''), apiToken: v.bancoApiToken, timeoutMs: v.bancoApiTimeoutMs,
    retry: { baseMs: v.bancoRetryBaseMs, maxMs: v.bancoRetryMaxMs },
  }
}

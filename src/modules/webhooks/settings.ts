// The webhooks' settings (issue 34): where deliveries may go, how long one may take, how the retries space out, and
// the key the endpoints' signing secrets are encrypted under at rest.
import { ConfigError } from '../../platform/lib/startup-error.ts'
import { isIpOrCidr } from '../../platform/lib/ip-ranges.ts'
import { choice, int, list, text } from '../../platform/settings/kinds.ts'
import type { Values } from '../../platform/settings/load.ts'

declare module '../../platform/config.ts' {
  interface Config {
    webhooks: WebhookConfig
  }
}

export type WebhookConfig = {
  /** Whether this instance delivers (off: another instance does; a queue is never lost, only held). */
  worker: boolean
  /** Networks a URL may reach although they are not public (the operator's own receivers; tests: 127.0.0.0/8). */
  allowedNetworks: string[]
  retry: { baseMs: number, maxMs: number }
  timeoutMs: number
  /** 32 bytes; undefined: derived from the installation's secret (a copy of the database then holds what opens them). */
  secretKey: Buffer | undefined
}

const DAY_MS = 86_400_000

export const WEBHOOK_SETTINGS = {
  webhookWorker: choice('WEBHOOK_WORKER', { values: ['on', 'off'], default: 'on', description: 'off: this instance queues webhook deliveries but sends none '
    + '(another instance with it on sends them)' }),
  webhookAllowedNetworks: list('WEBHOOK_ALLOWED_NETWORKS', {
    expected: 'an IP address or CIDR range', item: (s: string) => (isIpOrCidr(s) ? s : undefined),
    unset: 'none: public addresses only', description: 'private or loopback networks a webhook URL may reach all the same (your own receivers)',
  }),
  // Doubling from 10 s, capped at an hour: a receiver back within minutes hears again within minutes, and one down
  // for the day is tried hourly until its endpoint is turned off.
  webhookRetryBaseMs: int('WEBHOOK_RETRY_BASE_MS', {
    default: 10_000, min: 10, max: DAY_MS, description: 'the first wait before a failed delivery is tried again (doubling, with jitter)',
  }),
  webhookRetryMaxMs: int('WEBHOOK_RETRY_MAX_MS', { default: 3_600_000, min: 10, max: DAY_MS, description: 'the longest wait between two tries of a delivery' }),
  webhookTimeoutMs: int('WEBHOOK_TIMEOUT_MS', {
    default: 10_000, min: 100, max: 60_000, description: 'one delivery, from connecting to the end of the answer; past it the try failed',
  }),
  webhookSecretKey: text('WEBHOOK_SECRET_KEY', {
    unset: 'derived from the installation\'s secret, which the database holds: set it in production (a warning at start says so)',
    description: 'the key (64 hex digits) the endpoints\' signing secrets are encrypted under in the database',
  }),
}

export function webhookConfig(v: Values<typeof WEBHOOK_SETTINGS>): WebhookConfig {
  if (v.webhookRetryMaxMs < v.webhookRetryBaseMs) {
    throw new ConfigError(`WEBHOOK_RETRY_MAX_MS (${v.webhookRetryMaxMs}) must not be less than WEBHOOK_RETRY_BASE_MS (${v.webhookRetryBaseMs})`)
  }
  if (v.webhookSecretKey && !/^[0-9a-fA-F]{64}$/.test(v.webhookSecretKey)) {
    throw new ConfigError('WEBHOOK_SECRET_KEY must be 64 hexadecimal digits (32 bytes: openssl rand -hex 32)')
  }
  return {
    worker: v.webhookWorker === 'on',
    allowedNetworks: v.webhookAllowedNetworks,
    retry: { baseMs: v.webhookRetryBaseMs, maxMs: v.webhookRetryMaxMs },
    timeoutMs: v.webhookTimeoutMs,
    secretKey: v.webhookSecretKey ? Buffer.from(v.webhookSecretKey, 'hex') : undefined,
  }
}

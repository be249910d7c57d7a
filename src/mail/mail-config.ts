// Delivery settings from the environment (part of Config; see src/config.ts).
export type MailConfig = {
  /** Run the delivery worker inside the server (off when `npm run worker` runs it apart). */
  workerInServer: boolean
  maxTries: number
  retryBaseMs: number
  retryMaxMs: number
  /** A row claimed longer ago than this by a worker that vanished is claimed again. */
  leaseMs: number
  pollMs: number
  reverifyMs: number
  retentionDays: number
}

type Env = Record<string, string | undefined>
type IntReader = (env: Env, name: string, fallback: number, min: number, max: number) => number

export function loadMailConfig(env: Env, int: IntReader, fail: (msg: string) => never): MailConfig {
  const worker = (env.MAIL_WORKER ?? '').trim() || 'on'
  if (worker !== 'on' && worker !== 'off') fail(`MAIL_WORKER must be "on" or "off", got "${worker}"`)
  return {
    workerInServer: worker === 'on',
    // 12 tries, waits doubling from 1 min and capped at 6 h: the last try 15–20 hours after the first.
    maxTries: int(env, 'MAIL_MAX_TRIES', 12, 1, 100),
    retryBaseMs: int(env, 'MAIL_RETRY_BASE_MS', 60_000, 10, 86_400_000),
    retryMaxMs: int(env, 'MAIL_RETRY_MAX_MS', 6 * 3_600_000, 10, 7 * 86_400_000),
    leaseMs: int(env, 'MAIL_LEASE_MS', 120_000, 100, 86_400_000),
    pollMs: int(env, 'MAIL_POLL_MS', 1000, 10, 600_000),
    reverifyMs: int(env, 'MAIL_VERIFY_MS', 300_000, 1000, 86_400_000),
    retentionDays: int(env, 'CONTACT_RETENTION_DAYS', 365, 1, 36_500),
  }
}

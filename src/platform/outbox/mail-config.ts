// Delivery settings, read by src/platform/outbox/settings.ts (part of Config; see src/config.ts).
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

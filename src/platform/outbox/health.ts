// Whether mail is doing its job, for both readers: the `email` line of /api/status and `saudavel` in
// /api/site/contato/estado. One rule, one fallback: with the queue unreadable (the database is down, and
// `banco` says so), the channel's own state decides.
import type { Database } from '../db/database.ts'
import { withTimeout } from '../lib/timeout.ts'
import type { MailChannel } from './channel.ts'
import { channelHealthy, queueStats, type QueueStats } from './queue-stats.ts'

export type MailHealth = { healthy: boolean, stats: QueueStats | null }

export async function mailHealth(channel: MailChannel, db: Database, now: Date, timeoutMs: number): Promise<MailHealth> {
  try {
    const stats = await withTimeout(queueStats(db.orm, now), timeoutMs)
    return { healthy: channel.fitForPurpose && channelHealthy(channel.mode, channel.transport(), stats, now), stats }
  } catch {
    return { healthy: channel.mode === 'sandbox' ? channel.fitForPurpose : channel.canSend(), stats: null }
  }
}

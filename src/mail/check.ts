// The `email` line of /api/status.
import type { Database } from '../db/database.ts'
import type { ServicoOutT } from '../status/schemas.ts'
import type { MailChannel } from './channel.ts'
import { withTimeout } from '../timeout.ts'
import { channelHealthy, queueStats } from './queue-stats.ts'

export async function checkMail(channel: MailChannel, db: Database, now: Date, timeoutMs: number): Promise<ServicoOutT> {
  let ok: boolean
  try {
    ok = channel.fitForPurpose && channelHealthy(channel.mode, channel.transport(), await withTimeout(queueStats(db.orm, now), timeoutMs), now)
  } catch {
    ok = (channel.mode === 'sandbox' && channel.fitForPurpose) || channel.canSend() // the queue is unreadable; banco reports that
  }
  return { nome: 'email', ok, latencia_ms: null, modo: channel.mode }
}

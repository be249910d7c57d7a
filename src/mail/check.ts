// The `email` line of /api/status.
import type { Database } from '../db/database.ts'
import type { ServicoOutT } from '../status/schemas.ts'
import type { MailChannel } from './channel.ts'
import { mailHealth } from './health.ts'

export async function checkMail(channel: MailChannel, db: Database, now: Date, timeoutMs: number): Promise<ServicoOutT> {
  const { healthy } = await mailHealth(channel, db, now, timeoutMs)
  return { nome: 'email', ok: healthy, latencia_ms: null, modo: channel.mode }
}

// The `email` line of /api/status.
import type { Database } from '../db/database.ts'
import type { MailChannel } from './channel.ts'
import { mailHealth } from './health.ts'

/** A line of the status's `servicos` (its schema is the status module's, which this one does not import). */
export type MailCheck = { nome: 'email', ok: boolean, latencia_ms: null, modo: string }

export async function checkMail(channel: MailChannel, db: Database, now: Date, timeoutMs: number): Promise<MailCheck> {
  const { healthy } = await mailHealth(channel, db, now, timeoutMs)
  return { nome: 'email', ok: healthy, latencia_ms: null, modo: channel.mode }
}

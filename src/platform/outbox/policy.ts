// When to try again, and when to stop trying.
import type { MailConfig } from './mail-config.ts'

export type Failure = { permanent: boolean, codigo: number | null, erro: string }

/** Exponential backoff with jitter: between half and all of base·2^(tries−1), capped. */
export function retryDelayMs(tries: number, cfg: Pick<MailConfig, 'retryBaseMs' | 'retryMaxMs'>, random = Math.random): number {
  const full = Math.min(cfg.retryMaxMs, cfg.retryBaseMs * 2 ** Math.max(0, tries - 1))
  return Math.round(full / 2 + random() * (full / 2))
}

type SmtpError = Error & { code?: string, responseCode?: number, command?: string, response?: string }

/**
 * A 5xx for the recipient or the message is permanent: retrying cannot help. A 5xx at login or at
 * MAIL FROM is the provider refusing us (a configuration to fix), so it is retried like a 4xx or a
 * connection failure, giving the operator the retry window to fix it.
 */
export function classifyFailure(err: unknown): Failure {
  const e = err as SmtpError
  const codigo = typeof e.responseCode === 'number' ? e.responseCode : null
  const aboutRecipientOrMessage = e.command === 'RCPT TO' || e.command === 'DATA' || e.code === 'EENVELOPE' || e.code === 'EMESSAGE'
  const permanent = codigo !== null && codigo >= 500 && codigo < 600 && aboutRecipientOrMessage
  const erro = (e.response ?? `${e.code ?? e.name}: ${e.message}`).slice(0, 500)
  return { permanent, codigo, erro }
}

// The outbox's settings: the provider and sender, the sandbox, the delivery worker's pace and retries.
import { emailProblem } from '../lib/email-address.ts'
import { choice, int, text, url } from '../settings/kinds.ts'
import type { Values } from '../settings/load.ts'
import { ConfigError } from '../lib/startup-error.ts'
import type { MailConfig } from './mail-config.ts'

const ON_OFF = ['on', 'off'] as const
const DAY_MS = 86_400_000

export const MAIL_SETTINGS = {
  smtpUrl: url('SMTP_URL', { protocols: ['smtp:', 'smtps:'], unset: 'sandbox, nothing is sent', description: 'the outgoing mail provider' }),
  mailSandbox: choice('MAIL_SANDBOX', { values: ON_OFF, default: 'off', description: 'on: keep mail in the sandbox even with SMTP_URL' }),
  mailFrom: text('MAIL_FROM', { default: 'Contato <contato@factoring.example>', description: 'the sender of the e-mails (addr or Name <addr>)' }),
  mailWorker: choice('MAIL_WORKER', { values: ON_OFF, default: 'on', description: 'off: delivery runs apart, in npm run worker' }),
  // 12 tries, waits doubling from 1 min and capped at 6 h: the last try 15–20 hours after the first.
  mailMaxTries: int('MAIL_MAX_TRIES', { default: 12, min: 1, max: 100, description: 'attempts before a message is marked failed' }),
  mailRetryBaseMs: int('MAIL_RETRY_BASE_MS', { default: 60_000, min: 10, max: DAY_MS, description: 'the first wait between attempts (doubling)' }),
  mailRetryMaxMs: int('MAIL_RETRY_MAX_MS', { default: 6 * 3_600_000, min: 10, max: 7 * DAY_MS, description: 'the longest wait between attempts' }),
  mailLeaseMs: int('MAIL_LEASE_MS', {
    default: 120_000, min: 100, max: DAY_MS, description: 'a message claimed by a worker that died is claimed again after this',
  }),
  mailPollMs: int('MAIL_POLL_MS', { default: 1000, min: 10, max: 600_000, description: 'how often a worker looks for due retries' }),
  mailVerifyMs: int('MAIL_VERIFY_MS', { default: 300_000, min: 1000, max: DAY_MS, description: 'how often the SMTP connection and login are verified' }),
  contactRetentionDays: int('CONTACT_RETENTION_DAYS', {
    default: 365, min: 1, max: 36_500, description: 'personal data of delivered contacts older than this is erased',
  }),
}

type MailValues = Values<typeof MAIL_SETTINGS>

/** Mail is rendered and kept, never sent: no SMTP_URL, AMBIENTE=sandbox, or MAIL_SANDBOX=on. */
export function mailConfig(v: MailValues, ambiente: string): { smtpUrl: string | undefined, mailFrom: string, mailSandbox: boolean, mail: MailConfig } {
  const from = mailFrom(v.mailFrom)
  if (ambiente === 'producao' && !v.smtpUrl && v.mailSandbox !== 'on') {
    throw new ConfigError('AMBIENTE=producao needs SMTP_URL (a real mail provider): without it contacts would be accepted and never delivered. ' +
      'Set SMTP_URL, or MAIL_SANDBOX=on to run without delivery on purpose (/api/status then shows email not ok)')
  }
  return {
    smtpUrl: v.smtpUrl,
    mailFrom: from,
    mailSandbox: v.mailSandbox === 'on' || ambiente === 'sandbox' || !v.smtpUrl,
    mail: {
      workerInServer: v.mailWorker === 'on',
      maxTries: v.mailMaxTries,
      retryBaseMs: v.mailRetryBaseMs,
      retryMaxMs: v.mailRetryMaxMs,
      leaseMs: v.mailLeaseMs,
      pollMs: v.mailPollMs,
      reverifyMs: v.mailVerifyMs,
      retentionDays: v.contactRetentionDays,
    },
  }
}

/** `addr@domain` or `Name <addr@domain>`: a bad sender would only show later, as every send refused. */
function mailFrom(value: string): string {
  const address = /<([^<>]*)>\s*$/.exec(value)?.[1] ?? value
  const problem = emailProblem(address.trim())
  if (problem) throw new ConfigError(`MAIL_FROM must be an address or "Name <address>": ${problem}`)
  return value
}

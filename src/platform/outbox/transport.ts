// Where a rendered message goes: an SMTP provider, or the sandbox (kept as .eml, never sent).
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type Mail from 'nodemailer/lib/mailer/index.js'
import { onFirstUse } from '../lib/on-first-use.ts'
import type { MailMode } from './channel.ts'

const loadNodemailer = onFirstUse(() => import('nodemailer').then((m) => m.default))

/** The transporter made on first use; `close` before then closes nothing. */
function lazyTransporter(make: (nodemailer: Awaited<ReturnType<typeof loadNodemailer>>) => Mail) {
  let made: Promise<Mail> | undefined
  return {
    get: () => (made ??= loadNodemailer().then(make)),
    close: () => { void made?.then((t) => t.close()) },
  }
}

export type Sent = { estado: 'enviado' | 'sandbox', eml: string | null }

export type MailTransport = {
  readonly mode: MailMode
  send(message: Mail.Options, protocolo: string): Promise<Sent>
  verify(): Promise<unknown>
  close(): void
}

/**
 * `timeoutMs` bounds each stage of the SMTP conversation (connect, greeting, socket silence). It must stay
 * well under the worker's lease, or a slow send could outlive its claim and be sent again by another worker.
 */
export function smtpTransport(url: string, timeoutMs = 30_000): MailTransport {
  // nodemailer reads transport options from the URL's query; an operator's own values win.
  const withTimeouts = new URL(url)
  for (const key of ['connectionTimeout', 'greetingTimeout', 'socketTimeout']) {
    if (!withTimeouts.searchParams.has(key)) withTimeouts.searchParams.set(key, String(timeoutMs))
  }
  const transporter = lazyTransporter((nodemailer) => nodemailer.createTransport(withTimeouts.toString()))
  return {
    mode: 'smtp',
    async send(message) {
      await (await transporter.get()).sendMail(message)
      return { estado: 'enviado', eml: null }
    },
    verify: async () => (await transporter.get()).verify(),
    close: transporter.close,
  }
}

/** Renders exactly what SMTP would carry and keeps it in `dir/<protocolo>.eml` (and the database). */
export function sandboxTransport(dir: string): MailTransport {
  const transporter = lazyTransporter((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' }))
  return {
    mode: 'sandbox',
    async send(message, protocolo) {
      const info = await (await transporter.get()).sendMail(message)
      const eml = (info.message as Buffer).toString('utf8')
      // Visitors' personal data: this user's alone, whatever the process umask.
      mkdirSync(dir, { recursive: true, mode: 0o700 })
      writeFileSync(join(dir, `${protocolo.replace(/[^A-Za-z0-9-]/g, '')}.eml`), eml, { mode: 0o600 })
      return { estado: 'sandbox', eml }
    },
    verify: async () => undefined,
    close: transporter.close,
  }
}

/** SMTP when SMTP_URL is set, except in the sandbox environment or with MAIL_SANDBOX=on, where nothing is sent. */
export function mailTransportFor(config: { smtpUrl: string | undefined, mailSandbox: boolean, dataDir: string, mail: { leaseMs: number } }): MailTransport {
  // Three stages at most, each within a quarter of the lease: a send ends well before its claim does.
  const timeoutMs = Math.max(1000, Math.min(30_000, Math.floor(config.mail.leaseMs / 4)))
  return config.smtpUrl && !config.mailSandbox ? smtpTransport(config.smtpUrl, timeoutMs) : sandboxTransport(join(config.dataDir, 'mail'))
}

// Where a rendered message goes: an SMTP provider, or the sandbox (kept as .eml, never sent).
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import type Mail from 'nodemailer/lib/mailer/index.js'
import type { MailMode } from './channel.ts'

export type Sent = { estado: 'enviado' | 'sandbox', eml: string | null }

export type MailTransport = {
  readonly mode: MailMode
  send(message: Mail.Options, protocolo: string): Promise<Sent>
  verify(): Promise<unknown>
  close(): void
}

export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url)
  return {
    mode: 'smtp',
    async send(message) {
      await transporter.sendMail(message)
      return { estado: 'enviado', eml: null }
    },
    verify: () => transporter.verify(),
    close: () => transporter.close(),
  }
}

/** Renders exactly what SMTP would carry and keeps it in `dir/<protocolo>.eml` (and the database). */
export function sandboxTransport(dir: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' })
  return {
    mode: 'sandbox',
    async send(message, protocolo) {
      const info = await transporter.sendMail(message)
      const eml = (info.message as Buffer).toString('utf8')
      mkdirSync(dir, { recursive: true })
      writeFileSync(join(dir, `${protocolo.replace(/[^A-Za-z0-9-]/g, '')}.eml`), eml)
      return { estado: 'sandbox', eml }
    },
    verify: async () => undefined,
    close: () => transporter.close(),
  }
}

/** SMTP when SMTP_URL is set, except in the sandbox environment, where nothing is ever sent. */
export function mailTransportFor(config: { smtpUrl: string | undefined, ambiente: string, dataDir: string }): MailTransport {
  return config.smtpUrl && config.ambiente !== 'sandbox' ? smtpTransport(config.smtpUrl) : sandboxTransport(join(config.dataDir, 'mail'))
}

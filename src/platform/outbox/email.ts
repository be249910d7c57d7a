// The `smtp` transport of the worker's registry: a queued message as the e-mail its row describes. Whatever the
// producer gave is cleaned once more here, whoever it was: headers of CR, LF and control characters (no header
// injection), the text part of terminal escapes; the Reply-To stays one structured address.
import type Mail from 'nodemailer/lib/mailer/index.js'
import type { MailAttachment, MailHeaders } from '../db/schema.ts'
import type { Claimed } from './claim.ts'
import { messageIdFor } from './message-id.ts'
import { headerSafe, textSafe } from './mime-safe.ts'
import type { MailTransport, Sent } from './transport.ts'

/** What an e-mail is made of: a claimed row's parts, or a message an operator tests the channel with. */
export type EmailParts = {
  protocolo: string
  destino: string
  criadoEm: Date
  requestId: string
  subject: string
  text: string
  html: string | null
  headers: MailHeaders | null
  attachments?: MailAttachment[] | null
}

export function emailOf(m: EmailParts, mailFrom: string): Mail.Options {
  const { replyTo, extra = {} } = m.headers ?? {}
  const headers = Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, headerSafe(v, 200)]))
  return {
    from: mailFrom,
    to: m.destino,
    ...(replyTo && { replyTo: { name: headerSafe(replyTo.name, 120), address: headerSafe(replyTo.address, 320) } }),
    subject: headerSafe(m.subject, 400),
    messageId: messageIdFor(m.protocolo, mailFrom),
    date: m.criadoEm,
    headers: { ...headers, 'X-Request-ID': headerSafe(m.requestId, 128) },
    text: textSafe(m.text),
    ...(m.html !== null && { html: m.html }),
    ...(m.attachments?.length && {
      attachments: m.attachments.map((a) => ({ filename: headerSafe(a.nome, 100), contentType: a.tipo, content: Buffer.from(a.base64, 'base64') })),
    }),
  }
}

/** The registry's `smtp`: sends a claimed row (its content there: see `unsendable`) through the configured transport. */
export function emailDelivery(transport: MailTransport, mailFrom: string) {
  return (row: Claimed): Promise<Sent> => transport.send(emailOf({
    ...row, subject: row.assuntoEmail!, text: row.texto!, headers: row.cabecalhos, attachments: row.anexos,
  }, mailFrom), row.protocolo)
}

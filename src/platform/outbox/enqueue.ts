// The outbox's one door: a message rendered by its producer (the contact form, an invitation…), queued in the
// producer's own transaction, so it is delivered if and only if the work it belongs to commits, by exactly one
// worker, with retries and the sandbox. The queue keeps the message as given and never asks what it is about.
import { systemClock, type Clock } from '../lib/clock.ts'
import type { Orm } from '../db/database.ts'
import { auditoria, outbox, TRANSPORTS, type MailHeaders } from '../db/schema.ts'
import { emailProblem } from '../lib/email-address.ts'
import { REQUEST_ID_PATTERN } from '../http/request-id.ts'
import { isUuid } from '../lib/uuid.ts'
import { headerSafe } from './mime-safe.ts'
import { newProtocolo, PROTOCOLO_SHAPE } from './protocolo.ts'

export type Transport = (typeof TRANSPORTS)[number]

/** A rendered e-mail, as a template (renderInvitation, the contact's…) returns it; `html` may be left out. */
export type RenderedMail = { subject: string, text: string, html?: string, headers?: MailHeaders, attachments?: Attachment[] }

/** A file sent with a message: a plain name (it is the recipient's to save), a media type of the list, its bytes. */
export type Attachment = { filename: string, contentType: (typeof ATTACHMENT_TYPES)[number], content: Buffer }

export const ATTACHMENT_TYPES = ['application/pdf', 'text/plain', 'text/csv'] as const
/** What a message may carry in all, before base64 (migration 0045 bounds the stored form). */
export const ATTACHMENTS_MAX_BYTES = 1_500_000

export type OutgoingMessage = RenderedMail & {
  /** The producer's name for its messages (`convite`): the audit rows' prefix and the listings' kind. */
  kind: string
  /** How it is named: the protocolo its work already has (a contact's), or a new one under this prefix (`CV`). */
  name: { protocolo: string } | { prefix: string }
  /** One address. */
  to: string
  /** The request or command that made the message: in its headers, logs and audit rows. */
  requestId: string
  /** The customer the message is about, when there is one. */
  clienteId?: string | null
  /** After this the message is not sent any more and its content is erased (an invitation: its link's expiry). */
  expiresAt?: Date | null
  /** `smtp` (the default) is the only one yet. */
  transport?: Transport
  /** False when the producer's own audit row, in the same transaction, records the queueing (a contact's `contato.recebido`). */
  audited?: boolean
}

/**
 * Queues `message` in `tx` (a transaction of the caller's, or the database itself) and answers its protocolo.
 * A message that is not one (a bad kind or name, a bad address, an empty part, an expiry already past) is the
 * caller's mistake: it throws a TypeError naming the field, never its value (a part may hold a secret link).
 */
export async function enqueueMessage(tx: Orm, message: OutgoingMessage, clock: Clock = systemClock): Promise<{ protocolo: string }> {
  const now = clock.now()
  checkMessage(message, now)
  const { name } = message
  const protocolo = 'protocolo' in name ? name.protocolo : newProtocolo(now, name.prefix)
  await tx.insert(outbox).values({
    tipo: message.kind, transporte: message.transport ?? 'smtp', protocolo, destino: message.to, requestId: message.requestId,
    clienteId: message.clienteId ?? null, expiraEm: message.expiresAt ?? null,
    assuntoEmail: noNul(message.subject), texto: noNul(message.text), html: message.html === undefined ? null : noNul(message.html),
    cabecalhos: cleanHeaders(message.headers),
    anexos: message.attachments?.length
      ? message.attachments.map((a) => ({ nome: a.filename, tipo: a.contentType, base64: a.content.toString('base64') }))
      : null,
    criadoEm: now, proximaTentativaEm: now, atualizadoEm: now,
  })
  if (message.audited !== false) await tx.insert(auditoria).values({ em: now, acao: `${message.kind}.enfileirado`, protocolo, requestId: message.requestId })
  return { protocolo }
}

const text = (v: unknown): v is string => typeof v === 'string'
const named = (n: OutgoingMessage['name']) => n !== null && typeof n === 'object' &&
  ('protocolo' in n ? text(n.protocolo) && PROTOCOLO_SHAPE.test(n.protocolo) : text(n.prefix) && /^[A-Z]{2}$/.test(n.prefix))

// The headers a worker sets itself, or that would change where the message goes, are not a producer's to give.
const headersOk = (h: MailHeaders | undefined) => h === undefined || (
  (h.replyTo === undefined || (text(h.replyTo.name) && text(h.replyTo.address) && emailProblem(h.replyTo.address) === null)) &&
  Object.entries(h.extra ?? {}).every(([k, v]) => /^(X-[A-Za-z0-9-]{1,60}|Auto-Submitted)$/.test(k) && text(v)))

const attachmentsOk = (list: Attachment[] | undefined) => list === undefined || (Array.isArray(list) && list.length <= 5
  && list.every((a) => text(a.filename) && /^[\p{L}\p{N} ._-]{1,100}$/u.test(a.filename) && !a.filename.startsWith('.')
    && (ATTACHMENT_TYPES as readonly string[]).includes(a.contentType) && Buffer.isBuffer(a.content) && a.content.length > 0)
  && list.reduce((s, a) => s + a.content.length, 0) <= ATTACHMENTS_MAX_BYTES)

/** Each rule in turn; the first broken one names the field. */
const RULES: [(m: OutgoingMessage, now: Date) => boolean, string][] = [
  [(m) => text(m.kind) && /^[a-z][a-z0-9_]{0,39}$/.test(m.kind), 'kind must be 1 to 40 of a-z 0-9 _, starting with a letter'],
  [(m) => named(m.name), 'name must be a protocolo (XX-YYYYMMDD-XXXXXXXX) or a prefix of two capital letters'],
  [(m) => m.transport === undefined || (TRANSPORTS as readonly string[]).includes(m.transport), `transport must be one of ${TRANSPORTS.join(', ')}`],
  [(m) => text(m.to) && emailProblem(m.to) === null, 'to must be one e-mail address'],
  [(m) => text(m.subject) && headerSafe(m.subject) !== '', 'subject must not be empty'],
  [(m) => text(m.text) && m.text.trim() !== '', 'text must not be empty'],
  [(m) => m.html === undefined || (text(m.html) && m.html.trim() !== ''), 'html must not be empty'],
  [(m) => headersOk(m.headers), 'headers must be a replyTo of one e-mail address and extra X- (or Auto-Submitted) headers of text'],
  [(m) => attachmentsOk(m.attachments), `attachments must be at most 5 files of ${ATTACHMENT_TYPES.join(', ')}, each a plain name (letters, `
    + `digits, space . _ -) and bytes, ${ATTACHMENTS_MAX_BYTES} bytes in all`],
  [(m) => text(m.requestId) && REQUEST_ID_PATTERN.test(m.requestId), 'requestId must be 1 to 128 of A-Z a-z 0-9 . _ -'],
  [(m) => m.clienteId == null || (text(m.clienteId) && isUuid(m.clienteId)), 'clienteId must be a UUID'],
  [(m, now) => m.expiresAt == null || (m.expiresAt instanceof Date && m.expiresAt.getTime() > now.getTime()), 'expiresAt must be a time after now'],
]

function checkMessage(m: OutgoingMessage, now: Date): void {
  const broken = RULES.find(([holds]) => !holds(m, now))
  if (broken) throw new TypeError(`enqueueMessage: ${broken[1]}`)
}

// PostgreSQL text cannot hold NUL, nor jsonb a lone surrogate (text gets U+FFFD for one anyway).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
const noNul = (s: string) => s.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\ufffd')

function cleanHeaders(h: MailHeaders | undefined): MailHeaders | null {
  if (!h) return null
  return {
    ...(h.replyTo && { replyTo: { name: noNul(h.replyTo.name), address: noNul(h.replyTo.address) } }),
    ...(h.extra && { extra: Object.fromEntries(Object.entries(h.extra).map(([k, v]) => [k, noNul(v)])) }),
  }
}

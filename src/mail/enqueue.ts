// The outbox's door for every module but the contact form (whose rows are rendered from the contact itself): a
// message of a kind, rendered by its caller, queued in the caller's own transaction, so it is delivered if and
// only if the work it belongs to commits, by exactly one worker, with the contact's retries and sandbox.
import { systemClock, type Clock } from '../clock.ts'
import { newProtocolo } from '../contact/protocolo.ts'
import type { Orm } from '../db/database.ts'
import { auditoria, outbox, type MESSAGE_KINDS } from '../db/schema.ts'
import { emailProblem } from '../email-address.ts'
import { REQUEST_ID_PATTERN } from '../http/request-id.ts'
import { isUuid } from '../uuid.ts'
import { headerSafe } from './mime-safe.ts'

export type MessageKind = Exclude<(typeof MESSAGE_KINDS)[number], 'contato'>

/** Each kind's protocolo prefix: `CV-20261121-7F3K9Q2M` is an invitation wherever it is quoted. */
const PREFIX: Record<MessageKind, string> = { convite: 'CV' }

/** A rendered e-mail, as a template (renderInvitation…) returns it. */
export type RenderedMail = { subject: string, text: string, html: string }

export type OutgoingMessage = RenderedMail & {
  kind: MessageKind
  /** One address, a person's: the queue's listings show only its domain. */
  to: string
  /** The request or command that made the message: in its headers, logs and audit rows. */
  requestId: string
  /** The customer the message is about, when there is one. */
  clienteId?: string | null
  /** After this the message is not sent any more and its content is erased (an invitation: its link's expiry). */
  expiresAt: Date
}

/**
 * Queues `message` in `tx` (a transaction of the caller's, or the database itself) and answers its protocolo.
 * A message that is not one (no such kind, a bad address, an empty part, an expiry already past) is the
 * caller's mistake: it throws a TypeError naming the field, never its value (a part may hold a secret link).
 */
export async function enqueueMessage(tx: Orm, message: OutgoingMessage, clock: Clock = systemClock): Promise<{ protocolo: string }> {
  const now = clock.now()
  checkMessage(message, now)
  const protocolo = newProtocolo(now, PREFIX[message.kind])
  await tx.insert(outbox).values({
    tipo: message.kind, protocolo, destino: message.to, requestId: message.requestId, clienteId: message.clienteId ?? null,
    assuntoEmail: noNul(message.subject), texto: noNul(message.text), html: noNul(message.html), expiraEm: message.expiresAt,
    criadoEm: now, proximaTentativaEm: now, atualizadoEm: now,
  })
  await tx.insert(auditoria).values({ em: now, acao: `${message.kind}.enfileirado`, protocolo, requestId: message.requestId })
  return { protocolo }
}

const text = (v: unknown): v is string => typeof v === 'string'

/** Each rule in turn; the first broken one names the field. */
const RULES: [(m: OutgoingMessage, now: Date) => boolean, string][] = [
  [(m) => Object.hasOwn(PREFIX, m.kind), `kind must be one of ${Object.keys(PREFIX).join(', ')}`],
  [(m) => text(m.to) && emailProblem(m.to) === null, 'to must be one e-mail address'],
  [(m) => text(m.subject) && headerSafe(m.subject) !== '', 'subject must not be empty'],
  [(m) => text(m.text) && m.text.trim() !== '', 'text must not be empty'],
  [(m) => text(m.html) && m.html.trim() !== '', 'html must not be empty'],
  [(m) => text(m.requestId) && REQUEST_ID_PATTERN.test(m.requestId), 'requestId must be 1 to 128 of A-Z a-z 0-9 . _ -'],
  [(m) => m.clienteId == null || (text(m.clienteId) && isUuid(m.clienteId)), 'clienteId must be a UUID'],
  [(m, now) => m.expiresAt instanceof Date && m.expiresAt.getTime() > now.getTime(), 'expiresAt must be a time after now'],
]

function checkMessage(m: OutgoingMessage, now: Date): void {
  const broken = RULES.find(([holds]) => !holds(m, now))
  if (broken) throw new TypeError(`enqueueMessage: ${broken[1]}`)
}

// PostgreSQL text cannot hold NUL.
const noNul = (s: string) => s.replaceAll('\u0000', '')

// The one way a contact is taken, through either door: the API (POST /api/site/contato) and the site's
// form without JavaScript (POST /contato). Screening and storing share one time budget, so a database that
// stops answering gives the visitor a 503 in bounded time instead of a request that hangs; a failure is
// logged by its facts alone (src/platform/lib/log-safety.ts: a query's message carries the visitor's data).
import type { FastifyRequest } from 'fastify'
import type { Orm } from '../../platform/db/database.ts'
import { DomainError } from '../../platform/http/domain-error.ts'
import { errorFacts } from '../../platform/lib/log-safety.ts'
import type { Via } from './spam/rules.ts'
import { withTimeout } from '../../platform/lib/timeout.ts'
import type { ContatoInT } from './schemas.ts'
import type { Accepted, ContactService } from './service.ts'
import type { ContatoOutT } from './schemas.ts'
import { jsonAnswer } from '../../platform/idempotency/http.ts'
import type { Done } from '../../platform/idempotency/run.ts'

/** A contact's budget, in single queries (DB_TIMEOUT_MS): a transaction of a few statements after the secret's read. */
export const CONTACT_TIMEOUT_FACTOR = 4

/** What a 503 asks the client to wait before trying again. */
export const RETRY_AFTER_SECONDS = 30

/** What is submitted, and through which door. */
export type Submission = {
  /** The body as validated against ContatoIn. */
  value: ContatoInT
  /** The body as posted, with the form's extra fields, for the spam rules. */
  posted: unknown
  via: Via
}

/** The request it came in: its id and address are stored with the contact; its logger says what happened. */
export type SubmittedBy = Pick<FastifyRequest, 'id' | 'ip'> & { log: Pick<FastifyRequest['log'], 'info' | 'error'> }

export type SubmitResult =
  | { kind: 'accepted', accepted: Accepted }
  /** The site's form was too old (or served without a token): it is shown again, with a fresh one. */
  | { kind: 'expired' }
  /** Nothing was stored: the database failed or did not answer in time. */
  | { kind: 'unavailable' }

/**
 * Screens and stores the contact; in `tx` when given (an Idempotency-Key's transaction). Screening may read the
 * form tokens' key: a caller with `tx` on the embedded database has it read first (ContactService.prepareForm).
 */
export async function submitContact(contact: ContactService, req: SubmittedBy, s: Submission, dbTimeoutMs: number, tx?: Orm): Promise<SubmitResult> {
  let result: SubmitResult
  try {
    const work = screenAndStore(contact, req, s, tx)
    // In a caller's transaction the caller's budget bounds the work (src/platform/idempotency/run.ts). A timer of its own
    // here would end that transaction (rollback, its connection back to the pool) while this work still had
    // statements to send on it, which would then run outside any transaction, or inside another request's.
    result = await (tx ? work : withTimeout(work, CONTACT_TIMEOUT_FACTOR * dbTimeoutMs))
  } catch (err) {
    req.log.error(errorFacts(err), 'contact could not be stored')
    return { kind: 'unavailable' }
  }
  if (result.kind === 'accepted') {
    const { protocolo, novo, spam } = result.accepted
    // A bot's contact is answered exactly as a person's (it must not learn what gave it away); only the log says.
    req.log.info({ protocolo, novo, via: s.via, ...(spam ? { spam } : {}) }, 'contact accepted')
  }
  return result
}

async function screenAndStore(contact: ContactService, req: SubmittedBy, s: Submission, tx?: Orm): Promise<SubmitResult> {
  const verdict = await contact.screen(s.posted, s.via)
  if (verdict.expired) return { kind: 'expired' }
  const accepted = await contact.submit(s.value, { requestId: req.id, ip: req.ip, spam: verdict.spam }, tx)
  return { kind: 'accepted', accepted }
}

/** Thrown by contactWork when nothing was stored (already logged): its transaction stores no answer. */
export class ContactNotStored extends DomainError<'servico_indisponivel'> {
  constructor() { super('servico_indisponivel', 'the contact could not be stored', { 'retry-after': String(RETRY_AFTER_SECONDS) }) }
}

/**
 * The contact as a mutation's work (src/platform/idempotency/run.ts), for the API route and the MCP tool alike: stored in
 * the given transaction, its 202 answer stored with it when a key came. What screening reads from the database must be
 * read before (ContactService.prepareForm): on the embedded database a query outside the transaction would wait.
 */
export function contactWork(contact: ContactService, by: SubmittedBy, s: Submission, dbTimeoutMs: number) {
  return async (tx: Orm): Promise<Done<ContatoOutT>> => {
    const result = await submitContact(contact, by, s, dbTimeoutMs, tx)
    if (result.kind !== 'accepted') throw new ContactNotStored()
    const { protocolo, destino, mensagem } = result.accepted
    const out = { protocolo, destino, mensagem }
    return { answer: jsonAnswer(202, out), result: out }
  }
}

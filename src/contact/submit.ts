// The one way a contact is taken, through either door: the API (POST /api/site/contato) and the site's
// form without JavaScript (POST /contato). Screening and storing share one time budget, so a database that
// stops answering gives the visitor a 503 in bounded time instead of a request that hangs; a failure is
// logged by its facts alone (src/log-safety.ts: a query's message carries the visitor's data).
import type { FastifyRequest } from 'fastify'
import { errorFacts } from '../log-safety.ts'
import type { Via } from '../spam/rules.ts'
import { withTimeout } from '../timeout.ts'
import type { ContatoInT } from './schemas.ts'
import type { Accepted, ContactService } from './service.ts'

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

export async function submitContact(contact: ContactService, req: SubmittedBy, s: Submission, dbTimeoutMs: number): Promise<SubmitResult> {
  let result: SubmitResult
  try {
    // A transaction of a few statements, after the secret's read: a few times the single-query budget.
    result = await withTimeout(screenAndStore(contact, req, s), dbTimeoutMs * 4)
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

async function screenAndStore(contact: ContactService, req: SubmittedBy, s: Submission): Promise<SubmitResult> {
  const verdict = await contact.screen(s.posted, s.via)
  if (verdict.expired) return { kind: 'expired' }
  const accepted = await contact.submit(s.value, { requestId: req.id, ip: req.ip, spam: verdict.spam })
  return { kind: 'accepted', accepted }
}

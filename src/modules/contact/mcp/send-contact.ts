// The one way enviar_contato stores a contact: through the same submitContact as POST /api/site/contato, under
// the Idempotency-Key mechanism (src/platform/idempotency/) with the agent's key or the message's (contact-key.ts). The
// contact and the stored answer commit together, in the token's customer's transaction, so an agent that calls
// again gets the first protocolo for IDEMPOTENCY_KEY_TTL_HOURS and nothing runs twice, past the contact store's
// own ten-minute double-submit window too.
import type { Credential } from '../../credentials/index.ts'
import type { ContatoInT, ContatoOutT } from '../schemas.ts'
import type { ContactService } from '../service.ts'
import { CONTACT_TIMEOUT_FACTOR, ContactNotStored, contactWork, type SubmittedBy } from '../submit.ts'
import { requestFingerprint } from '../../../platform/idempotency/fingerprint.ts'
import type { Idempotency } from '../../../platform/idempotency/run.ts'
import { errorFacts } from '../../../platform/lib/log-safety.ts'

export type SentContact =
  | { kind: 'accepted', protocolo: string, destino: string, mensagem: string }
  /** The same call is still running (a retry sent before the first answered). */
  | { kind: 'in_use' }
  /** The agent's key was used for another message. */
  | { kind: 'reused' }
  /** Nothing was stored: the database failed or did not answer in time. */
  | { kind: 'unavailable' }

export type ContactSender = (key: string, value: ContatoInT, by: SubmittedBy, credential: Credential) => Promise<SentContact>

export function contactSender(contact: ContactService, idempotency: Idempotency, dbTimeoutMs: number): ContactSender {
  return async (key, value, by, credential) => {
    try {
      // What screening reads from the database is read before the transaction (see submitContact).
      await contact.prepareForm()
      const outcome = await idempotency.run({
        scope: { escopo: `${credential.kind}:${credential.id}`, clienteId: credential.clienteId },
        key,
        fingerprint: requestFingerprint('MCP', 'tools/call enviar_contato', value),
      }, contactWork(contact, by, { value, posted: value, via: 'api' }, dbTimeoutMs), CONTACT_TIMEOUT_FACTOR * dbTimeoutMs)
      if (outcome.kind === 'fresh') return { kind: 'accepted', ...outcome.result }
      if (outcome.kind === 'replayed') return { kind: 'accepted', ...(JSON.parse(outcome.answer.body) as ContatoOutT) }
      return { kind: outcome.kind }
    } catch (err) {
      if (!(err instanceof ContactNotStored)) by.log.error(errorFacts(err), 'contact could not be stored')
      return { kind: 'unavailable' }
    }
  }
}

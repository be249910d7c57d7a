// The contact module's metrics: contacts accepted by each door, and submissions kept as spam.
import { Counter, type Registry } from 'prom-client'
import type { ResponseObserver } from '../../platform/http/access-log.ts'
import { CONTACT_API_PATH, CONTACT_FORM_PATH } from './paths.ts'

/** Where a contact is accepted (202): the API and the site's own form. */
const DOORS: Record<string, string> = { [CONTACT_API_PATH]: 'api', [CONTACT_FORM_PATH]: 'site' }

export type ContactMetrics = {
  /** For the spam filter's onSpam(reason) hook. */
  spam: Counter<'motivo'>
  /** Counts each 202 of either door (a replayed answer too, as the client saw it accepted). */
  observeAccepted: ResponseObserver
}

export function contactMetrics(registry: Registry): ContactMetrics {
  const registers = [registry]
  const accepted = new Counter({
    name: 'contacts_accepted_total', help: 'Contacts accepted (202), by channel: api or site form', labelNames: ['canal'], registers,
  })
  return {
    spam: new Counter({
      name: 'contact_spam_total', help: 'Contact submissions kept as spam and never e-mailed, by reason', labelNames: ['motivo'], registers,
    }),
    observeAccepted: (req, reply, route) => {
      const canal = DOORS[route]
      if (canal && req.method === 'POST' && reply.statusCode === 202) accepted.inc({ canal })
    },
  }
}

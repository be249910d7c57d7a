// The contact module: the public form's API (subjects, channel state, the form), the service that validates,
// screens and stores a contact with its message in the outbox, and the operator's `contatos`.
import { join } from 'node:path'
import { contactsCommand, CONTACTS_HELP } from './cli.ts'
import { defineModule } from '../../platform/module.ts'
import { DEFAULT_MAX_AGE_MS } from './spam/rules.ts'
import { makeFormTokens } from './spam/token.ts'
import { retentionJob } from './retention.ts'
import { contactRoutes } from './routes.ts'
import { ContatoIn, ContatoOut } from './schemas.ts'
import { makeContactService, type ContactService } from './service.ts'
import { makeContactStore } from './store.ts'
import { makeSubjectRouter } from './subjects.ts'
import { keyedLimit } from '../../platform/http/rate-limit.ts'
import { routeLabel } from '../../platform/http/route-label.ts'
import { contactSender } from './mcp/send-contact.ts'
import { contactTools } from './mcp/tools.ts'
import { contactMetrics } from './metrics.ts'

declare module '../../platform/module.ts' {
  interface ModuleServices {
    contact: ContactService
  }
}

export const contactModule = defineModule({
  name: 'contact',
  setup({ config, db, clock, metrics, channel, idempotency, observe, http }) {
    const store = makeContactStore(db.orm, clock)
    const counted = contactMetrics(metrics.registry)
    const contact = makeContactService(store, makeSubjectRouter(config.subjects), {
      tokens: makeFormTokens(store.secret), rules: { minFillMs: config.spamMinFillMs, maxAgeMs: DEFAULT_MAX_AGE_MS }, clock,
      onSpam: (reason) => { counted.spam.inc({ motivo: reason }); observe.spam?.(reason) },
    })
    return {
      provides: { contact },
      publicSchemas: [ContatoIn, ContatoOut],
      observeResponses: counted.observeAccepted,
      routes: contactRoutes({ config, db, contact, channel, clock, idempotency }),
      contributes: {
        mcp: {
          tools: contactTools({
            contact, sendContact: contactSender(contact, idempotency, config.dbTimeoutMs),
            // An agent's budget is its credential's, as the form's is its IP's.
            contactLimit: keyedLimit(http, config.rateLimits.contato, (req) => `mcp-contato:${req.credential!.id}`,
              (req) => metrics.rateLimited.inc({ route: routeLabel(req) })),
          }),
        },
      },
    }
  },
  commands: [{ name: 'contatos', help: CONTACTS_HELP, run: contactsCommand }],
  jobs: ({ db, config, log }) => [retentionJob({ orm: db.orm, days: config.mail.retentionDays, mailDir: join(config.dataDir, 'mail'), log })],
})

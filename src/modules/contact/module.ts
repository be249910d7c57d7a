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

declare module '../../platform/module.ts' {
  interface ModuleServices {
    contact: ContactService
  }
}

export const contactModule = defineModule({
  name: 'contact',
  setup({ config, db, clock, metrics, channel, idempotency, observe }) {
    const store = makeContactStore(db.orm, clock)
    const contact = makeContactService(store, makeSubjectRouter(config.subjects), {
      tokens: makeFormTokens(store.secret), rules: { minFillMs: config.spamMinFillMs, maxAgeMs: DEFAULT_MAX_AGE_MS }, clock,
      onSpam: (reason) => { metrics.spam.inc({ motivo: reason }); observe.spam?.(reason) },
    })
    return {
      provides: { contact },
      publicSchemas: [ContatoIn, ContatoOut],
      routes: contactRoutes({ config, db, contact, channel, clock, idempotency }),
    }
  },
  commands: [{ name: 'contatos', help: CONTACTS_HELP, run: contactsCommand }],
  jobs: ({ db, config, log }) => [retentionJob({ orm: db.orm, days: config.mail.retentionDays, mailDir: join(config.dataDir, 'mail'), log })],
})

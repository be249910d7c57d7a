// The contact form's logic without HTTP: validate a body as the API does, route its subject, store it.
// The API route and the website's no-JavaScript form handler both call it, so they cannot drift apart.
import { makeCheck, type Checked } from '../../platform/http/validation-errors.ts'
import type { Clock } from '../../platform/lib/clock.ts'
import { judge, type SpamReason, type SpamRules, type Verdict, type Via } from './spam/rules.ts'
import type { FormTokens } from './spam/token.ts'
import { ContatoIn, type ContatoInT } from './schemas.ts'
import type { Orm } from '../../platform/db/database.ts'
import { ipHash } from '../../platform/lib/ip-hash.ts'
import type { ContactStore } from './store.ts'
import type { SubjectRouter } from './subjects.ts'

export type Accepted = { protocolo: string, destino: string, mensagem: string, novo: boolean, spam?: SpamReason }
export type Validated = Checked<ContatoInT>

export type ContactService = {
  readonly subjects: SubjectRouter
  /** The API's own validation (same schema, same options, same 422 items), for bodies not parsed by it. */
  validate(input: unknown): Validated
  /** Whether a posted body (with the form's extra fields) is a bot's: see src/modules/contact/spam/rules.ts. */
  screen(body: unknown, via: Via): Promise<Verdict>
  /** Reads the key of the form tokens if not yet read; never rejects (a form is still served without a token). */
  prepareForm(): Promise<void>
  /** The token a form served now carries (empty until the installation secret could be read). */
  formToken(): string
  /**
   * Stores the contact; rejects when the database cannot take it (the caller answers 503). With `spam` it is
   * stored as a bot's, never e-mailed, and answered exactly like a person's.
   */
  submit(value: ContatoInT, meta: { requestId: string, ip: string, spam?: SpamReason }, tx?: Orm): Promise<Accepted>
  /** The client's address as the contact rows keep it (HMAC with the installation's salt): an anonymous caller's identity. */
  ipHash(ip: string): Promise<string>
}

export type SpamOptions = {
  tokens: FormTokens
  rules: SpamRules
  clock: Clock
  /** Called once per submission stored as spam (the metrics counter); its failure never fails the request. */
  onSpam?: (reason: SpamReason) => void
}

export function confirmation(protocolo: string): string {
  return `Recebemos sua mensagem. Guarde o protocolo ${protocolo}: responderemos pelo e-mail informado.`
}

export function makeContactService(store: ContactStore, subjects: SubjectRouter, spam: SpamOptions): ContactService {
  // Compiled on the first form post, not at start (a tenth of a second of a loaded start-up's CPU went here).
  const validate = makeCheck<ContatoInT>(ContatoIn)
  return {
    subjects,
    validate,
    screen: (body, via) => judge(body, via, spam.tokens, spam.rules, spam.clock.now()),
    // A database that cannot be read now leaves the token empty: a post of that form is then judged tokenless.
    prepareForm: () => spam.tokens.load().catch(() => {}),
    formToken: () => spam.tokens.issue(spam.clock.now()),
    ipHash: async (ip) => ipHash(await store.secret(), ip),
    async submit(value, meta, tx) {
      const subject = subjects.route(value.assunto)
      const stored = await store.submit({
        fields: {
          nome: value.nome, email: value.email, mensagem: value.mensagem,
          empresa: value.empresa ?? '', telefone: value.telefone ?? '', site: value.site ?? '',
        },
        subject,
        ...meta,
      }, tx)
      if (meta.spam) {
        try { spam.onSpam?.(meta.spam) } catch { /* counting must never turn a stored contact into an error */ }
      }
      return { ...stored, mensagem: confirmation(stored.protocolo), ...(meta.spam ? { spam: meta.spam } : {}) }
    },
  }
}

// The contact area's setting: SERVICE_CONFIG_FILE's `subjects` replaces the default list (src/modules/contact/subjects.ts).
import { emailProblem } from '../../platform/lib/email-address.ts'
import type { FileSetting } from '../../platform/settings/kinds.ts'
import { DEFAULT_SUBJECTS, FALLBACK_SUBJECT, type Subject } from './subjects.ts'

// The contact module's settings, its spam rules' included, as src/config.ts composes them.
export { SPAM_SETTINGS } from './spam/settings.ts'
export type { Subject }

declare module '../../platform/config.ts' {
  interface Config {
    subjects: Subject[]
    /** A site form posted sooner than this after it was served is a bot's (spam `rapido`). */
    spamMinFillMs: number
  }
}

export const CONTACT_SETTINGS = {
  subjects: {
    from: 'file',
    key: 'subjects',
    description: 'the contact subjects and the mailbox each routes to, {codigo, rotulo, email}; must include "geral"',
    read(value, fail) {
      if (value === undefined) return DEFAULT_SUBJECTS
      const ok = Array.isArray(value) && value.length > 0 && value.every((s: Subject | null) =>
        typeof s?.codigo === 'string' && /^[a-z0-9_-]+$/.test(s.codigo) && typeof s.rotulo === 'string' && typeof s.email === 'string' &&
        emailProblem(s.email) === null)
      if (!ok) fail('"subjects" must be a list of {codigo (lower-case), rotulo, email (a valid address)}')
      const subjects = value as Subject[]
      // Unknown subjects fall to it (makeSubjectRouter).
      if (!subjects.some((s) => s.codigo === FALLBACK_SUBJECT)) fail(`"subjects" must include "${FALLBACK_SUBJECT}" (unknown subjects fall to it)`)
      return subjects
    },
  } satisfies FileSetting<Subject[]>,
}

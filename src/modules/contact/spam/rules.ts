// Telling a bot's contact from a person's, on both paths into the form. The rules (docs/decisions.md):
// - the honeypot field (`website`), hidden from people, filled: spam `honeypot`, on either path;
// - the site's form (`POST /contato`) must carry the page's token: missing or forged is spam `token`; empty
//   (the page was served while the database could not be read) gets the form again with a fresh one;
// - the API follows the contract (ContatoIn, no extra field required): no (or an empty) token is a normal
//   client and is delivered; a token that is sent but forged is spam `token` (only a bot invents one);
// - an authentic token younger than the minimum fill time is spam `rapido`;
// - an authentic token older than the maximum age: the site's form is shown again with a fresh token (a
//   person who left the tab open is not silently dropped); the API delivers (omitting it would anyway).
import type { FormTokens } from './token.ts'

export const SPAM_REASONS = ['honeypot', 'rapido', 'token'] as const
export type SpamReason = (typeof SPAM_REASONS)[number]

/** Names of the extra form fields: the honeypot has a name bots like to fill; the contract's `site` is a real field. */
export const HONEYPOT_FIELD = 'website'
export const TOKEN_FIELD = 'token_formulario'

export type Via = 'api' | 'site'
export type Verdict = { spam?: SpamReason, expired?: true }
export type SpamRules = { minFillMs: number, maxAgeMs: number }

export const DEFAULT_MAX_AGE_MS = 24 * 3_600_000

/** The extra fields of a posted body (JSON object or form), as sent; undefined when absent. */
export function spamSignals(body: unknown): { honeypot: unknown, token: unknown } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { honeypot: undefined, token: undefined }
  const b = body as Record<string, unknown>
  return { honeypot: b[HONEYPOT_FIELD], token: b[TOKEN_FIELD] }
}

export async function judge(body: unknown, via: Via, tokens: FormTokens, rules: SpamRules, now: Date): Promise<Verdict> {
  const { honeypot, token } = spamSignals(body)
  // Anything but absent or blank: a bot that sends a number or an object there filled it too.
  if (honeypot !== undefined && !(typeof honeypot === 'string' && honeypot.trim() === '')) return { spam: 'honeypot' }
  if ((token === undefined || token === '') && via === 'api') return {}
  if (token === '' && via === 'site') return { expired: true }
  if (typeof token !== 'string' || token === '') return { spam: 'token' }
  const check = await tokens.verify(token, now)
  if (!check.ok) return { spam: 'token' }
  if (check.ageMs < rules.minFillMs) return { spam: 'rapido' }
  if (check.ageMs > rules.maxAgeMs) return via === 'site' ? { expired: true } : {}
  return {}
}

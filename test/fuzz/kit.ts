// What the API fuzz suites share: the service they run against (the per-IP limits skip the test's address and the
// per-credential budget is widened, so every generated request reaches its route: the fuzz is about inputs, not
// rates; no e-mail is sent), and short hostile text for any string field.
import fc from 'fast-check'
import { serviceConfigFile } from '../helpers/app.ts'

export const unthrottledEnv = (): Record<string, string> => ({
  MAIL_WORKER: 'off', RATE_LIMIT_ALLOWLIST: '127.0.0.1',
  SERVICE_CONFIG_FILE: serviceConfigFile({ rateLimits: { credencial: { max: 1_000_000, windowSeconds: 60 } } }),
})

/** Control, bidi, emoji, markup, quotes, a decomposed accent, blank and empty: alone, random, or over any length limit. */
const HOSTILE = ['\x1b[31m', '\u202e', '\n', '\u0000', 'a\u0000b', '😀', '<script>', '"', 'e\u0301', ' ', '']
export const hostileText = fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 30 }), fc.constant('x'.repeat(300)))

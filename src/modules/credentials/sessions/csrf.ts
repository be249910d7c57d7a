// The anti-CSRF token of a web session (the synchronizer-token pattern, bound to the session rather than
// stored): HMAC of the session's id under a key derived for this purpose alone. A form or a same-origin API call
// sends it back; a page of another site cannot read it, and a token of one session is worthless for another.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { derivedKey } from '../../../platform/lib/derived-key.ts'

export const CSRF_LABEL = 'csrf/v1'

export type CsrfTokens = {
  /** The token for the session `sessaoId` (the same every time: it lives as long as the session). */
  issue(sessaoId: string): string
  /** Whether `token` is the one of `sessaoId`; false for anything else, whatever its shape. */
  verify(sessaoId: string, token: unknown): boolean
}

/** `secret`: the installation's secret (src/modules/credentials/installation-secret.ts). */
export function makeCsrfTokens(secret: string): CsrfTokens {
  const key = derivedKey(secret, CSRF_LABEL)
  const mac = (sessaoId: string) => createHmac('sha256', key).update(sessaoId).digest()
  return {
    issue: (sessaoId) => mac(sessaoId).toString('base64url'),
    verify(sessaoId, token) {
      if (typeof token !== 'string' || token.length > 64) return false
      const given = Buffer.from(token, 'base64url')
      const expected = mac(sessaoId)
      return given.length === expected.length && timingSafeEqual(given, expected) && given.toString('base64url') === token
    },
  }
}

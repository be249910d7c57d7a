// Fill-time tokens for the site's contact form. The page carries the time it was served, with an HMAC keyed
// by a key derived from the installation's secret (the one that already keys the IP hashes of the audit
// trail), so any instance can tell how long a form was open without a session or a table.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { derivedKey } from '../../../platform/lib/derived-key.ts'

export type TokenCheck = { ok: false } | { ok: true, ageMs: number }

export type FormTokens = {
  /** Loads the key (once; again after a failure). The site awaits it before serving a form. */
  load(): Promise<void>
  /** A token for a form served at `now`; empty when the key could not be loaded (the post is then judged as tokenless). */
  issue(now: Date): string
  verify(token: string, now: Date): Promise<TokenCheck>
}

const VERSION = 'v1'
// Instances share the secret but not a clock: a token from a few seconds "in the future" is still ours.
const CLOCK_SKEW_MS = 60_000

export function makeFormTokens(loadSecret: () => Promise<string>): FormTokens {
  let key: Buffer | undefined
  let loading: Promise<void> | undefined
  const load = () => (loading ??= loadSecret().then((secret) => {
    // A key of its own: a token's MAC never equals an IP hash made with the same secret.
    key = derivedKey(secret, 'formulario-contato/token/v1')
  }).catch((err: unknown) => {
    loading = undefined
    throw err
  }))
  const mac = (k: Buffer, payload: string) => createHmac('sha256', k).update(payload).digest('base64url').slice(0, 32)

  return {
    load,
    issue(now) {
      if (!key) return ''
      const payload = `${VERSION}.${now.getTime().toString(36)}`
      return `${payload}.${mac(key, payload)}`
    },
    async verify(token, now) {
      await load()
      const parts = token.split('.')
      if (parts.length !== 3 || parts[0] !== VERSION || !/^[0-9a-z]{1,12}$/.test(parts[1]!)) return { ok: false }
      const expected = Buffer.from(mac(key!, `${parts[0]}.${parts[1]}`))
      const given = Buffer.from(parts[2]!)
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false }
      const ageMs = now.getTime() - Number.parseInt(parts[1]!, 36)
      if (ageMs < -CLOCK_SKEW_MS) return { ok: false }
      return { ok: true, ageMs: Math.max(0, ageMs) }
    },
  }
}

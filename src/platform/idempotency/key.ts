// The Idempotency-Key header as draft-ietf-httpapi-idempotency-key-header defines it: an RFC 8941 String
// ("…", with \" and \\ as the only escapes). Stripe's clients and most others send the key bare, so a bare value
// of visible ASCII is taken too. Either way the key is 1 to 255 characters of visible ASCII (or spaces, inside
// quotes); anything else is refused rather than guessed at, since a key read wrongly is a second payment.
export const MAX_KEY_LENGTH = 255

export type ParsedKey =
  | { kind: 'absent' }
  | { kind: 'invalid' }
  | { kind: 'key', key: string }

export function parseIdempotencyKey(header: string | string[] | undefined): ParsedKey {
  if (header === undefined) return { kind: 'absent' }
  // Node joins repeated headers it does not know with ", "; an array would be a header sent twice.
  if (Array.isArray(header)) return { kind: 'invalid' }
  const value = header.trim()
  const key = value.startsWith('"') ? sfString(value) : bare(value)
  if (key === undefined || key.length === 0 || key.length > MAX_KEY_LENGTH) return { kind: 'invalid' }
  return { kind: 'key', key }
}

/** Visible ASCII only (0x21–0x7E): no spaces, no controls, nothing beyond ASCII. */
export const VISIBLE_ASCII = /^[\x21-\x7e]+$/

/** A key given as a plain string, not a header (an MCP tool's argument): 1 to 255 characters of visible ASCII. */
export function isPlainKey(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_KEY_LENGTH && VISIBLE_ASCII.test(value)
}

function bare(value: string): string | undefined {
  return VISIBLE_ASCII.test(value) && !value.includes('"') ? value : undefined
}

/** RFC 8941 §4.2.5: a String item, and nothing after it (a second item or parameters are not a key). */
function sfString(value: string): string | undefined {
  let out = ''
  for (let i = 1; i < value.length; i++) {
    const c = value[i]!
    if (c === '\\') {
      const next = value[++i]
      if (next !== '"' && next !== '\\') return undefined
      out += next
    } else if (c === '"') {
      return i === value.length - 1 ? out : undefined
    } else if (c < ' ' || c > '~') {
      return undefined
    } else {
      out += c
    }
  }
  return undefined // no closing quote
}

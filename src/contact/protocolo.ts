import { randomInt } from 'node:crypto'

// Crockford's base32: no I, L, O or U, so a protocolo read over the phone is not misheard.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/**
 * `CT-YYYYMMDD-XXXXXXXX`: the date helps people, 40 random bits make it unguessable. Other outbox messages use
 * the same shape under a prefix of their own (`CV-…` for an invitation), so the queue names every row alike.
 */
export function newProtocolo(now: Date, prefix = 'CT'): string {
  const day = now.toISOString().slice(0, 10).replaceAll('-', '')
  let suffix = ''
  for (let i = 0; i < 8; i++) suffix += ALPHABET[randomInt(ALPHABET.length)]
  return `${prefix}-${day}-${suffix}`
}

export const PROTOCOLO_PATTERN = /^CT-\d{8}-[0-9A-HJKMNP-TV-Z]{8}$/

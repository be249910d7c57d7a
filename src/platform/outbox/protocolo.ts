import { randomInt } from 'node:crypto'

// Crockford's base32: no I, L, O or U, so a protocolo read over the phone is not misheard.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/**
 * `XX-YYYYMMDD-XXXXXXXX` under a prefix of its producer's (`CT` a contact, `CV` an invitation), so the queue names
 * every row alike and a protocolo says what it is wherever it is quoted: the date helps people, 40 random bits make
 * it unguessable.
 */
export function newProtocolo(now: Date, prefix: string): string {
  const day = now.toISOString().slice(0, 10).replaceAll('-', '')
  let suffix = ''
  for (let i = 0; i < 8; i++) suffix += ALPHABET[randomInt(ALPHABET.length)]
  return `${prefix}-${day}-${suffix}`
}

/** A protocolo's shape, whatever its prefix (two capital letters). */
export const PROTOCOLO_SHAPE = /^[A-Z]{2}-\d{8}-[0-9A-HJKMNP-TV-Z]{8}$/

// The shape of every secret the credential layer hands out: a prefix naming the kind (so secret scanners
// find a leaked one), 32 base62 characters drawn from node:crypto (190 bits, above the 160 asked), and a
// CRC32 of both in 6 base62 characters, so a mistyped or truncated token is refused before any lookup.
// Only the SHA-256 of the whole token is ever stored: the tokens carry enough entropy that a slow hash
// would add nothing but latency on every request.
import { hash, randomInt } from 'node:crypto'
import { crc32 } from 'node:zlib'

export const TOKEN_KINDS = {
  /** Personal access token, for integrations and agents. */
  pat: 'fct_pat_',
  /** Web session (the cookie's value). */
  sessao: 'fct_ses_',
  /** One-time invitation link. */
  convite: 'fct_inv_',
} as const

export type TokenKind = keyof typeof TOKEN_KINDS

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const BODY_LENGTH = 32
const CHECK_LENGTH = 6
const KIND_OF_PREFIX = new Map<string, TokenKind>(Object.entries(TOKEN_KINDS).map(([kind, prefix]) => [prefix, kind as TokenKind]))
const SHAPE = new RegExp(`^(${[...KIND_OF_PREFIX.keys()].join('|')})[0-9A-Za-z]{${BODY_LENGTH + CHECK_LENGTH}}$`)

export function newToken(kind: TokenKind): string {
  let body = ''
  // randomInt draws without modulo bias.
  for (let i = 0; i < BODY_LENGTH; i++) body += ALPHABET[randomInt(ALPHABET.length)]
  const head = TOKEN_KINDS[kind] + body
  return head + checksum(head)
}

/** The kind of a well-formed token whose checksum holds; undefined for anything else (no lookup needed). */
export function tokenKind(token: string): TokenKind | undefined {
  const shape = SHAPE.exec(token)
  if (!shape) return undefined
  const head = token.slice(0, -CHECK_LENGTH)
  return checksum(head) === token.slice(-CHECK_LENGTH) ? KIND_OF_PREFIX.get(shape[1]!) : undefined
}

/** What the database keeps of a token: hex SHA-256 of the whole string. */
export function tokenHash(token: string): string {
  return hash('sha256', token, 'hex')
}

function checksum(text: string): string {
  let n = crc32(text)
  let out = ''
  for (let i = 0; i < CHECK_LENGTH; i++) {
    out = ALPHABET[n % ALPHABET.length] + out
    n = Math.floor(n / ALPHABET.length)
  }
  return out
}

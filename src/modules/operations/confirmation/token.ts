// The sacado's link's secret: 32 random bytes, base64url in the link (43 characters), kept as its SHA-256 only, so
// the database (a backup, a replica) never holds what opens the page.
import { createHash, randomBytes } from 'node:crypto'

const SHAPE = /^[A-Za-z0-9_-]{43}$/

export function newLinkToken(): { token: string, hash: Buffer } {
  const token = randomBytes(32).toString('base64url')
  return { token, hash: hashOf(token)! }
}

/** The stored form of a token from a URL; undefined when it is not one (nothing to look up). */
export function hashOf(token: string): Buffer | undefined {
  return SHAPE.test(token) ? createHash('sha256').update(token, 'utf8').digest() : undefined
}

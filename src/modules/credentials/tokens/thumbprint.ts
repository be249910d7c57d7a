// The shape of a DPoP key's RFC 7638 thumbprint as a token stores it (`dpop_jkt`, RFC 9449 section 6): the SHA-256
// of the key's canonical JWK, base64url without padding. Only its shape can be checked here: 43 characters that
// decode to exactly 32 bytes and encode back to themselves (the last character carries two bits that must be 0).
export function isJwkThumbprint(value: string): boolean {
  if (!/^[A-Za-z0-9_-]{43}$/.test(value)) return false
  const bytes = Buffer.from(value, 'base64url')
  return bytes.length === 32 && bytes.toString('base64url') === value
}

// One secret, many purposes: each use keys its MACs with HMAC-SHA256(secret, label), so a value made for one
// purpose (a form token, a DPoP nonce) is never valid for another.
import { createHmac } from 'node:crypto'

/** A 32-byte key for `label` (e.g. `dpop-nonce/v1`). */
export function derivedKey(secret: string, label: string): Buffer {
  return createHmac('sha256', secret).update(label).digest()
}

// A client address as the audit trails keep it: an HMAC keyed with the per-installation salt (`instalacao.sal_ip`).
// A bare hash of an IPv4 address is reversed by trying all four billion; a keyed one is not.
import { createHmac } from 'node:crypto'

export function ipHash(salt: string, ip: string): string {
  return createHmac('sha256', salt).update(ip).digest('hex').slice(0, 32)
}

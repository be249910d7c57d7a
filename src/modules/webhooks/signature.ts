// The delivery's signature, as the documentation gives the recipe to check it: `Webhook-Signature: t=<unix seconds>,
// v1=<hex HMAC-SHA256, keyed with the secret's text, of "<t>.<body>">`. During a rotation's grace both the new and the
// old secret sign: one `v1=` each, the new first; a receiver accepts the delivery when any matches.
import { createHmac } from 'node:crypto'

export function signatureHeader(body: string, unixSeconds: number, secrets: readonly string[]): string {
  const t = String(unixSeconds)
  return [`t=${t}`, ...secrets.map((s) => `v1=${createHmac('sha256', s).update(`${t}.${body}`).digest('hex')}`)].join(',')
}

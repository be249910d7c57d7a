// The endpoints' signing secrets at rest. A signature needs the secret itself, so it cannot be stored as a hash: it
// is encrypted with AES-256-GCM (node:crypto) under the service's key (WEBHOOK_SECRET_KEY), a random 96-bit nonce per
// value, and the endpoint's customer and id as associated data, so a value copied onto another endpoint's row does
// not decrypt. A copy of the database without the key holds no usable secret. `v1.` names the scheme, so a later one
// can be told apart.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

export type SecretBox = {
  seal(secret: string, owner: { clienteId: string, webhookId: string }): string
  open(sealed: string, owner: { clienteId: string, webhookId: string }): string
}

const aad = (o: { clienteId: string, webhookId: string }) => Buffer.from(`webhook:${o.clienteId.toLowerCase()}:${o.webhookId.toLowerCase()}`)

export function secretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new RangeError('the webhook secrets\' key must be 32 bytes')
  return {
    seal(secret, owner) {
      const iv = randomBytes(12)
      const c = createCipheriv('aes-256-gcm', key, iv).setAAD(aad(owner))
      const body = Buffer.concat([c.update(secret, 'utf8'), c.final()])
      return ['v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), body.toString('base64url')].join('.')
    },
    open(sealed, owner) {
      const [v, iv, tag, body] = sealed.split('.')
      if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed webhook secret')
      const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url')).setAAD(aad(owner))
      d.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8')
    },
  }
}

/** A new signing secret: 32 random bytes, named so a scanner knows it for one. */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`

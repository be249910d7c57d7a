// What makes two requests "the same request" for one key: the method, the path with its query, and the body as
// canonical JSON. Never a header: Authorization, DPoP and the request id change on every retry.
import { createHash } from 'node:crypto'
import { canonicalJson } from './canonical-json.ts'

export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256').update(`${method}\n${url}\n${canonicalJson(body ?? null)}`).digest('hex')
}

// A path as logs and traces may keep it: a segment holding a run of 40 or more URL-safe characters carries a secret (a
// sacado's one-time confirmation link: 43), and is replaced whole by `:segredo`, whatever surrounds the run and however
// it is percent-encoded (the router decodes what a client encodes). Ids are shorter (a UUID is 36), so what an
// operator greps for stays; a secret in a path never reaches a log line, a trace or a collector.
import { withoutUnsafe } from '../lib/chosen-name.ts'

const SECRET_SEGMENT = /\/[^/]*[A-Za-z0-9_-]{40,}[^/]*/g

/** The path as the router reads it, without a character that would act on a terminal (an encoded line break, ESC). */
function decoded(path: string): string {
  let text: string
  try {
    text = decodeURIComponent(path)
  } catch {
    text = path.replace(/%[0-9A-Fa-f]{2}/g, '')
  }
  return withoutUnsafe(text)
}

/** `path` without its secrets; `max` characters at most, cut after the secrets are gone (a cut secret is still one). */
export function withoutSecrets(path: string, max = Infinity): string {
  return decoded(path).replace(SECRET_SEGMENT, '/:segredo').slice(0, max)
}

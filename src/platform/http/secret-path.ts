// A path as logs and traces may keep it: a segment of 40 or more URL-safe characters is a secret carried in the path
// (a sacado's one-time confirmation link: 43), and is replaced by `:segredo`. Ids are shorter (a UUID is 36), so what
// an operator greps for stays; a secret in a path never reaches a log line, a trace or a collector.
const SECRET_SEGMENT = /\/[A-Za-z0-9_-]{40,}(?=\/|$)/g

export function withoutSecrets(path: string): string {
  return path.replace(SECRET_SEGMENT, '/:segredo')
}

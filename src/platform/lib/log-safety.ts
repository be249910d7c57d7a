// What of an error may be logged. Not its message: a failed query's message lists the query's
// parameters (a visitor's name, e-mail and message), and a provider's may name its host.
type ErrorLike = Error & { code?: string, cause?: ErrorLike }

export function errorFacts(err: unknown): { type: string, code: string | undefined, frames: string | undefined } {
  const e = err as ErrorLike
  const code = e?.cause?.code ?? e?.code
  // The stack without its first line, which repeats the message.
  const frames = typeof e?.stack === 'string' ? e.stack.split('\n').filter((l) => /^\s+at /.test(l)).slice(0, 8).join('\n') : undefined
  return { type: e?.cause?.name ?? e?.name ?? typeof err, code, frames }
}

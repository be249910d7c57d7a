// A promise that rejects when `ms` pass first: a database or provider that stops answering must not hang a request.
export class TimeoutError extends Error {
  override name = 'TimeoutError' // what logs show as its type
}

export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new TimeoutError(`timed out after ${ms} ms`)), ms) })
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer))
}

/** Wraps `fn` so that callers within `ttlMs` of a result share it, and concurrent callers share one run. */
export function singleFlight<T>(fn: () => Promise<T>, ttlMs: number): () => Promise<T> {
  let last: { at: number, value: Promise<T> } | undefined
  return () => {
    const now = Date.now()
    if (!last || now - last.at >= ttlMs) {
      const value = fn()
      last = { at: now, value }
      value.catch(() => { last = undefined })
    }
    return last.value
  }
}

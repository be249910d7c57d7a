// The token lookups of this process, kept for half a second. The lookup (autentica_token, a SECURITY DEFINER
// function PostgreSQL cannot inline) costs three times PostgreSQL's cheapest read, and an integration calls with
// one token many times a second: kept, a credentialed request costs no round trip before its handler.
//
// What a kept lookup may miss is a change made since: a revocation, a person or a customer suspended, a role
// changed. Three things bound it:
//   - an entry lives TOKEN_LOOKUP_KEPT_MS at most, measured on the monotonic clock, so a change made anywhere (by
//     another instance, by the operator's CLI) takes effect on every instance within a second whatever else fails;
//   - `forget()` drops every entry at once: the instance calls it before answering any request that may have
//     changed something (so its own client never sees the old state), and when PostgreSQL notifies a change
//     (migration 0022's triggers on the columns the lookup reads);
//   - a lookup still in flight at a `forget()` goes with the rest: it may have read the old row.
import type { FoundToken } from './store.ts'

export const TOKEN_LOOKUP_KEPT_MS = 500
/** Far above the tokens one instance serves in half a second; past it the oldest entries go first. */
const MAX_ENTRIES = 10_000

export type TokenLookup = {
  /** The token of this digest (tokenHash), from the database or as read less than TOKEN_LOOKUP_KEPT_MS ago. */
  find(hash: string): Promise<FoundToken | undefined>
  /** Drops every kept lookup: the next request of each token reads it again. */
  forget(): void
}

type Entry = { at: number, found: Promise<FoundToken | undefined> }

export function keptTokenLookup(read: (hash: string) => Promise<FoundToken | undefined>, opts: { keptMs?: number, now?: () => number } = {}): TokenLookup {
  const keptMs = opts.keptMs ?? TOKEN_LOOKUP_KEPT_MS
  const now = opts.now ?? (() => performance.now())
  const entries = new Map<string, Entry>()
  return {
    find(hash) {
      const t = now()
      const kept = entries.get(hash)
      if (kept && t - kept.at < keptMs) return kept.found
      // Concurrent requests of one token share the one read in flight.
      const found = read(hash)
      const entry = { at: t, found }
      entries.delete(hash)
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!)
      entries.set(hash, entry)
      const drop = () => { if (entries.get(hash) === entry) entries.delete(hash) }
      // An unknown token is not kept (anyone may send made-up ones); a failed read is not either.
      found.then((row) => { if (!row) drop() }, drop)
      return found
    },
    forget() {
      entries.clear()
    },
  }
}

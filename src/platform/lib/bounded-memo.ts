// Answers remembered per key, for a hot path that would otherwise work the same answer out on every request
// (a header value, a client address, a DPoP proof's key). Bounded, since the keys are the client's to choose: when
// full it starts again, which costs only the work it saved; and a key longer than `maxKeyLength` is answered
// without being kept, so a few long made-up keys cannot fill memory.

export class BoundedMemo<T> {
  private readonly seen = new Map<string, T>()

  private readonly max: number
  private readonly maxKeyLength: number
  constructor(max: number, maxKeyLength = Infinity) {
    this.max = max
    this.maxKeyLength = maxKeyLength
  }

  get(key: string, decide: () => T): T {
    if (this.seen.has(key)) return this.seen.get(key) as T
    const answer = decide()
    if (key.length > this.maxKeyLength) return answer
    if (this.seen.size >= this.max) this.seen.clear()
    this.seen.set(key, answer)
    return answer
  }
}

// Answers remembered per key, for a hot path that would otherwise work the same answer out on every request
// (a header value, a client address). Bounded, since the keys are the client's to choose: when full it starts
// again, which costs only the work it saved.

export class BoundedMemo<T> {
  private readonly seen = new Map<string, T>()

  constructor(private readonly max: number) {}

  get(key: string, decide: () => T): T {
    if (this.seen.has(key)) return this.seen.get(key) as T
    if (this.seen.size >= this.max) this.seen.clear()
    const answer = decide()
    this.seen.set(key, answer)
    return answer
  }
}

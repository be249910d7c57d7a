/** What a fixture made, undone newest first; every step runs even when one before it fails, and the failures are reported. */
export class Teardown {
  readonly #steps: (() => unknown)[] = []

  add(step: () => unknown): void {
    this.#steps.push(step)
  }

  run(): Promise<void> {
    return settle(this.#steps.splice(0).reverse())
  }

  /** Runs each of `teardowns` in turn, however the ones before it went. */
  static all(teardowns: Teardown[]): Promise<void> {
    return settle(teardowns.map((t) => () => t.run()))
  }
}

async function settle(steps: (() => unknown)[]): Promise<void> {
  const errors: unknown[] = []
  for (const step of steps) {
    try {
      await step()
    } catch (err) {
      errors.push(err)
    }
  }
  if (errors.length === 1) throw errors[0]
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} cleanups failed`)
}

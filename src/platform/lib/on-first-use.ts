// Libraries that only some requests need (jose for DPoP proofs, argon2 for passwords, nodemailer for mail) are
// imported on first use, not at start: each costs tens of milliseconds of start-up and megabytes of memory in
// an instance that may never use it (BENCHMARKS.md). A load that failed is tried again by the next caller.
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined
  return () => (loaded ??= load().catch((err: unknown) => {
    loaded = undefined
    throw err
  }))
}

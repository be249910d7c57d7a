// Between scenarios: the contact form's scenario leaves the service's accepted messages waiting in the outbox, and
// pgbench's baseline leaves as many rows again that no one will send. The worker would go on sending through the
// next scenarios and take their CPU (a Bearer read measured 0.18 of pgbench behind such a backlog, 0.22 without).
type Query = (text: string) => Promise<Record<string, unknown>[]>

/**
 * Removes pgbench's rows (their protocolo starts with PB-, a shape the service never writes) and waits, up to
 * `maxSeconds`, for the worker to send the service's own: they are accepted messages, so they are sent, not
 * dropped. Answers how many were still open when it gave up (0 when settled).
 */
export async function settleOutbox(query: Query, log: (s: string) => void, maxSeconds = 300): Promise<number> {
  const removed = await query(`WITH gone AS (DELETE FROM outbox WHERE protocolo LIKE 'PB-%' RETURNING 1) SELECT count(*)::int AS n FROM gone`)
  if (Number(removed[0]!.n)) {
    log(`removed ${removed[0]!.n} rows pgbench wrote to the outbox`)
    await query('VACUUM outbox')
  }
  const open = async () => Number((await query(`SELECT count(*)::int AS n FROM outbox WHERE estado IN ('pendente', 'enviando')`))[0]!.n)
  const started = Date.now()
  const first = await open()
  let left = first
  let said = 0
  while (left > 0 && Date.now() - started < maxSeconds * 1000) {
    if (Date.now() - said >= 5000) { log(`waiting for the outbox to send the service's ${left} accepted messages`); said = Date.now() }
    await new Promise((resolve) => setTimeout(resolve, 500))
    left = await open()
  }
  if (left > 0) log(`outbox not settled after ${maxSeconds} s: ${left} messages still open; the next scenario shares the CPU with their sending`)
  else if (first > 0) {
    const seconds = (Date.now() - started) / 1000
    log(`outbox settled: ${first} messages sent in ${seconds.toFixed(1)} s (${(first / seconds).toFixed(0)} a second, sandbox delivery)`)
  }
  return left
}

// A LISTEN session that outlives its connection. A failover or a restart of PostgreSQL ends the session, and with
// it the notifications: without another one the delivery worker would only poll for the rest of the process's life.
import type pg from 'pg'

/** How long after a loss (or a failed attempt) the session is opened again. */
const RETRY_MS = 1000

/**
 * Opens a session with `open` (a connected client, already listening, whose errors are heard) and opens another
 * whenever it ends without being stopped, calling `onNotify` once it is back: a notification sent meanwhile is lost.
 * Resolves, once the first session is open, to the function that stops it.
 */
/** How long a stop waits for the listening session to end before it cuts its socket. */
const END_WAIT_MS = 2000

export async function lastingListener(open: () => Promise<pg.Client>, onNotify: () => void): Promise<() => Promise<void>> {
  let current: pg.Client | undefined
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  const watch = (client: pg.Client) => {
    current = client
    client.once('end', () => { if (!stopped && current === client) reopen() })
  }
  const reopen = () => {
    timer = setTimeout(() => {
      open().then((client) => {
        if (stopped) return void client.end().catch(() => {})
        watch(client)
        onNotify()
      }, () => { if (!stopped) reopen() })
    }, RETRY_MS)
    timer.unref()
  }
  watch(await open())
  return async () => {
    stopped = true
    clearTimeout(timer)
    const client = current
    if (!client) return
    // A session whose server stopped answering (a network that froze) never acknowledges the end: waited for a moment,
    // then its socket is destroyed, so a stop never hangs on it.
    let timeout: NodeJS.Timeout | undefined
    const ended = await Promise.race([client.end().then(() => true, () => true),
      new Promise<false>((resolve) => { timeout = setTimeout(resolve, END_WAIT_MS, false) })])
    clearTimeout(timeout)
    if (!ended) (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy()
  }
}

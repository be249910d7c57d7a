// Keep-alive connections during a stop. Node's `server.close()` stops accepting and closes the connections that
// are idle at that moment, then waits for every other one to end. A connection whose answer was in flight then
// was answered `keep-alive` and, once answered, sits idle: nothing closes it until its client sends again or its
// keep-alive deadline (72 s) passes, and the stop waits for it. nginx keeps such a connection in its cache without
// using it while the instance refuses new ones (the instance is marked failed), so a SIGTERM under load behind it
// sometimes did not end the process within the grace. `close()` also stops Node's sweep of request deadlines, so
// a client that never finishes its request would hold the stop as long as it likes.
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'

type ResponseFinish = { server: Server }

/** Node publishes each answer sent, with its server, here (while anyone listens). */
const RESPONSE_FINISHED = 'http.server.response.finish'

export type ConnectionDrain = {
  /** Ends every connection still open (answers in progress included): the stop's last resort at its deadline. */
  cut(): void
}

/**
 * From now on every answer carries `Connection: close`, so each client retires the connection it has as soon as
 * it uses it (and nginx opens its next one elsewhere once the listener is closed). Once the listener is closed,
 * a connection is closed as soon as its answer is sent: the answers in flight when the stop began said
 * keep-alive, and no client is obliged to send again. Costs nothing before it is called.
 */
export function drainConnections(server: Server): ConnectionDrain {
  const closeOnAnswer = (_req: IncomingMessage, res: ServerResponse) => { res.shouldKeepAlive = false }
  // Node publishes before it releases the socket: the connection is idle from the next turn.
  const onFinish = (message: unknown) => {
    if ((message as ResponseFinish).server === server && !server.listening) setImmediate(() => server.closeIdleConnections())
  }
  // First, so the flag is set before the app (the first listener) can write a synchronous answer.
  server.prependListener('request', closeOnAnswer)
  subscribe(RESPONSE_FINISHED, onFinish)
  server.once('close', () => {
    server.off('request', closeOnAnswer)
    unsubscribe(RESPONSE_FINISHED, onFinish)
  })
  return { cut: () => server.closeAllConnections() }
}

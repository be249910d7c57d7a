// One customer's requests take turns so that another's keep their latency (issue 31 item 9): twelve heavy reads
// by one customer once held the pool and the event loop while another's plain list waited 7 s and got 503s. Each
// customer runs at most `running` requests at once on this instance; more wait in line, first come first served,
// up to `waiting` of them for at most `waitMs`; past that the request is refused, so a flood never queues without
// bound. A customer under its share is never delayed by another's line.
export type TurnsConfig = { running: number, waiting: number, waitMs: number }

/** A turn taken: call `release` once the request is done. Refused: the line was full or the wait too long. */
export type Turn = { ok: true, release: () => void } | { ok: false, why: 'fila_cheia' | 'espera_esgotada' }

export type CustomerTurns = {
  take(key: string, abandoned?: AbortSignal): Promise<Turn>
  /** Requests running and waiting for a key (for tests and metrics). */
  load(key: string): { running: number, waiting: number }
}

type Waiter = { grant: () => void, timer: NodeJS.Timeout }
type Line = { running: number, waiters: Waiter[] }

export function customerTurns(config: TurnsConfig): CustomerTurns {
  const lines = new Map<string, Line>()

  const releaser = (key: string, line: Line) => {
    let done = false
    return () => {
      if (done) return
      done = true
      const next = line.waiters.shift()
      if (next) {
        clearTimeout(next.timer)
        next.grant() // the turn passes on: `running` stays
      } else if (--line.running === 0) lines.delete(key)
    }
  }

  return {
    take(key, abandoned) {
      let line = lines.get(key)
      if (!line) lines.set(key, line = { running: 0, waiters: [] })
      if (line.running < config.running) {
        line.running++
        return Promise.resolve({ ok: true, release: releaser(key, line) })
      }
      if (line.waiters.length >= config.waiting) return Promise.resolve({ ok: false, why: 'fila_cheia' })
      const waiting = line
      return new Promise<Turn>((resolve) => {
        const leave = (why: 'espera_esgotada') => {
          clearTimeout(waiter.timer)
          const at = waiting.waiters.indexOf(waiter)
          if (at >= 0) waiting.waiters.splice(at, 1)
          abandoned?.removeEventListener('abort', onAbort)
          resolve({ ok: false, why })
        }
        const onAbort = () => leave('espera_esgotada')
        const waiter: Waiter = {
          grant: () => {
            abandoned?.removeEventListener('abort', onAbort)
            resolve({ ok: true, release: releaser(key, waiting) })
          },
          timer: setTimeout(() => leave('espera_esgotada'), config.waitMs),
        }
        waiting.waiters.push(waiter)
        abandoned?.addEventListener('abort', onAbort, { once: true })
      })
    },
    load(key) {
      const line = lines.get(key)
      return { running: line?.running ?? 0, waiting: line?.waiters.length ?? 0 }
    },
  }
}

const HELD = new WeakMap<object, () => void>()

/** Records the turn `request` holds, so that what answers it may give the turn back before the answer ends. */
export function holdTurn(request: object, release: () => void): void {
  HELD.set(request, release)
}

/**
 * Gives back `request`'s turn now (an export, once its first batch is read: the rest is streamed at the client's
 * pace, each batch a short transaction of its own, and a slow reader must not hold one of its customer's turns for
 * as long as it reads). The turn's own `close` release then does nothing: a release runs once.
 */
export function handBackTurn(request: object): void {
  HELD.get(request)?.()
  HELD.delete(request)
}

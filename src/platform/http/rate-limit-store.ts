// A rate-limit store that keeps the shared budgets in Redis and, while Redis cannot answer, counts in this
// instance's memory instead: an outage degrades the limits to per-instance ones, never turns them off.
import { createRequire } from 'node:module'
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'

type Result = { current: number, ttl: number }
type Callback = (err: Error | null, res?: Result) => void
type Store = {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void
  read?(key: string, cb: Callback, timeWindow: number, max: number): void
  child(routeOptions: RouteOptions): Store
}
type RouteOptions = { continueExceeding?: boolean, exponentialBackoff?: boolean, cache?: number, routeInfo: { method: string, url: string } }
type StoreCtor = new (...args: unknown[]) => Store

// The plugin ships its two stores as CommonJS files without types; they are reused, not rewritten.
const require = createRequire(import.meta.url)
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreCtor
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreCtor

const COMMAND_FAILURE_PAUSE_MS = 1000

/**
 * Follows the client's connection and logs each change of mode once (ioredis reports every failed
 * reconnection attempt, about once a second, as an 'error' event).
 */
export class RedisAvailability {
  private down = false
  private stopped = false
  /** After a failed command on a "ready" client (a frozen server), memory is used for a moment before trying again. */
  private skipUntil = 0
  private readonly listeners = {
    ready: () => this.markUp(),
    close: () => this.markDown(),
    end: () => this.markDown(),
    // Without a listener an 'error' event would crash the process; its message may name the host, so only the code is kept.
    error: (err: NodeJS.ErrnoException) => this.markDown(err.code),
  }

  private readonly redis: Redis
  private readonly log: FastifyBaseLogger
  constructor(redis: Redis, log: FastifyBaseLogger) {
    this.redis = redis
    this.log = log
    for (const [event, fn] of Object.entries(this.listeners)) redis.on(event, fn)
  }

  /**
   * Called before the app quits the client: a connection closed on purpose is no outage to report. The listeners
   * go too, so a client given to several apps (tests) does not keep one set per closed app.
   */
  stop(): void {
    this.stopped = true
    for (const [event, fn] of Object.entries(this.listeners)) this.redis.off(event, fn)
  }

  /** True when commands can be sent now; false while disconnected or reconnecting. */
  get usable(): boolean { return this.redis.status === 'ready' && Date.now() >= this.skipUntil }

  /** A command failed although the client looked ready: do not make every request wait for its timeout. */
  commandFailed(code: string): void {
    this.skipUntil = Date.now() + COMMAND_FAILURE_PAUSE_MS
    this.markDown(code)
  }

  markDown(code?: string): void {
    if (this.down || this.stopped) return
    this.down = true
    this.log.warn({ code }, 'redis unavailable: per-instance budgets')
  }

  markUp(): void {
    if (!this.down || this.stopped) return
    this.down = false
    this.log.info('redis back: shared budgets')
  }
}

/** The class to give as @fastify/rate-limit's `store` option (the plugin instantiates it). */
export function fallbackStoreClass(redis: Redis, nameSpace: string, availability: RedisAvailability): FastifyRateLimitStoreCtor {
  class FallbackStore implements Store {
    private readonly shared: Store
    private readonly local: Store
    constructor(params: Omit<RouteOptions, 'routeInfo'>, shared?: Store) {
      this.shared = shared ?? new RedisStore(params.continueExceeding, params.exponentialBackoff, redis, nameSpace)
      this.local = new LocalStore(params.continueExceeding, params.exponentialBackoff, params.cache)
    }

    incr(key: string, cb: Callback, timeWindow: number, max: number): void {
      this.call('incr', key, cb, timeWindow, max)
    }

    read(key: string, cb: Callback, timeWindow: number, max: number): void {
      this.call('read', key, cb, timeWindow, max)
    }

    child(routeOptions: RouteOptions): Store {
      return new FallbackStore(routeOptions, this.shared.child(routeOptions))
    }

    private call(method: 'incr' | 'read', key: string, cb: Callback, timeWindow: number, max: number): void {
      const local = () => this.local[method]!(key, cb, timeWindow, max)
      if (!availability.usable) return local()
      this.shared[method]!(key, (err, res) => {
        if (!err) {
          availability.markUp()
          return cb(null, res)
        }
        availability.commandFailed((err as NodeJS.ErrnoException).code ?? err.name)
        local()
      }, timeWindow, max)
    }
  }
  // The plugin's published types describe the options loosely; the runtime contract is the one typed above.
  return FallbackStore as unknown as FastifyRateLimitStoreCtor
}

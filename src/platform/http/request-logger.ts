// Each request's logger (`req.log`, bound to its request id) is made when the request first logs, not when it
// arrives: pino's child() serializes its bindings at once, and most requests never log beyond the access line,
// which the access log writes with the request id itself (src/platform/http/access-log.ts). A profile of GET /api/health
// had child() at about 2 % of the CPU. Fastify's `childLoggerFactory` is the documented place for this.
// Its bindings carry the request's W3C trace id beside the request id (src/platform/http/trace-context.ts).
import type { IncomingMessage } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js'
import type { LevelWithSilentOrString } from 'pino'
import { traceContextOf } from './trace-context.ts'

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
const call = (logger: FastifyBaseLogger, level: Level, args: unknown[]) => (logger[level] as (...a: unknown[]) => void).apply(logger, args)

class LazyChildLogger implements FastifyBaseLogger {
  #made: FastifyBaseLogger | undefined
  readonly #parent: FastifyBaseLogger
  readonly #bindings: Bindings
  readonly #options: ChildLoggerOptions

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent
    this.#bindings = bindings
    this.#options = options
  }

  get #child(): FastifyBaseLogger {
    return (this.#made ??= this.#parent.child(this.#bindings, this.#options))
  }

  // Read without making the child: its level is its own option's, else the parent's.
  get level(): LevelWithSilentOrString {
    return this.#made?.level ?? this.#options.level ?? this.#parent.level
  }

  set level(level: LevelWithSilentOrString) {
    this.#child.level = level
  }

  // Methods on the prototype, not a closure each per request.
  fatal(...args: unknown[]): void { call(this.#child, 'fatal', args) }
  error(...args: unknown[]): void { call(this.#child, 'error', args) }
  warn(...args: unknown[]): void { call(this.#child, 'warn', args) }
  info(...args: unknown[]): void { call(this.#child, 'info', args) }
  debug(...args: unknown[]): void { call(this.#child, 'debug', args) }
  trace(...args: unknown[]): void { call(this.#child, 'trace', args) }
  silent(...args: unknown[]): void { call(this.#child, 'silent', args) }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#child.child(bindings, options)
  }
}

export function lazyChildLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions, raw?: IncomingMessage): FastifyBaseLogger {
  if (raw) bindings.traceId = traceContextOf(raw).traceId
  return new LazyChildLogger(parent, bindings, options)
}

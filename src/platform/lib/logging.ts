// Pino's options from the config: JSON lines for collectors, or pino-pretty for a person at a terminal
// (`npm run dev`). Authorization and cookies are redacted wherever a request is logged.
import { createRequire } from 'node:module'
import type { DestinationStream, LoggerOptions } from 'pino'
import sonicBoom from 'sonic-boom'
import { ConfigError } from './startup-error.ts'

let stdout: DestinationStream | undefined

/**
 * Stdout for JSON lines, one per process (every app built in it shares fd 1). Asynchronous writes in batches
 * of at least 8 KiB, and whatever is waiting every 250 ms: one write a line cost about a sixth of the CPU of a
 * logged request (BENCHMARKS.md). A line reaches the collector at most a quarter second late; what is left
 * is written synchronously when the process exits (process.exit and fatal errors included), so only a
 * SIGKILL loses the last quarter second.
 *
 * sonic-boom (pino's own writer, which retries EAGAIN on a pipe) is fed one Buffer per line: given strings it
 * appends them and measures the accumulated string's byte length on every write, which batching made cost
 * more than the write itself.
 */
export function stdoutDestination(): DestinationStream {
  if (stdout) return stdout
  // A CommonJS module whose types declare the class as a named export; at run time it is the module itself.
  const boom = new (sonicBoom as unknown as typeof sonicBoom.SonicBoom)({ fd: 1, sync: false, minLength: 8192, periodicFlush: 250, contentMode: 'buffer' })
  process.on('exit', () => {
    try {
      boom.flushSync()
    } catch {
      // Stdout is gone (a closed pipe): nowhere left to write.
    }
  })
  // Its types predate contentMode and only list strings; in buffer mode it takes Buffers.
  const write = boom.write.bind(boom) as unknown as (chunk: Buffer) => boolean
  return (stdout = { write: (line: string) => { write(Buffer.from(line)) } })
}

export function loggerOptions(config: { logLevel: string, logFormat: 'json' | 'pretty' }): LoggerOptions & { stream?: DestinationStream } {
  const base: LoggerOptions = { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] }
  if (config.logFormat !== 'pretty') return { ...base, stream: stdoutDestination() }
  try {
    createRequire(import.meta.url).resolve('pino-pretty')
  } catch {
    throw new ConfigError('LOG_FORMAT=pretty needs pino-pretty, a dev dependency: install with dev dependencies, or use LOG_FORMAT=json')
  }
  return { ...base, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true } } }
}

// Pino's options from the config: JSON lines for collectors, or pino-pretty for a person at a terminal
// (`npm run dev`). Authorization and cookies are redacted wherever a request is logged.
import { createRequire } from 'node:module'
import { pino, type DestinationStream, type LoggerOptions } from 'pino'
import { ConfigError, type Config } from './config.ts'

export function loggerOptions(config: Pick<Config, 'logLevel' | 'logFormat'>): LoggerOptions & { stream?: DestinationStream } {
  const base: LoggerOptions = { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] }
  // Asynchronous writes: under load, lines written while one write is in flight go out together in the next
  // (one syscall, not one per line); at rest each line still goes out at once. Pino flushes what is left
  // synchronously when the process exits, process.exit included.
  if (config.logFormat !== 'pretty') return { ...base, stream: pino.destination({ dest: 1, sync: false }) }
  try {
    createRequire(import.meta.url).resolve('pino-pretty')
  } catch {
    throw new ConfigError('LOG_FORMAT=pretty needs pino-pretty, a dev dependency: install with dev dependencies, or use LOG_FORMAT=json')
  }
  return { ...base, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true } } }
}

// Pino's options from the config: JSON lines for collectors, or pino-pretty for a person at a terminal
// (`npm run dev`). Authorization and cookies are redacted wherever a request is logged.
import { createRequire } from 'node:module'
import type { LoggerOptions } from 'pino'
import { ConfigError, type Config } from './config.ts'

export function loggerOptions(config: Pick<Config, 'logLevel' | 'logFormat'>): LoggerOptions {
  const base: LoggerOptions = { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] }
  if (config.logFormat !== 'pretty') return base
  try {
    createRequire(import.meta.url).resolve('pino-pretty')
  } catch {
    throw new ConfigError('LOG_FORMAT=pretty needs pino-pretty, a dev dependency: install with dev dependencies, or use LOG_FORMAT=json')
  }
  return { ...base, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true } } }
}

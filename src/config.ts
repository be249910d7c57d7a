// The environment, parsed and checked once at start. A bad value stops the process with a message naming it.
import { getHeapStatistics } from 'node:v8'
import { resolve } from 'node:path'
import { DEFAULT_SUBJECTS, type Subject } from './contact/subjects.ts'
import { emailProblem } from './email-address.ts'
import type { OverloadConfig } from './http/overload.ts'
import { DEFAULT_RATE_LIMITS, type RateLimits } from './http/rate-limit-config.ts'
import type { HttpServerLimits } from './http/server-options.ts'
import { loadMailConfig, type MailConfig } from './mail/mail-config.ts'
import { readConfigFile } from './config-file.ts'
import { cidrList } from './ip-ranges.ts'
import { ConfigError } from './startup-error.ts'

export type Ambiente = 'producao' | 'sandbox' | ''

export type Config = {
  port: number
  host: string
  databaseUrl: string | undefined
  /** The schema owner's URL, for migrations only; DATABASE_URL is then the runtime role's own login. */
  migrationDatabaseUrl: string | undefined
  dataDir: string
  redisUrl: string | undefined
  ambiente: Ambiente
  smtpUrl: string | undefined
  mailFrom: string
  trustProxy: string[]
  rateLimitAllowlist: string[]
  siteOrigins: string[]
  logLevel: string
  /** `json` (production, log collectors) or `pretty` (a person reading a terminal; needs the dev dependencies). */
  logFormat: 'json' | 'pretty'
  /** The origin clients use: absolute links (sitemap, llms.txt), never taken from a request's Host. */
  publicUrl: string
  /** PUBLIC_URL was given: the origin is known, never guessed from the listener or a request. */
  publicUrlSet: boolean
  /** Prometheus metrics listener on HOST; undefined: off. Never the public port. */
  metricsPort: number | undefined
  /** Mail is rendered and kept, never sent: no SMTP_URL, AMBIENTE=sandbox, or MAIL_SANDBOX=on. */
  mailSandbox: boolean
  /** After SIGTERM, readiness answers 503 this long before the listener closes (load balancers notice). */
  shutdownDelayMs: number
  build: { versao: string, commit: string, buildEm: string, schemaVersao: string }
  subjects: Subject[]
  rateLimits: RateLimits
  statusRefreshMs: number
  dbTimeoutMs: number
  /**
   * Connections this instance's pool may hold to PostgreSQL (DATABASE_POOL_MAX). Every instance holds up to this many
   * (plus one for LISTEN and one while migrating), so instances × (this + 2) must stay under max_connections.
   */
  databasePoolMax: number
  /** A site form posted sooner than this after it was served is a bot's (spam `rapido`). */
  spamMinFillMs: number
  bodyLimitBytes: number
  /** Slow and idle clients: see src/http/server-options.ts. */
  http: HttpServerLimits
  mail: MailConfig
  /** Load shedding thresholds (503 servico_indisponivel). */
  overload: OverloadConfig
  /** How long an Idempotency-Key's answer is kept and replayed. */
  idempotencyTtlHours: number
  /** OpenTelemetry tracing's OTLP/HTTP collector; undefined: off, and no OpenTelemetry module is loaded. */
  otelEndpoint: string | undefined
}

export { ConfigError }

/** Every environment variable the service reads (compose files and manifests are checked against it). */
export const CONFIG_VARIABLES = [
  'PORT', 'HOST', 'PUBLIC_URL', 'DATABASE_URL', 'MIGRATION_DATABASE_URL', 'DATA_DIR', 'REDIS_URL', 'AMBIENTE', 'SMTP_URL', 'MAIL_FROM', 'MAIL_SANDBOX',
  'TRUST_PROXY', 'RATE_LIMIT_ALLOWLIST', 'SITE_ORIGINS', 'LOG_LEVEL', 'LOG_FORMAT', 'METRICS_PORT', 'SHUTDOWN_DELAY_MS',
  'APP_VERSION', 'APP_COMMIT', 'APP_BUILD_TIME', 'APP_SCHEMA_VERSION', 'SERVICE_CONFIG_FILE',
  'MAIL_WORKER', 'MAIL_MAX_TRIES', 'MAIL_RETRY_BASE_MS', 'MAIL_RETRY_MAX_MS', 'MAIL_LEASE_MS', 'MAIL_POLL_MS', 'MAIL_VERIFY_MS',
  'CONTACT_RETENTION_DAYS', 'STATUS_REFRESH_MS', 'DB_TIMEOUT_MS', 'DATABASE_POOL_MAX', 'SPAM_MIN_FILL_MS',
  'OVERLOAD_MAX_EVENT_LOOP_DELAY_MS', 'OVERLOAD_MAX_HEAP_MB', 'OVERLOAD_MAX_RSS_MB', 'OVERLOAD_SAMPLE_MS', 'OVERLOAD_RETRY_AFTER_S',
  'HEADERS_TIMEOUT_MS', 'REQUEST_TIMEOUT_MS', 'KEEP_ALIVE_TIMEOUT_MS', 'MAX_CONNECTIONS', 'IDEMPOTENCY_KEY_TTL_HOURS',
  'OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_SERVICE_NAME',
] as const

type Env = Record<string, string | undefined>

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

export function loadConfig(env: Env = process.env): Config {
  const str = (name: string, fallback = '') => (env[name] ?? '').trim() || fallback
  const ambiente = str('AMBIENTE')
  if (!['', 'producao', 'sandbox'].includes(ambiente)) {
    throw new ConfigError(`AMBIENTE must be "producao" or "sandbox" (or unset for development), got "${ambiente}"`)
  }
  const logLevel = str('LOG_LEVEL', 'info')
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`)
  const logFormat = str('LOG_FORMAT', 'json')
  if (logFormat !== 'json' && logFormat !== 'pretty') throw new ConfigError(`LOG_FORMAT must be "json" or "pretty", got "${logFormat}"`)
  const file = readConfigFile(str('SERVICE_CONFIG_FILE'))
  const port = int(env, 'PORT', 3000, 0, 65535)
  const host = str('HOST', '127.0.0.1')
  const smtpUrl = url(env, 'SMTP_URL', ['smtp:', 'smtps:'])
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:'])
  const migrationDatabaseUrl = url(env, 'MIGRATION_DATABASE_URL', ['postgres:', 'postgresql:'])
  if (migrationDatabaseUrl && !databaseUrl) {
    throw new ConfigError('MIGRATION_DATABASE_URL needs DATABASE_URL (the runtime role\'s login): the embedded database has no roles to split')
  }
  const metricsPort = env.METRICS_PORT?.trim() ? int(env, 'METRICS_PORT', 0, 1, 65535) : undefined
  if (metricsPort !== undefined && metricsPort === port) {
    throw new ConfigError(`METRICS_PORT must differ from PORT (${port}): metrics are never served on the public port`)
  }
  return {
    port,
    host,
    databaseUrl,
    migrationDatabaseUrl,
    dataDir: resolve(str('DATA_DIR', './data')),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    ambiente: ambiente as Ambiente,
    smtpUrl,
    mailFrom: mailFrom(str('MAIL_FROM', 'Contato <contato@factoring.example>')),
    trustProxy: cidrList(env, 'TRUST_PROXY'),
    rateLimitAllowlist: cidrList(env, 'RATE_LIMIT_ALLOWLIST'),
    siteOrigins: originList(env, 'SITE_ORIGINS'),
    logLevel,
    logFormat,
    publicUrl: publicUrl(str('PUBLIC_URL'), host, port),
    publicUrlSet: str('PUBLIC_URL') !== '',
    metricsPort,
    mailSandbox: mailSandbox(str('MAIL_SANDBOX', 'off'), ambiente, smtpUrl),
    shutdownDelayMs: int(env, 'SHUTDOWN_DELAY_MS', 0, 0, 60_000),
    build: {
      versao: str('APP_VERSION'),
      commit: str('APP_COMMIT'),
      buildEm: str('APP_BUILD_TIME'),
      schemaVersao: str('APP_SCHEMA_VERSION'),
    },
    subjects: file.subjects ?? DEFAULT_SUBJECTS,
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...file.rateLimits },
    statusRefreshMs: int(env, 'STATUS_REFRESH_MS', 2000, 100, 60_000),
    dbTimeoutMs: int(env, 'DB_TIMEOUT_MS', 1500, 50, 30_000),
    databasePoolMax: int(env, 'DATABASE_POOL_MAX', 10, 1, 1000),
    spamMinFillMs: int(env, 'SPAM_MIN_FILL_MS', 3000, 0, 60_000),
    bodyLimitBytes: 64 * 1024,
    http: httpLimits(env),
    mail: loadMailConfig(env, int, (msg) => { throw new ConfigError(msg) }),
    overload: overloadConfig(env),
    idempotencyTtlHours: int(env, 'IDEMPOTENCY_KEY_TTL_HOURS', 24, 1, 720),
    otelEndpoint: url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']),
  }
}

const MB = 1024 * 1024

/** 0 turns a check off. The heap check defaults to 90% of V8's limit: past it, a crash on out-of-memory is near. */
function overloadConfig(env: Env): OverloadConfig {
  const heapMb = env.OVERLOAD_MAX_HEAP_MB?.trim()
    ? int(env, 'OVERLOAD_MAX_HEAP_MB', 0, 0, 1_048_576)
    : Math.floor(getHeapStatistics().heap_size_limit * 0.9 / MB)
  return {
    maxEventLoopDelayMs: int(env, 'OVERLOAD_MAX_EVENT_LOOP_DELAY_MS', 1000, 0, 60_000),
    maxHeapUsedBytes: heapMb * MB,
    maxRssBytes: int(env, 'OVERLOAD_MAX_RSS_MB', 0, 0, 1_048_576) * MB,
    sampleMs: int(env, 'OVERLOAD_SAMPLE_MS', 1000, 10, 10_000),
    retryAfterSeconds: int(env, 'OVERLOAD_RETRY_AFTER_S', 10, 1, 3600),
  }
}

/** `PUBLIC_URL` as an origin (scheme, host, port; no path), or the listener's own address. */
function publicUrl(raw: string, host: string, port: number): string {
  if (!raw) {
    const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
    return `http://${shown}:${port}`
  }
  // A value with user:password@ is not an origin, and the message must not repeat the password.
  const shown = raw.replace(/\/\/[^/]*@/, '//…@')
  let u: URL
  try { u = new URL(raw) } catch { throw new ConfigError(`PUBLIC_URL must be an origin like https://www.example.com.br, got "${shown}"`) }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password || u.search || u.hash || u.pathname !== '/') {
    throw new ConfigError(`PUBLIC_URL must be an origin like https://www.example.com.br (no path, query or user), got "${shown}"`)
  }
  return u.origin
}

function httpLimits(env: Env): HttpServerLimits {
  const headersTimeoutMs = int(env, 'HEADERS_TIMEOUT_MS', 10_000, 500, 600_000)
  const requestTimeoutMs = int(env, 'REQUEST_TIMEOUT_MS', 30_000, 500, 3_600_000)
  // Node refuses a header deadline later than the whole request's.
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(`HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`)
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: int(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 1000, 3_600_000),
    maxConnections: int(env, 'MAX_CONNECTIONS', 2048, 1, 1_000_000),
  }
}

function mailSandbox(raw: string, ambiente: string, smtpUrl: string | undefined): boolean {
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`MAIL_SANDBOX must be "on" or "off", got "${raw}"`)
  if (ambiente === 'producao' && !smtpUrl && raw !== 'on') {
    throw new ConfigError('AMBIENTE=producao needs SMTP_URL (a real mail provider): without it contacts would be accepted and never delivered. ' +
      'Set SMTP_URL, or MAIL_SANDBOX=on to run without delivery on purpose (/api/status then shows email not ok)')
  }
  return raw === 'on' || ambiente === 'sandbox' || !smtpUrl
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  // Plain decimal digits only: Number() would also take "0x10", "1e3" or "3000.0".
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`)
  return n
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name]?.trim()
  if (!raw) return undefined
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    // The value may hold a password: never echo it.
    throw new ConfigError(`${name} is not a valid URL`)
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must start with ${protocols.map((p) => p + '//').join(' or ')}`)
  return raw
}

/** `addr@domain` or `Name <addr@domain>`: a bad sender would only show later, as every send refused. */
function mailFrom(value: string): string {
  const address = /<([^<>]*)>\s*$/.exec(value)?.[1] ?? value
  const problem = emailProblem(address.trim())
  if (problem) throw new ConfigError(`MAIL_FROM must be an address or "Name <address>": ${problem}`)
  return value
}

function originList(env: Env, name: string): string[] {
  return (env[name] ?? '').split(',').map((s) => s.trim()).filter(Boolean).map((o) => {
    // A value with user:password@ is not an origin, and the message must not repeat the password.
    const shown = o.replace(/\/\/[^/]*@/, '//…@')
    let u: URL
    try { u = new URL(o) } catch { throw new ConfigError(`${name}: "${shown}" is not an origin like https://example.com.br`) }
    if (u.origin !== o.replace(/\/$/, '')) throw new ConfigError(`${name}: "${shown}" is not an origin like https://example.com.br`)
    return u.origin
  })
}

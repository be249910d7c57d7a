// The type of the service's settings (the values, not how they are read: src/platform/settings/ reads them,
// src/config.ts composes every area's).
import type { OverloadConfig } from './http/overload.ts'
import type { TurnsConfig } from './http/customer-turns.ts'
import type { RateLimits } from './http/rate-limit-config.ts'
import type { HttpServerLimits } from './http/server-options.ts'
import type { MailConfig } from './outbox/mail-config.ts'

export type Ambiente = 'producao' | 'sandbox' | ''

/**
 * What every part of the service reads of its settings, as loaded once at start by src/config.ts. The platform's
 * part is declared here; a module adds its own part where it declares its settings (its `settings.ts`):
 * `declare module '<…>/platform/config.ts' { interface Config { … } }`.
 */
export interface Config {
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
  rateLimits: RateLimits
  dbTimeoutMs: number
  /**
   * Connections this instance's pool may hold to PostgreSQL (DATABASE_POOL_MAX). Every instance holds up to this many
   * (plus one for LISTEN and one while migrating), so instances × (this + 2) must stay under max_connections.
   */
  databasePoolMax: number
  bodyLimitBytes: number
  /** Slow and idle clients: see src/platform/http/server-options.ts. */
  http: HttpServerLimits
  mail: MailConfig
  /** Load shedding thresholds (503 servico_indisponivel). */
  overload: OverloadConfig
  /** One customer's share of an instance: its requests at once, how many wait and how long (CLIENTE_*). */
  turns: TurnsConfig
  /** How long an Idempotency-Key's answer is kept and replayed. */
  idempotencyTtlHours: number
  /** The most títulos one operation holds (OPERACAO_MAX_TITULOS). */
  maxTitulosPorOperacao: number
  /** The largest signed assignment term kept, in bytes (TERMO_MAX_BYTES). */
  termoMaxBytes: number
  /** OpenTelemetry tracing's OTLP/HTTP collector; undefined: off, and no OpenTelemetry module is loaded. */
  otelEndpoint: string | undefined
  /** The traces' `service.name`. */
  otelServiceName: string
}

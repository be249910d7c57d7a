// The service's settings: which areas' schemas make them up, composed here (and only here) into the Config the
// app uses (its type is the platform's, src/platform/config.ts, which each module extends with its own part).
// The one loader (src/platform/settings/) reads the environment and SERVICE_CONFIG_FILE once at start; a bad
// value stops the process with a message naming it. The composition, not each module's object, lists the
// areas: the settings are read before any module is set up, by processes that build no app (the CLI, the worker).
import { resolve } from 'node:path'
import { bancoConfig, COLLECTIONS_SETTINGS } from './modules/collections/settings.ts'
import { CONTACT_SETTINGS, SPAM_SETTINGS } from './modules/contact/settings.ts'
import { DB_SETTINGS, dbConfig } from './platform/db/settings.ts'
import { OVERLOAD_SETTINGS, overloadConfig, turnsConfig } from './platform/http/overload-settings.ts'
import { HTTP_SETTINGS, httpConfig } from './platform/http/settings.ts'
import { IDEMPOTENCY_SETTINGS } from './platform/idempotency/settings.ts'
import { MAIL_SETTINGS, mailConfig } from './platform/outbox/settings.ts'
import { METRICS_SETTINGS } from './platform/metrics/settings.ts'
import { choice, int, text } from './platform/settings/kinds.ts'
import { compose, envSettings, readSettings, type Env, type Values } from './platform/settings/load.ts'
import { STATUS_SETTINGS } from './modules/status/settings.ts'
import { OPERATIONS_SETTINGS } from './modules/operations/settings.ts'
import { empresaConfig, SITE_SETTINGS } from './modules/site/settings.ts'
import { ConfigError } from './platform/lib/startup-error.ts'
import type { Ambiente, Config } from './platform/config.ts'
import { TELEMETRY_SETTINGS } from './platform/telemetry/settings.ts'
import { WEBHOOK_SETTINGS, webhookConfig } from './modules/webhooks/settings.ts'
import { REGISTRY_SETTINGS, registradoraConfig } from './modules/registry/settings.ts'

export type { Ambiente, Config }

export { ConfigError }

const BUILD_STAMP = { unset: 'empty', description: 'a build stamp shown by /api/version' }

/** The process's own settings: the environment it runs in, its data, its logs, its stop, its build. */
const SERVICE_SETTINGS = {
  ambiente: choice('AMBIENTE', { values: ['producao', 'sandbox'], unset: 'development', description: 'the environment this instance serves' }),
  dataDir: text('DATA_DIR', { default: './data', description: 'the embedded database and sandbox mail' }),
  logLevel: choice('LOG_LEVEL', {
    values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info', description: 'the least severe log line written',
  }),
  logFormat: choice('LOG_FORMAT', {
    values: ['json', 'pretty'], default: 'json', description: 'json for collectors, pretty for a terminal (dev dependencies)',
  }),
  shutdownDelayMs: int('SHUTDOWN_DELAY_MS', {
    default: 0, min: 0, max: 60_000, description: 'after SIGTERM, how long readiness answers 503 before the listener closes',
  }),
  versao: text('APP_VERSION', BUILD_STAMP),
  commit: text('APP_COMMIT', BUILD_STAMP),
  buildEm: text('APP_BUILD_TIME', BUILD_STAMP),
  schemaVersao: text('APP_SCHEMA_VERSION', BUILD_STAMP),
}

// The order is the order values are read in (the first bad one is reported) and of SERVICE_CONFIG_FILE's keys.
export const SETTINGS = compose(SERVICE_SETTINGS, CONTACT_SETTINGS, HTTP_SETTINGS, OVERLOAD_SETTINGS, DB_SETTINGS, MAIL_SETTINGS, SPAM_SETTINGS,
  STATUS_SETTINGS, METRICS_SETTINGS, TELEMETRY_SETTINGS, IDEMPOTENCY_SETTINGS, OPERATIONS_SETTINGS, SITE_SETTINGS,
  COLLECTIONS_SETTINGS, WEBHOOK_SETTINGS, REGISTRY_SETTINGS)

/** Every environment variable the service reads (compose files, manifests and the README are checked against it). */
export const CONFIG_VARIABLES: readonly string[] = envSettings(SETTINGS).map((s) => s.env)

export function loadConfig(env: Env = process.env): Config {
  const v = readSettings(SETTINGS, env)
  const http = httpConfig(v)
  if (v.metricsPort !== undefined && v.metricsPort === http.port) {
    throw new ConfigError(`METRICS_PORT must differ from PORT (${http.port}): metrics are never served on the public port`)
  }
  return {
    ...http,
    ...dbConfig(v),
    ...mailConfig(v, v.ambiente),
    ...serviceConfig(v),
    subjects: v.subjects,
    overload: overloadConfig(v),
    turns: turnsConfig(v),
    metricsPort: v.metricsPort,
    statusRefreshMs: v.statusRefreshMs,
    spamMinFillMs: v.spamMinFillMs,
    bodyLimitBytes: 64 * 1024,
    idempotencyTtlHours: v.idempotencyTtlHours,
    maxTitulosPorOperacao: v.maxTitulosPorOperacao,
    termoMaxBytes: v.termoMaxBytes,
    otelEndpoint: v.otelEndpoint,
    otelServiceName: v.otelServiceName,
    empresa: empresaConfig(v),
    banco: bancoConfig(v, v.ambiente),
    webhooks: webhookConfig(v),
    registradora: registradoraConfig(v, v.ambiente),
  }
}

function serviceConfig(v: Values<typeof SERVICE_SETTINGS>) {
  return {
    ambiente: v.ambiente,
    dataDir: resolve(v.dataDir),
    logLevel: v.logLevel,
    logFormat: v.logFormat,
    shutdownDelayMs: v.shutdownDelayMs,
    build: { versao: v.versao, commit: v.commit, buildEm: v.buildEm, schemaVersao: v.schemaVersao },
  }
}

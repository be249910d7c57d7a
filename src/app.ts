// buildApp(config, deps): the whole service as a Fastify instance, for main.ts and for the tests.
import Fastify, { LogController, type FastifyInstance } from 'fastify'
import type { Redis } from 'ioredis'
import { systemClock, type Clock } from './platform/lib/clock.ts'
import type { Config } from './config.ts'
import { lazySerializers, lazyValidators } from './platform/http/lazy-compilers.ts'
import { makeIpMatcher } from './platform/lib/ip-ranges.ts'
import type { Database } from './platform/db/database.ts'
import { openConfiguredDatabase } from './platform/db/open.ts'
import { prepareDataDir } from './platform/lib/startup.ts'
import { loggerOptions } from './platform/lib/logging.ts'
import { cors } from './platform/http/cors.ts'
import { addEmailFormat, AJV_OPTIONS, schemaFailure } from './platform/http/validation-errors.ts'
import { errorHandler, frameworkErrorHandler } from './platform/http/errors.ts'
import { gate } from './platform/http/gate.ts'
import { openApi } from './platform/http/openapi.ts'
import { routesPlugin } from './platform/http/plugins.ts'
import { rateLimits, requireClientAddress } from './platform/http/rate-limit.ts'
import { RedisAvailability } from './platform/http/rate-limit-store.ts'
import { bodyParser, normalizeContentType } from './platform/http/request-body.ts'
import { requestGuards } from './platform/http/request-guards.ts'
import { clientErrorHandler } from './platform/http/client-errors.ts'
import { configureServer, requireHost, serverOptions } from './platform/http/server-options.ts'
import { echoRequestId, requestIdFrom } from './platform/http/request-id.ts'
import { accessLog, type ResponseObserver } from './platform/http/access-log.ts'
import { JSON_ERROR_PAGES, NO_CREDENTIALS } from './platform/http/without-modules.ts'
import { lazyChildLogger } from './platform/http/request-logger.ts'
import { answerTraceResponse } from './platform/http/trace-context.ts'
import { overload } from './platform/http/overload.ts'
import { routeLabel } from './platform/http/route-label.ts'
import { observeHttp, setupMetrics, type Metrics } from './platform/metrics/index.ts'
import { MailChannel } from './platform/outbox/channel.ts'
import { mailTransportFor, type MailTransport } from './platform/outbox/transport.ts'
import { DeliveryWorker } from './platform/outbox/worker.ts'
import { StatusSnapshot } from './modules/status/index.ts'
import { securityHeaders } from './platform/http/security-headers.ts'
import { DEFAULT_DPOP_ALGORITHMS } from './modules/credentials/index.ts'
import { makeRefusals } from './modules/credentials/index.ts'
import { idempotencyKeys } from './platform/idempotency/http.ts'
import { makeIdempotency } from './platform/idempotency/run.ts'
import { withTimeout } from './platform/lib/timeout.ts'
import type { AppModule, ErrorPages, ModuleParts, ModuleServices, Platform } from './platform/module.ts'
import { MODULES } from './modules-list.ts'
import type { SpamReason } from './modules/contact/index.ts'
import { appJobs } from './app-jobs.ts'
import { JobScheduler } from './platform/jobs/scheduler.ts'

export type AppDeps = {
  /** An open, migrated database; when absent the app opens (and later closes) its own from config. */
  db?: Database
  redis?: Redis
  clock?: Clock
  /** Pino options or false; defaults to JSON logs at config.logLevel. */
  logger?: object | boolean
  /** Where mail goes; by default SMTP when SMTP_URL is set (and not AMBIENTE=sandbox), else the sandbox. */
  transport?: MailTransport
  /** Redis key prefix of the rate-limit counters (default `rl:`). */
  rateLimitNamespace?: string
  /** Called for each contact stored as spam, with its reason (for a metrics counter). */
  onSpam?: (reason: SpamReason) => void
  /** The modules, in order (default: src/modules-list.ts); a test adds one of its own. */
  modules?: readonly AppModule[]
}

export type Lifecycle = { draining: boolean }

/** What the app runs on, once built: main.ts and the tests read them as `app.deps`. */
export type AppServices = {
  db: Database
  redis: Redis | undefined
  snapshot: StatusSnapshot
  channel: MailChannel
  worker: DeliveryWorker | undefined
  lifecycle: Lifecycle
  metrics: Metrics
  jobs: JobScheduler
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppServices
  }
}

export type App = FastifyInstance

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<App> {
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config),
    logController: new LogController({ disableRequestLogging: true }), // the access-log plugin writes one line per request instead of two
    genReqId: requestIdFrom,
    childLoggerFactory: lazyChildLogger,
    // While closing, a request that arrives on an already open keep-alive connection is served, not answered 503:
    // the load balancer sent it before it noticed readiness fail, and nginx does not retry a 503 (deploy/nginx.conf).
    return503OnClosing: false,
    requestIdHeader: false,
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    bodyLimit: config.bodyLimitBytes,
    ...serverOptions(config.http),
    clientErrorHandler,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkErrorHandler(securityHeaders(config.ambiente === 'producao'), makeRefusals(DEFAULT_DPOP_ALGORITHMS).unauthenticated),
    schemaErrorFormatter: schemaFailure,
    ajv: {
      customOptions: { ...AJV_OPTIONS },
      onCreate: addEmailFormat,
    },
    schemaController: { compilersFactory: { buildValidator: lazyValidators(), buildSerializer: lazySerializers() } },
  })

  configureServer(app, config.http)

  // What this app opened itself, closed in reverse on close, and at once if building fails halfway.
  const owned: Owned = []
  try {
    return await assemble(app, config, deps, owned)
  } catch (err) {
    for (const close of owned.reverse()) await close().catch(() => {})
    await app.close().catch(() => {})
    throw err
  }
}

type Owned = (() => Promise<unknown>)[]

async function assemble(app: FastifyInstance, config: Config, deps: AppDeps, owned: Owned): Promise<App> {
  const clock = deps.clock ?? systemClock
  const db = deps.db ?? await openOwnDatabase(app, config, owned)
  const { redis, availability } = await connectRedis(app, config, deps.redis, owned)

  if (config.mailSandbox && !deps.transport) prepareDataDir(config.dataDir) // the sandbox keeps mail in DATA_DIR/mail
  const transport = deps.transport ?? mailTransportFor(config)
  owned.push(async () => transport.close())
  const channel = new MailChannel({
    mode: transport.mode, verify: () => transport.verify(), clock, reverifyMs: config.mail.reverifyMs,
    deliveryExpected: config.ambiente === 'producao', log: app.log,
  })
  const provided = new Map<keyof ModuleServices, unknown>()
  const use = <K extends keyof ModuleServices>(name: K): ModuleServices[K] => {
    if (!provided.has(name)) throw new Error(`no module before this one provides "${String(name)}" (src/modules-list.ts)`)
    return provided.get(name) as ModuleServices[K]
  }
  const metrics = setupMetrics(app, {
    host: config.host, port: config.metricsPort, orm: db.orm, dbTimeoutMs: config.dbTimeoutMs, clock, build: config.build,
  })
  const worker = config.mail.workerInServer
    ? new DeliveryWorker({
      db, transport, mailFrom: config.mailFrom, clock, config: config.mail, log: app.log.child({ component: 'entrega' }),
      onOutcome: (resultado) => metrics.deliveries.inc({ resultado }),
    })
    : undefined
  const lifecycle: Lifecycle = { draining: false }
  const modules = deps.modules ?? MODULES
  const jobs = new JobScheduler({ orm: db.orm, clock, log: app.log.child({ component: 'tarefas' }) })
  for (const job of appJobs(modules, { db, config, log: app.log })) jobs.register(job)

  // The HTTP policy, then the modules, then their routes. Each policy is a named plugin that declares what it
  // needs registered before it (src/platform/http/plugins.ts): a wrong order fails at start. Hooks run in this order.
  const pages: { current?: ErrorPages } = {}
  await app.register(requestGuards, { guards: [echoRequestId, answerTraceResponse, requireHost, requireClientAddress, normalizeContentType] })
  // The modules' observers join once they are set up: the access log reads the list as each answer is sent.
  const observers: ResponseObserver[] = [observeHttp(metrics)]
  await app.register(accessLog, { observers })
  await app.register(overload, config.overload)
  await app.register(errorHandler, { page: (err, req, reply) => pages.current?.error(err, req, reply) })
  await app.register(bodyParser)
  await app.register(cors, { siteOrigins: config.siteOrigins })
  await app.register(rateLimits, { redis, availability, isAllowlisted: makeIpMatcher(config.rateLimitAllowlist), nameSpace: deps.rateLimitNamespace ?? 'rl:',
    onExceeded: (req) => metrics.rateLimited.inc({ route: routeLabel(req) }),
  })
  const idempotency = makeIdempotency({ db, clock, ttlMs: config.idempotencyTtlHours * 3_600_000 })

  // Each module is set up in the list's order, after the rate limiter (a module may make a keyed budget of it).
  const parts: { module: AppModule, parts: ModuleParts }[] = []
  const platform: Platform = {
    config, db, redis, clock, log: app.log, metrics, idempotency, channel, lifecycle, http: app, use,
    observe: { spam: deps.onSpam as ((reason: string) => void) | undefined },
    customerApiPaths: () => Object.assign({}, ...parts.map(({ parts: p }) => p.customerApiPaths?.() ?? {})),
    contributions: (point) => {
      if (parts.length < modules.length) throw new Error(`contributions to "${String(point)}" are read once every module's setup ran`)
      return parts.flatMap(({ parts: p }) => p.contributes?.[point] !== undefined ? [p.contributes[point]!] : [])
    },
  }
  for (const module of modules) {
    const made = await module.setup(platform)
    parts.push({ module, parts: made })
    for (const [name, service] of Object.entries(made.provides ?? {})) provided.set(name as keyof ModuleServices, service)
    if (made.observeResponses) observers.push(made.observeResponses)
  }
  const guard = atMostOne(parts, 'credentialGuard') ?? NO_CREDENTIALS
  pages.current = atMostOne(parts, 'errorPages') ?? JSON_ERROR_PAGES
  // The status snapshot is read when asked for: an app without the status module has none.
  app.decorate('deps', { db, redis, get snapshot() { return use('status').snapshot }, channel, worker, lifecycle, metrics, jobs })

  await app.register(openApi, { schemas: parts.flatMap(({ parts: p }) => p.publicSchemas ?? []) })
  await app.register(gate, { budget: config.rateLimits.restrito, notFound: pages.current.notFound, guard })
  await app.register(idempotencyKeys)
  for (const { module, parts: p } of parts) if (p.routes) await app.register(routesPlugin(`${module.name}-routes`, p.routes))

  const background = parts.flatMap(({ parts: p }) => p.background ?? [])
  app.addHook('onReady', async () => {
    jobs.start()
    channel.start()
    for (const work of background) await work.start()
    await worker?.start()
  })
  app.addHook('onClose', async () => {
    await Promise.all([jobs.stop(), worker?.stop()])
    channel.stop()
    for (const work of [...background].reverse()) await work.stop()
    for (const close of owned.reverse()) await close()
  })
  return app
}

/**
 * The one module's part of a kind that one module at most gives (the credential guard, the error pages); none
 * gives it in a service of the platform and a few modules, which then gets the platform's closed defaults.
 */
function atMostOne<K extends 'credentialGuard' | 'errorPages'>(parts: { module: AppModule, parts: ModuleParts }[], kind: K): ModuleParts[K] {
  const givers = parts.filter(({ parts: p }) => p[kind] !== undefined)
  if (givers.length > 1) throw new Error(`one module at most gives the ${kind}; ${givers.map(({ module }) => module.name).join(', ')} do (src/modules-list.ts)`)
  return givers[0]?.parts[kind]
}

async function openOwnDatabase(app: FastifyInstance, config: Config, owned: Owned): Promise<Database> {
  const opened = await openConfiguredDatabase(config, {
    serveSocket: true,
    onPoolError: (err) => app.log.warn({ code: (err as NodeJS.ErrnoException).code }, 'idle database connection lost'),
    onSocketUnavailable: (why) => app.log.warn(`DATA_DIR "${config.dataDir}": the embedded database is not offered to the CLI while the server runs: ${why}`),
  })
  owned.push(() => opened.db.close())
  const applied = opened.applied
  if (applied.length) app.log.info({ migrations: applied.map((m) => `${m.version}_${m.name}`) }, 'database migrated')
  return opened.db
}

/** The Redis client of the rate limits and its watch: the one given, the one REDIS_URL names, or none. */
async function connectRedis(
  app: FastifyInstance, config: Config, given: Redis | undefined, owned: Owned,
): Promise<{ redis?: Redis, availability?: RedisAvailability }> {
  if (given) {
    const watch = new RedisAvailability(given, app.log)
    owned.push(async () => watch.stop())
    return { redis: given, availability: watch }
  }
  if (!config.redisUrl) return {}
  // Loaded only when configured: an instance without Redis starts without reading the client's code.
  const { Redis } = await import('ioredis')
  // Short command timeout: a request never waits long on a Redis that stopped answering.
  const client = new Redis(config.redisUrl, {
    lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, commandTimeout: 500,
  })
  const watch = new RedisAvailability(client, app.log)
  // An error while quitting, once `watch` stopped listening, is no outage; unheard, ioredis would print its stack.
  client.on('error', () => {})
  owned.push(async () => { watch.stop(); await client.quit().catch(() => client.disconnect()) })
  // Without an offline queue, commands fail until connected: wait briefly so the first requests share the budget.
  await withTimeout(new Promise((resolve) => client.once('ready', resolve)), 2000)
    .catch(() => app.log.warn('redis not reachable at start: per-instance budgets until it is'))
  return { redis: client, availability: watch }
}

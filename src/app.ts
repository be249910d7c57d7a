// buildApp(config, deps): the whole service as a Fastify instance, for main.ts and for the tests.
import { join } from 'node:path'
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify'
import type { Redis } from 'ioredis'
import { systemClock, type Clock } from './clock.ts'
import { makeIpMatcher, type Config } from './config.ts'
import { contactRoutes } from './contact/routes.ts'
import { scheduleRetention } from './contact/retention.ts'
import { makeContactService } from './contact/service.ts'
import { makeContactStore } from './contact/store.ts'
import { makeSubjectRouter } from './contact/subjects.ts'
import type { Database } from './db/database.ts'
import { openConfiguredDatabase } from './db/open.ts'
import { prepareDataDir } from './startup.ts'
import { loggerOptions } from './logging.ts'
import { registerCors } from './http/cors.ts'
import { addEmailFormat, AJV_OPTIONS } from './http/validation-errors.ts'
import { registerErrorHandler } from './http/errors.ts'
import { collectPublicRoutes, isApiPath, makeGate, registerGate } from './http/gate.ts'
import { registerOpenApi } from './http/openapi.ts'
import { ContatoIn, ContatoOut } from './contact/schemas.ts'
import { ManutencaoOut, ServicoOut, StatusOut, VersionOut } from './status/schemas.ts'
import { rateLimitFor, registerRateLimit, requireClientAddress } from './http/rate-limit.ts'
import { RedisAvailability } from './http/rate-limit-store.ts'
import { normalizeContentType, registerBodyParser } from './http/request-body.ts'
import { registerRequestGuards } from './http/request-guards.ts'
import { clientErrorHandler } from './http/client-errors.ts'
import { configureServer, requireHost, serverOptions } from './http/server-options.ts'
import { echoRequestId, requestIdFrom } from './http/request-id.ts'
import { registerAccessLog } from './http/access-log.ts'
import { registerOverload } from './http/overload.ts'
import { routeLabel } from './http/route-label.ts'
import { observeHttp, setupMetrics, type Metrics } from './metrics/index.ts'
import { MailChannel } from './mail/channel.ts'
import { checkMail } from './mail/check.ts'
import { mailTransportFor, type MailTransport } from './mail/transport.ts'
import { DeliveryWorker } from './mail/worker.ts'
import { checkDatabase, checkLimits } from './status/checks.ts'
import { withTimeout } from './timeout.ts'
import { describeWindow, openWindows, pickWindow } from './status/maintenance.ts'
import { statusRoutes } from './status/routes.ts'
import { StatusSnapshot } from './status/snapshot.ts'
import { securityHeaders } from './site/headers.ts'
import { DEFAULT_MAX_AGE_MS, type SpamReason } from './spam/rules.ts'
import { makeFormTokens } from './spam/token.ts'
import { siteError, siteNotFound, siteRoutes } from './site/routes.ts'

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
}

export type Lifecycle = { draining: boolean }

export type App = FastifyInstance & { deps: { db: Database, redis: Redis | undefined, snapshot: StatusSnapshot, channel: MailChannel, worker: DeliveryWorker | undefined, lifecycle: Lifecycle, metrics: Metrics } }

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<App> {
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config),
    logController: new LogController({ disableRequestLogging: true }), // registerAccessLog writes one line per request instead of two
    genReqId: requestIdFrom,
    // While closing, a request that arrives on an already open keep-alive connection is served, not answered 503:
    // the load balancer sent it before it noticed readiness fail, and nginx does not retry a 503 (deploy/nginx.conf).
    return503OnClosing: false,
    requestIdHeader: false,
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    bodyLimit: config.bodyLimitBytes,
    ...serverOptions(config.http),
    clientErrorHandler,
    routerOptions: { ignoreTrailingSlash: true },
    // A path that cannot be decoded (/api/%zz) never reaches the router or the hooks: answer it here.
    frameworkErrors: (_err, req, rawReply) => {
      const reply = rawReply as unknown as FastifyReply
      reply.header('x-request-id', req.id)
      if (isApiPath(req.url)) {
        return reply.code(401).header('www-authenticate', 'Bearer realm="api"').send({ detail: 'nao_autenticado' })
      }
      return reply.code(400).headers(securityHeaders(config.ambiente === 'producao')).header('vary', 'Accept').send({ detail: 'requisicao_invalida' })
    },
    ajv: {
      customOptions: { ...AJV_OPTIONS },
      onCreate: addEmailFormat,
    },
  })

  configureServer(app, config.http)

  // What this app opened itself, closed in reverse on close, and at once if building fails halfway.
  const owned: (() => Promise<unknown>)[] = []
  try {
    return await assemble(app, config, deps, owned)
  } catch (err) {
    for (const close of owned.reverse()) await close().catch(() => {})
    await app.close().catch(() => {})
    throw err
  }
}

async function assemble(app: FastifyInstance, config: Config, deps: AppDeps, owned: (() => Promise<unknown>)[]): Promise<App> {
  const clock = deps.clock ?? systemClock
  let db = deps.db
  if (!db) {
    const opened = await openConfiguredDatabase(config, {
      serveSocket: true,
      onPoolError: (err) => app.log.warn({ code: (err as NodeJS.ErrnoException).code }, 'idle database connection lost'),
      onSocketUnavailable: (why) => app.log.warn(`DATA_DIR "${config.dataDir}": the embedded database is not offered to the CLI while the server runs: ${why}`),
    })
    db = opened.db
    owned.push(() => opened.db.close())
    const applied = opened.applied
    if (applied.length) app.log.info({ migrations: applied.map((m) => `${m.version}_${m.name}`) }, 'database migrated')
  }
  let redis = deps.redis
  let availability: RedisAvailability | undefined
  if (!redis && config.redisUrl) {
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
    availability = watch
    // Without an offline queue, commands fail until connected: wait briefly so the first requests share the budget.
    await withTimeout(new Promise((resolve) => client.once('ready', resolve)), 2000)
      .catch(() => app.log.warn('redis not reachable at start: per-instance budgets until it is'))
    redis = client
  } else if (redis) {
    const watch = new RedisAvailability(redis, app.log)
    owned.push(async () => watch.stop())
    availability = watch
  }

  if (config.mailSandbox && !deps.transport) prepareDataDir(config.dataDir) // the sandbox keeps mail in DATA_DIR/mail
  const transport = deps.transport ?? mailTransportFor(config)
  owned.push(async () => transport.close())
  const channel = new MailChannel({ mode: transport.mode, verify: () => transport.verify(), clock, reverifyMs: config.mail.reverifyMs, deliveryExpected: config.ambiente === 'producao', log: app.log })
  const subjects = makeSubjectRouter(config.subjects)
  const snapshot = new StatusSnapshot({
    ambiente: config.ambiente || 'desenvolvimento',
    versao: config.build.versao,
    checks: [
      () => checkDatabase(db, config.dbTimeoutMs),
      () => checkMail(channel, db, clock.now(), config.dbTimeoutMs),
      () => checkLimits(redis, config.dbTimeoutMs),
    ],
    maintenance: async (now) => {
      const w = pickWindow(await withTimeout(openWindows(db.orm, now), config.dbTimeoutMs), now)
      return w ? describeWindow(w, now) : null
    },
    clock,
    log: app.log,
  }, config.statusRefreshMs)
  const metrics = setupMetrics(app, {
    host: config.host, port: config.metricsPort, orm: db.orm, dbTimeoutMs: config.dbTimeoutMs, snapshotRefreshedAt: () => snapshot.lastRefreshedAt(), clock,
  })
  const worker = config.mail.workerInServer
    ? new DeliveryWorker({
      db, transport, subjects, mailFrom: config.mailFrom, clock, config: config.mail, log: app.log.child({ component: 'entrega' }),
      onOutcome: (resultado) => metrics.deliveries.inc({ resultado }),
    })
    : undefined

  registerRequestGuards(app, [echoRequestId, requireHost, requireClientAddress, normalizeContentType])
  registerAccessLog(app, [observeHttp(metrics)])
  await registerOverload(app, config.overload)
  registerErrorHandler(app, siteError)
  registerBodyParser(app)
  await registerCors(app, config.siteOrigins)
  await registerRateLimit(app, { redis, availability, isAllowlisted: makeIpMatcher(config.rateLimitAllowlist), nameSpace: deps.rateLimitNamespace ?? 'rl:',
    onExceeded: (req) => metrics.rateLimited.inc({ route: routeLabel(req) }),
  })
  await registerOpenApi(app, [ContatoIn, ContatoOut, VersionOut, StatusOut, ServicoOut, ManutencaoOut])
  const publicRoutes = collectPublicRoutes(app)

  const lifecycle: Lifecycle = { draining: false }
  await app.register(statusRoutes({ config, db, snapshot, lifecycle }))
  const store = makeContactStore(db.orm, clock)
  const contact = makeContactService(store, subjects, {
    tokens: makeFormTokens(store.secret), rules: { minFillMs: config.spamMinFillMs, maxAgeMs: DEFAULT_MAX_AGE_MS }, clock, onSpam: (reason) => { metrics.spam.inc({ motivo: reason }); deps.onSpam?.(reason) },
  })
  await app.register(contactRoutes({ config, db, contact, channel, clock }))
  await app.register(siteRoutes({ config, contact, snapshot, openapi: () => app.swagger() }))
  const gate = makeGate(publicRoutes)
  registerGate(app, gate, config.rateLimits.restrito)

  // Methods Fastify cannot route (SEARCH, PROPFIND…) land here: under /api they get the gate's answer too.
  app.setNotFoundHandler({ preHandler: app.rateLimit(rateLimitFor(config.rateLimits.restrito)) }, async (req, reply) => {
    if (isApiPath(req.url)) return gate(req, reply)
    return siteNotFound(req, reply)
  })

  let stopRetention: (() => void) | undefined
  app.addHook('onReady', async () => {
    stopRetention = scheduleRetention({ orm: db.orm, days: config.mail.retentionDays, mailDir: join(config.dataDir, 'mail'), clock, log: app.log })
    channel.start()
    snapshot.start()
    await worker?.start()
  })
  app.addHook('onClose', async () => {
    stopRetention?.()
    await worker?.stop()
    channel.stop()
    await snapshot.stop()
    for (const close of owned.reverse()) await close()
  })

  return Object.assign(app, { deps: { db, redis, snapshot, channel, worker, lifecycle, metrics } }) as App
}

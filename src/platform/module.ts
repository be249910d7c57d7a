// What a module is, as the app and the CLI put it together: one object per module, listing everything it adds
// to the service (its routes, the schemas of the public document, its background work, the paths of the
// customers' document, its operator commands and jobs), built from the platform's services that the app hands
// it. Adding a module is a folder with such an object, and one line in the list of src/modules-list.ts.
//
// A module builds its services in `setup`, in list order; what it `provides` is read by modules later in the
// list through `use(name)` (typed by the `ModuleServices` interface, which each module extends for itself,
// as Fastify's decorators are declared). Its routes are registered after every module's setup, once the HTTP
// policy is complete, so a module's routes may use what a later module provides.
//
// A module may also open a point that other modules contribute to (the mcp module's tools and resources): it
// declares the point in `ModuleContributions` (declaration merging again), others give theirs in
// `ModuleParts.contributes`, and the module that opened it reads them all with `contributions(point)` once every
// module's setup ran (in its routes, or lazily), whatever the order of the list. The point's owner never
// imports its contributors: they import its public entry.
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import type { TSchema } from 'typebox'
import type { CommandContext } from './cli/output.ts'
import type { Clock } from './lib/clock.ts'
import type { Config } from './config.ts'
import type { Database } from './db/database.ts'
import type { ResponseObserver } from './http/access-log.ts'
import type { Guard } from './http/gate.ts'
import type { Idempotency } from './idempotency/run.ts'
import type { Job } from './jobs/job.ts'
import type { MailChannel } from './outbox/channel.ts'
import type { Metrics } from './metrics/index.ts'

/** What each module provides to the modules after it, by the module's name: each module adds its own entry. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging, one module at a time
export interface ModuleServices {}

/** The points modules contribute to, by name, and what one module contributes to each: each owner adds its own. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging, one module at a time
export interface ModuleContributions {}

/** The platform's services, as every module's setup gets them. */
export type Platform = {
  config: Config
  db: Database
  redis: Redis | undefined
  clock: Clock
  log: FastifyBaseLogger
  metrics: Metrics
  idempotency: Idempotency
  /** The mail channel: its mode, whether it can really send, its verification. */
  channel: MailChannel
  /** Set when the process begins to stop (readiness then fails at once). */
  lifecycle: { draining: boolean }
  /** Observers the embedding code (tests) may set: called as things happen, never allowed to fail them. */
  observe: { spam?: (reason: string) => void }
  /**
   * The Fastify instance, for what must be declared on it before routes exist (a request decoration) or made
   * from its rate limiter (a keyed budget). Routes go in `ModuleParts.routes`, never straight on it.
   */
  http: FastifyInstance
  /** The paths every module adds to the customers' OpenAPI document; complete once every module's setup ran. */
  customerApiPaths(): Record<string, Record<string, unknown>>
  /** What an earlier module provides; throws, naming it, when no earlier module of the list does. */
  use<K extends keyof ModuleServices>(name: K): ModuleServices[K]
  /** Every module's contribution to a point, in list order; throws when called before every module's setup ran. */
  contributions<K extends keyof ModuleContributions>(point: K): ModuleContributions[K][]
}

/** A background task started when the app is ready and stopped (awaited) when it closes. */
export type BackgroundWork = { start(): void | Promise<void>, stop(): void | Promise<void> }

/** The site's pages for what the HTTP policy answers itself: an error, an unknown path. */
export type ErrorPages = {
  /** A page for this error on a website path, or undefined to answer JSON. */
  error(err: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply | undefined
  notFound(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>
}

export type ModuleParts = {
  provides?: Partial<ModuleServices>
  /** Registered, after the HTTP policy, as the plugin `<module>-routes`. */
  routes?: FastifyPluginAsync
  /** Shared schemas of the public OpenAPI document (/openapi.json) that its routes refer to by `$id`. */
  publicSchemas?: TSchema[]
  /** Paths this module adds to the customers' OpenAPI document (GET /api/conta/openapi.json). */
  customerApiPaths?: () => Record<string, Record<string, unknown>>
  /** The credential check the gate runs before every /api route outside the public ones (one module gives it). */
  credentialGuard?: Guard
  /** The site's pages for errors and unknown paths (one module gives them). */
  errorPages?: ErrorPages
  background?: BackgroundWork[]
  /** Called for every answer the service sends (with the matched route's template), as the access log writes it: a module's metrics. */
  observeResponses?: ResponseObserver
  /** What it gives to points other modules opened (ModuleContributions). */
  contributes?: { [K in keyof ModuleContributions]?: ModuleContributions[K] }
}

/** An operator command (`npm run cli -- <name> …`). */
export type CliCommand = {
  name: string
  /** The lines of `help` that describe it, indented as the others. */
  help: string
  run(argv: string[], ctx: CommandContext): Promise<number>
}

/** What a module's jobs are made from: the app's and the CLI's alike (the CLI lists them without building the app). */
export type JobContext = { db: Database, config: Config, log: { info(facts: object, message: string): void } }

export type AppModule = {
  name: string
  setup(platform: Platform): ModuleParts | Promise<ModuleParts>
  /** Its operator commands: the CLI lists and runs them without building the app. */
  commands?: CliCommand[]
  /** Its jobs (src/platform/jobs/): each runs in one instance of the cluster at a time, on its schedule. */
  jobs?: (ctx: JobContext) => Job[]
}

/** Names a module's object, checked. */
export function defineModule(module: AppModule): AppModule {
  return module
}

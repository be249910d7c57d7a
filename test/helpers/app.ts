// Builds the app as main.ts does, on a test database, with its own rate-limit namespace in Redis
// (when REDIS_URL is set) so that test files never share a budget.
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { buildApp, type App, type AppDeps } from '../../src/app.ts'
import type { AppModule } from '../../src/platform/module.ts'
import { loadConfig } from '../../src/config.ts'
import type { Database } from '../../src/platform/db/database.ts'
import { tempDir } from './temp.ts'

export type TestAppOptions = {
  db: Database
  env?: Record<string, string>
  deps?: Partial<AppDeps>
  /** Collects the JSON log lines when given. */
  logs?: object[]
  /** The level of the lines collected in `logs` (default info). */
  logLevel?: string
  /** Adds to the app before it is made ready (test routes, hooks). */
  beforeReady?: (app: App) => unknown
  /** Contact posts allowed per IP in ten minutes (the default, 5, would stop most test files early). */
  contactBudget?: number
  /**
   * The platform and these modules only (with the modules they use), instead of the service's whole list: a
   * module's own suites. Without the credentials module no request has a credential; without the site, errors are JSON.
   */
  modules?: AppModule[]
}

/** On a loaded machine the readiness query may take over the default 1.5 s: env for tests that expect its 200. */
export const PATIENT = { DB_TIMEOUT_MS: '10000' }

/** The public reads of /api (GET, open to any origin, on the `leitura` budget). */
export const PUBLIC_READS = ['/api/health', '/api/health/ready', '/api/version', '/api/status', '/api/site/contato/assuntos', '/api/site/contato/estado']

export async function createTestApp(opts: TestAppOptions): Promise<App> {
  // Sandbox mail lands in DATA_DIR/mail: each app gets a fresh directory.
  // Load shedding off unless a test asks for it: test files share two busy cores, and a lagging loop
  // there must not turn an unrelated assertion into a 503 (test/platform/http/overload.test.ts turns it on).
  // The webhook worker off unless a test asks for it (the webhooks' own suites): it polls the database every second and
  // holds a listening session, which a test that takes its database away does not need in its way.
  const env: Record<string, string> = { LOG_LEVEL: 'silent', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', WEBHOOK_WORKER: 'off', ...opts.env }
  // Only when the caller gives none: a directory made and then overridden would be left behind.
  env.DATA_DIR ??= tempDir('app')
  if (process.env.REDIS_URL && !('REDIS_URL' in env)) env.REDIS_URL = process.env.REDIS_URL
  if (opts.contactBudget !== undefined) {
    env.SERVICE_CONFIG_FILE = serviceConfigFile({ rateLimits: { contato: { max: opts.contactBudget, windowSeconds: 600 } } })
  }
  const config = loadConfig(env)
  const logger = opts.logs ? { level: opts.logLevel ?? 'info', stream: collector(opts.logs) } : false
  const app = await buildApp(config, {
    db: opts.db, logger, rateLimitNamespace: `rl-test-${randomBytes(6).toString('hex')}:`, ...(opts.modules ? { modules: opts.modules } : {}), ...opts.deps,
  })
  // buildApp undoes its own work when it fails; past it, an app that fails to get ready is closed here, or its
  // worker, timers and connections would outlive the test.
  try {
    await opts.beforeReady?.(app)
    await app.ready()
  } catch (err) {
    await app.close().catch(() => {})
    throw err
  }
  return app
}

/** Listens on 127.0.0.1 at a free port and resolves to the app's base URL (`http://127.0.0.1:PORT`). */
export function listen(app: App): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' })
}

/** Writes `content` as a SERVICE_CONFIG_FILE in a fresh temporary directory and returns its path. */
export function serviceConfigFile(content: object): string {
  const file = join(tempDir('config'), 'config.json')
  writeFileSync(file, JSON.stringify(content))
  return file
}

function collector(into: object[]) {
  return new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) into.push(JSON.parse(line))
      done()
    },
  })
}

/** A valid contact body; `overrides` replace fields, a value of undefined removes one. */
export function contactBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    nome: 'Maria da Conceição',
    email: 'maria@empresa.com.br',
    mensagem: `Gostaria de saber como funciona a antecipação de recebíveis. ${randomBytes(4).toString('hex')}`,
    ...overrides,
  }
  for (const [k, v] of Object.entries(body)) if (v === undefined) delete body[k]
  return body
}

/** The fill-time token of the site's contact form, as a browser gets it: from the page served now. */
export async function siteFormToken(app: App): Promise<string> {
  const page = await app.inject({ url: '/contato', headers: { accept: 'text/html' } })
  const token = /name="token_formulario" value="([^"]*)"/.exec(page.body)?.[1]
  if (!token) throw new Error(`no form token in GET /contato (status ${page.statusCode})`)
  return token
}

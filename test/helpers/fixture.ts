// One line gives a suite, or a single test, a migrated database and a ready app, and takes both down when it
// ends, however it ends: a failed assertion, an app that failed halfway through its start, a test that closed
// the database itself. Each thing is registered for cleanup the moment it exists, not once the whole set is
// ready, so nothing made before a failure is left behind (the fps_t_* databases once left on the server came
// from `after` hooks that only knew what had finished).
//
//   describe('…', () => {
//     const ctx = useTestApp({ contactBudget: 100, env: { MAIL_WORKER: 'off' } })
//     it('…', async () => { await ctx.app.inject(…); await ctx.db.orm.select()… })
//   })
//
//   it('…', async (t) => { const app = await testApp(t, { env: … }) })   // closed by t.after
//
// node:test runs `after` hooks in the order they were written, so a suite's own `after` below a fixture runs
// once the fixture's database is gone: whatever stands on the fixture (a proxy, a second pool, a server the
// app talks to) is handed to `ctx.defer(step)` (in a hook) or `defer(t, step)` (in a test), and stops first.
import { after, before, type TestContext } from 'node:test'
import type { App } from '../../src/app.ts'
import type { Database } from '../../src/platform/db/database.ts'
import { createTestApp, listen, type TestAppOptions } from './app.ts'
import { createTestDatabase } from './database.ts'
import { Teardown } from './teardown.ts'

export type FixtureOptions = Omit<TestAppOptions, 'db'> & {
  /** Run the app on this database (which someone else closes) instead of a fresh one. */
  db?: Database
  /** Also listen on 127.0.0.1 at a free port; `base` is then its URL. */
  listen?: boolean
}

/** Skips as node:test takes them: the suite's tests carry the same one, so they count as skipped. */
export type SuiteOptions = { skip?: string | boolean | undefined }

/** What a suite's fixture made; reading what was not made (yet) throws, naming it. */
export type SuiteDatabase = {
  readonly db: Database
  /** The database's URL on the PostgreSQL server; undefined on PGlite, or for a database given in the options. */
  readonly url: string | undefined
  /** Runs `step` when the suite ends, before the fixture's own cleanup (for what the suite built on top of it). */
  defer(step: () => unknown): void
}
export type SuiteApp = SuiteDatabase & { readonly app: App, readonly base: string }

type Made = { db?: Database, url?: string, app?: App, base?: string }

/** A suite's database and app: made before its first test (node:test `before`), gone after its last (`after`). */
export function useTestApp(opts: FixtureOptions | (() => FixtureOptions) = {}, suite: SuiteOptions = {}): SuiteApp {
  const fixture = suiteFixture((teardown, made) => makeApp(teardown, made, typeof opts === 'function' ? opts() : opts), suite)
  return {
    defer: fixture.defer,
    get db() { return fixture.read('db') },
    get url() { return fixture.made.url },
    get app() { return fixture.read('app') },
    get base() { return fixture.read('base') },
  }
}

/** A suite's database alone, for suites that build their apps themselves or need none. */
export function useTestDatabase(suite: SuiteOptions = {}): SuiteDatabase {
  const fixture = suiteFixture(makeDatabase, suite)
  return {
    defer: fixture.defer,
    get db() { return fixture.read('db') },
    get url() { return fixture.made.url },
  }
}

/** An app for one test, closed when the test ends (t.after); on a database of its own unless `opts.db` names one. */
export async function testApp(t: TestContext, opts: FixtureOptions = {}): Promise<App> {
  const made: Made = {}
  await makeApp(teardownOf(t), made, opts)
  return made.app!
}

/** Runs `step` when the test ends, before what the test set up earlier through these helpers (newest first). */
export function defer(t: TestContext, step: () => unknown): void {
  teardownOf(t).add(step)
}

// One teardown a test, run by one t.after hook: node:test runs a test's after hooks in the order they were
// added, and a test's things must go newest first (its app before the database or server the app uses).
const perTest = new WeakMap<TestContext, Teardown>()

function teardownOf(t: TestContext): Teardown {
  let teardown = perTest.get(t)
  if (!teardown) {
    const made = new Teardown()
    t.after(() => made.run())
    perTest.set(t, made)
    teardown = made
  }
  return teardown
}

async function makeDatabase(teardown: Teardown, made: Made): Promise<void> {
  const tdb = await createTestDatabase()
  teardown.add(() => tdb.dispose())
  made.db = tdb.db
  made.url = tdb.url
}

async function makeApp(teardown: Teardown, made: Made, opts: FixtureOptions): Promise<void> {
  const { db, listen: listening, ...appOptions } = opts
  if (db) made.db = db
  else await makeDatabase(teardown, made)
  const app = await createTestApp({ ...appOptions, db: made.db! })
  teardown.add(() => app.close())
  made.app = app
  if (listening) made.base = await listen(app)
}

// The suite fixtures made and not yet torn down, oldest first. One made later in the same suite may stand on an
// earlier one (an app on its database), and node:test runs a suite's `after` hooks in the order they were
// registered: so the first to end takes down, newest first, every fixture made after it that is still up.
// Those of nested suites are down already (a nested suite ends before its parent's hooks run), and those of
// later sibling suites are not made yet (a file's suites run one after another).
const live: Teardown[] = []

function suiteFixture(make: (teardown: Teardown, made: Made) => Promise<void>, suite: SuiteOptions) {
  const teardown = new Teardown()
  const made: Made = {}
  let started = false
  // A skipped suite's tests never run: nothing is made for them.
  if (!suite.skip) {
    before(async () => {
      started = true
      live.push(teardown)
      await make(teardown, made)
    })
    after(async () => {
      const from = live.indexOf(teardown)
      if (from >= 0) await Teardown.all(live.splice(from).reverse())
    })
  }
  const read = <K extends keyof Made>(key: K): NonNullable<Made[K]> => {
    const value = made[key]
    if (value !== undefined) return value
    throw new Error(started
      ? `the test fixture has no ${key}: it failed before making it${key === 'base' ? ', or was not asked to listen' : ''}`
      : `the test fixture's ${key} is read before its suite started: read it inside a test or a hook`)
  }
  return { made, read, defer: (step: () => unknown) => teardown.add(step) }
}

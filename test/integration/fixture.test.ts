// The test fixtures (test/helpers/fixture.ts) close what they made however a test ends: a failed assertion,
// an app that fails as it starts, a test that closed the database itself, two apps on one database. Run on a
// file of such tests through `npm test`'s runner, which also fails a run that leaves a database behind.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { it } from 'node:test'

it('after tests that fail, or whose app fails to start, or that close their database, every app and database is closed', () => {
  // NODE_TEST_CONTEXT marks a child of the runner; without removing it the inner run would run nothing.
  // And TAP asked for by name: Node 23 and later report in spec by default even to a pipe, and a CI run's
  // TEST_DURATIONS is the outer run's file, not this one's.
  const env = { ...process.env }
  delete env.NODE_TEST_CONTEXT
  delete env.TEST_DURATIONS
  // A bound only so that a fixture which leaves the inner run hanging fails this test instead of the whole run.
  const run = spawnSync(process.execPath, ['scripts/test.mjs', '--test-reporter=tap', 'test/fixtures/self-closing.fixture.ts'], {
    encoding: 'utf8', env, timeout: 240_000,
  })
  const out = run.stdout + run.stderr
  assert.equal(run.signal, null, `the inner run did not end by itself:\n${out}`)
  assert.equal(run.status, 1, out)
  // Four tests fail on purpose and one is cancelled by its suite's failed start; the two that close their
  // database pass, cleanup included (a cleanup that throws would fail them).
  assert.match(out, /^# pass 2$/m, out)
  assert.match(out, /^# fail 4$/m, out)
  assert.match(out, /^# cancelled 1$/m, out)
  assert.match(out, /^ok \d+ - a suite whose test closes the database itself$/m, out)
  assert.match(out, /^ok \d+ - a test that closes its database itself$/m, out)
  // A TAP comment when the runner gathers the file's output, a plain line when the file runs in its own process.
  const checks = [...out.matchAll(/^(?:# )?fixture check: (.+)$/gm)].map((m) => m[1])
  assert.deepEqual(checks, [
    'suite, step deferred after its app was made: database still open',
    'test, step deferred before its app was made: app closed',
    'suite, failed test: app closed, database closed',
    'suite, app failed to start: app never made, database closed',
    'suite, database closed by the test: app closed, database closed',
    'suite, first of two apps: app closed, database closed',
    'suite, second of two apps: app closed, database closed',
    'test, failed: app closed, database closed',
    'test, database closed by the test: app closed, database closed',
  ])
  // On PostgreSQL the runner lists (and then drops) any database of the run still on the server.
  assert.doesNotMatch(out, /test run leaked/, out)
})

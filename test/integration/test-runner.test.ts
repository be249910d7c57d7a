// `npm test` fails a run whose tests leave temporary files or PostgreSQL databases behind, and removes them; and
// ends a run that passes its --deadline, naming what hung and stopping every process the run started.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { it } from 'node:test'
import pg from 'pg'
import { usingPostgres } from '../helpers/database.ts'
import { alive } from '../helpers/process-alive.ts'

/** The runner as a user calls it, outside the run this file is part of. */
function innerRun(args: string[]) {
  // NODE_TEST_CONTEXT marks a child of the runner; without removing it the inner run would run nothing.
  // And TAP asked for by name: Node 23 and later report in spec by default even to a pipe, and a CI run's
  // TEST_DURATIONS is the outer run's file, not this one's.
  const env = { ...process.env }
  delete env.NODE_TEST_CONTEXT
  delete env.TEST_DURATIONS
  const run = spawnSync(process.execPath, ['scripts/test.mjs', '--test-reporter=tap', ...args], { encoding: 'utf8', env })
  return { status: run.status, out: run.stdout + run.stderr }
}

it('a run past its --deadline ends, names the file still running and stops the processes it started', async () => {
  const { status, out } = innerRun(['--deadline=4', 'test/fixtures/hung.fixture.ts'])
  assert.equal(status, 1, out)
  assert.match(out, /npm test: the run passed its deadline of 4 s \(--deadline\); still running:/)
  assert.match(out, /pid \d+, \d+ s: [^\n]*hung\.fixture/, 'the hung file is named')
  for (const which of ['child', 'detached']) {
    const pid = Number(new RegExp(`hung fixture: ${which} pid (\\d+)`).exec(out)?.[1])
    assert.ok(pid > 0, out)
    // Killed at once; gone once its new parent (init) has reaped it.
    for (let i = 0; i < 50 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 100))
    assert.equal(alive(pid), false, `the ${which} process the hung test started was stopped with it`)
  }
})

it('--deadline takes whole seconds', () => {
  const { status, out } = innerRun(['--deadline=soon', 'test/fixtures/hung.fixture.ts'])
  assert.equal(status, 2)
  assert.match(out, /--deadline takes a whole number of seconds above 0 \(got "soon"\)/)
})

it('a test file that leaks makes the run fail, names what leaked and removes it', async () => {
  const { status, out } = innerRun(['test/fixtures/leaky.fixture.ts'])
  assert.equal(status, 1, out)
  assert.match(out, /# pass 1/, 'the test itself passed: the leak alone fails the run')
  assert.match(out, /test run leaked temporary files left in TMPDIR: fps-leak-\w+ \(now removed\)/)
  if (!usingPostgres) return
  const name = /test run leaked databases left on the server: (fps_t_\w+) \(now removed\)/.exec(out)?.[1]
  assert.ok(name, out)
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  try {
    assert.equal((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount, 0, 'the leaked database was dropped')
  } finally {
    await client.end()
  }
})

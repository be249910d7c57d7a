// `npm test` fails a run whose tests leave temporary files or PostgreSQL databases behind, and removes them.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { it } from 'node:test'
import pg from 'pg'
import { usingPostgres } from '../helpers/database.ts'

it('a test file that leaks makes the run fail, names what leaked and removes it', async () => {
  // NODE_TEST_CONTEXT marks a child of the runner; without removing it the inner run would run nothing.
  // And TAP asked for by name: Node 23 and later report in spec by default even to a pipe, and a CI run's
  // TEST_DURATIONS is the outer run's file, not this one's.
  const env = { ...process.env }
  delete env.NODE_TEST_CONTEXT
  delete env.TEST_DURATIONS
  const run = spawnSync(process.execPath, ['scripts/test.mjs', '--test-reporter=tap', 'test/fixtures/leaky.fixture.ts'], { encoding: 'utf8', env })
  const out = run.stdout + run.stderr
  assert.equal(run.status, 1, out)
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

// DATABASE_POOL_MAX bounds the connections one instance holds: many transactions at once share that many backends.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { loadConfig } from '../../../src/config.ts'
import { openConfiguredDatabase } from '../../../src/platform/db/open.ts'
import { onPostgresOnly } from '../../helpers/database.ts'
import { defer, useTestDatabase } from '../../helpers/fixture.ts'
import { tempDir } from '../../helpers/temp.ts'

const skip = onPostgresOnly('the embedded database has one session and no pool: needs PostgreSQL (DATABASE_URL)')

describe('DATABASE_POOL_MAX', { skip }, () => {
  const tdb = useTestDatabase({ skip })

  it('eight transactions at once run on at most DATABASE_POOL_MAX=2 connections', async (t) => {
    const config = loadConfig({ DATABASE_URL: tdb.url!, DATABASE_POOL_MAX: '2', DATA_DIR: tempDir('pool') })
    const { db } = await openConfiguredDatabase(config, { migrate: false })
    defer(t, () => db.close())
    const pids = await Promise.all(Array.from({ length: 8 }, () => db.rawTransaction(async (tx) => {
      const [row] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.05)')
      return row!.pid
    })))
    assert.equal(new Set(pids).size, 2)
  })
})

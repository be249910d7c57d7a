// Waiting for the schema as the runtime role: pending migrations are seen without applying any, a database that
// cannot be opened yet is waited for, and the wait ends once the migration is in (or fails naming what is missing).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { readMigrations, type Migration } from '../../../src/platform/db/migrate.ts'
import { pendingMigrations, SchemaWaitTimeout, waitForSchema } from '../../../src/platform/db/schema-wait.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'

// A later release's migration, which this database has not had.
const NEXT: Migration = { version: 9999, name: 'proxima_versao', sql: 'SELECT 1' }
const nextRelease = [...readMigrations(), NEXT]
const noSleep = async () => {}

describe('waiting for the schema', () => {
  const tdb = useTestDatabase()
  const lent = { close: async () => {} } // the suite's database stays open
  const applyNext = () => tdb.db.ownerTransaction((tx) => tx.query('INSERT INTO schema_migracoes (versao, nome) VALUES ($1, $2)', [NEXT.version, NEXT.name]))
  const removeNext = () => tdb.db.ownerTransaction((tx) => tx.query('DELETE FROM schema_migracoes WHERE versao = $1', [NEXT.version]))

  it('sees, as the runtime role, which of a build\'s migrations are not applied', async () => {
    assert.deepEqual(await pendingMigrations(tdb.db), [])
    assert.deepEqual((await pendingMigrations(tdb.db, nextRelease)).map((m) => m.version), [9999])
  })

  it('waits while a migration is pending and ends once it is applied, having applied nothing itself', async (t) => {
    t.after(removeNext)
    const told: string[] = []
    let applied = false
    await waitForSchema(async () => tdb.db, {
      ...lent, migrations: nextRelease, timeoutMs: 120_000, intervalMs: 10,
      onWaiting: (why) => told.push(why),
      // The migration Job lands while the pod waits.
      sleep: async () => { if (!applied) { applied = true; await applyNext() } },
    })
    assert.deepEqual(told, ['1 migration pending (9999_proxima_versao)'])
    assert.equal(applied, true)
  })

  it('fails, naming what is pending, when the time is up (0: looks once)', async () => {
    await assert.rejects(waitForSchema(async () => tdb.db, { ...lent, migrations: nextRelease, timeoutMs: 0, intervalMs: 10, sleep: noSleep }),
      (err) => err instanceof SchemaWaitTimeout && /not current after 0 s: 1 migration pending \(9999_proxima_versao\)/.test(err.message))
    assert.deepEqual(await pendingMigrations(tdb.db, nextRelease).then((p) => p.length), 1, 'nothing was applied')
  })

  it('waits for a database that cannot be opened yet, and opens it again', async () => {
    const told: string[] = []
    let attempts = 0
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:5432 (password in a message is never shown)'), { code: 'ECONNREFUSED' })
    await waitForSchema(async () => { if (++attempts < 3) throw refused; return tdb.db }, {
      ...lent, timeoutMs: 120_000, intervalMs: 10, sleep: noSleep, onWaiting: (why) => told.push(why),
    })
    assert.equal(attempts, 3)
    assert.deepEqual(told, ['database unreachable: ECONNREFUSED'])
  })
})

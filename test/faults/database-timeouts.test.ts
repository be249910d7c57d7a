// A database that answers too late is unavailable, not our fault (issue 31 item 10): a statement the server cancels
// at its statement_timeout, or a pooled connection not lent in time, is a 503 banco_indisponivel with Retry-After
// that the client may retry; it was a 500 erro_interno.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import pg from 'pg'
import { openDatabase } from '../../src/platform/db/database.ts'
import { databaseUnavailable } from '../../src/platform/db/unavailable.ts'
import { adminQuery, holdInAnotherSession, onPostgresOnly } from '../helpers/database.ts'
import { defer, testApp, useTestDatabase } from '../helpers/fixture.ts'
import { backOffice, settableClock } from '../modules/operations/helpers.ts'

const skip = onPostgresOnly('the embedded database has no pool and no statement_timeout of its own: needs PostgreSQL (DATABASE_URL)')

describe('a database that answers too late', { skip }, () => {
  const tdb = useTestDatabase({ skip })

  it('a statement cancelled at the server\'s statement_timeout: 503 banco_indisponivel with Retry-After, and the next request is served', async (t) => {
    const name = new URL(tdb.url!).pathname.slice(1)
    await adminQuery(tdb.url!, `ALTER DATABASE ${pg.escapeIdentifier(name)} SET statement_timeout = '300ms'`)
    // Opened after the setting: every connection of its pool starts with it.
    const db = await openDatabase({ databaseUrl: tdb.url! })
    defer(t, () => db.close())
    const clock = settableClock('2026-10-05T15:00:00Z')
    const app = await testApp(t, { db, env: { MAIL_WORKER: 'off' }, deps: { clock } })
    const { operador } = await backOffice(db, app, clock)

    const held = await holdInAnotherSession(t, tdb.url, ['LOCK TABLE cedentes IN ACCESS EXCLUSIVE MODE'])
    const res = await operador.call('GET', '/api/cedentes')
    assert.equal(res.statusCode, 503, res.body)
    assert.equal(res.json().detail, 'banco_indisponivel')
    assert.equal(res.headers['retry-after'], '5')
    assert.doesNotMatch(res.body, /statement|timeout|cancel/i, 'nothing of the database\'s message')

    await held.release()
    assert.equal((await operador.call('GET', '/api/cedentes')).statusCode, 200)
  })

  it('a pooled connection not lent within the connect timeout is unavailable (pg-pool\'s own error)', async (t) => {
    const db = await openDatabase({ databaseUrl: tdb.url!, poolMax: 1, connectTimeoutMs: 200 })
    defer(t, () => db.close())
    let letGo!: () => void
    const holding = db.rawTransaction(() => new Promise<void>((resolve) => { letGo = resolve }))
    // The one connection is given back however the assertion ends (the pool would not close while lent).
    defer(t, () => holding)
    defer(t, () => letGo())
    await assert.rejects(db.rawTransaction((tx) => tx.query('SELECT 1')), (err) => {
      assert.match((err as Error).message, /timeout/)
      return databaseUnavailable(err)
    })
  })
})

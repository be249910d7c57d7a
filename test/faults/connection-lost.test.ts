// A pooled connection lost while a transaction holds it (the server ends the backend, as a failover does): the
// transaction fails with an error the routes answer as 503, nothing reaches the process as an uncaught 'error'
// event (node:test fails a test on one), and the pool does not lend the dead connection again: with a pool of one
// connection, the next transaction runs on a new backend.
import assert from 'node:assert/strict'
import { describe, it, type TestContext } from 'node:test'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { openDatabase, queryRows, type Database } from '../../src/platform/db/database.ts'
import { databaseUnavailable } from '../../src/platform/db/unavailable.ts'
import { onPostgresOnly } from '../helpers/database.ts'
import { defer, useTestDatabase } from '../helpers/fixture.ts'
import { until } from '../helpers/wait.ts'

const skip = onPostgresOnly('the embedded database has no connection to lose: needs PostgreSQL (DATABASE_URL)')

/** Ends backend `pid` from another session, as the server does when it stops, and waits until it is gone. */
async function terminate(url: string, pid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query('SELECT pg_terminate_backend($1, 5000)', [pid])
  } finally {
    await admin.end()
  }
}

describe('a connection lost in the middle of a transaction', { skip }, () => {
  const tdb = useTestDatabase({ skip })

  async function poolOfOne(t: TestContext): Promise<Database> {
    const db = await openDatabase({ databaseUrl: tdb.url!, poolMax: 1 })
    defer(t, () => db.close())
    return db
  }

  const backend = async (db: Database) => (await queryRows<{ pid: number }>(db.orm, sql`SELECT pg_backend_pid() AS pid`))[0]!.pid

  it('through the ORM: the transaction fails as unavailable, and the next runs on a new connection', async (t) => {
    const db = await poolOfOne(t)
    let lost = 0
    await assert.rejects(db.orm.transaction(async (tx) => {
      lost = (await queryRows<{ pid: number }>(tx, sql`SELECT pg_backend_pid() AS pid`))[0]!.pid
      await terminate(tdb.url!, lost)
      await tx.execute(sql`SELECT 1`)
    }), (err) => databaseUnavailable(err))
    const next = await backend(db)
    assert.notEqual(next, lost, 'the lost connection was not lent again')
  })

  it('through rawTransaction: the same', async (t) => {
    const db = await poolOfOne(t)
    let lost = 0
    await assert.rejects(db.rawTransaction(async (tx) => {
      lost = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]!.pid
      await terminate(tdb.url!, lost)
      await tx.query('SELECT 1')
    }), (err) => databaseUnavailable(err))
    const next = await db.rawTransaction(async (tx) => (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]!.pid)
    assert.notEqual(next, lost, 'the lost connection was not lent again')
  })

  it('the schema owner\'s connection: the transaction fails, nothing else', async () => {
    await assert.rejects(tdb.db.ownerTransaction(async (tx) => {
      const [{ pid }] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid') as [{ pid: number }]
      await terminate(tdb.url!, pid)
      await tx.query('SELECT 1')
    }), (err) => databaseUnavailable(err))
  })

  it('the LISTEN connection: its loss is reported, not thrown, and the session is opened again', async (t) => {
    const lost: Error[] = []
    let notified = 0
    const db = await openDatabase({ databaseUrl: tdb.url!, onPoolError: (err) => lost.push(err) })
    defer(t, () => db.close())
    const stop = await db.listen('outbox', () => { notified++ })
    defer(t, () => stop())
    const admin = new pg.Client({ connectionString: tdb.url! })
    await admin.connect()
    defer(t, () => admin.end())
    const listening = async () => (await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE query = 'LISTEN \"outbox\"' AND datname = current_database()")).rows.map((r) => r.pid)
    const [first] = await listening()
    assert.ok(first, 'a LISTEN session')
    await admin.query('SELECT pg_terminate_backend($1, 5000)', [first])
    await until('the loss reported to onPoolError', () => lost.length > 0)

    await until('a new LISTEN session', async () => (await listening()).some((pid) => pid !== first))
    // Once back, the listener wakes its user once (what was notified meanwhile is lost); then NOTIFY arrives again.
    await until('the wake-up after the session is back', () => notified === 1)
    const before = notified
    await admin.query('NOTIFY outbox')
    await until('a notification through the new session', () => notified > before)
  })
})

// One-trip transactions asked for in the same turn of the event loop share one write to PostgreSQL (trip-batch.ts).
// What must hold, each observed from the server's side: they do share a connection; each trip is still its own
// transaction (its local settings and its failure its own); each answers its own rows, hundreds at once; a lost
// connection fails the trips it carried, not later ones; a statement the connection lost is retried alone.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { openDatabase, type Database } from '../../../src/platform/db/database.ts'
import { boundStatement, fixedStatement, ORM_TYPE_PARSERS } from '../../../src/platform/db/one-trip.ts'
import { tripBatcher } from '../../../src/platform/db/trip-batch.ts'
import { databaseUnavailable } from '../../../src/platform/db/unavailable.ts'
import { onPostgresOnly } from '../../helpers/database.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'

const skip = onPostgresOnly('batches of trips on a pooled PostgreSQL connection: PostgreSQL only')
const ECHO = fixedStatement<'n'>(sql`SELECT ${sql.placeholder('n')}::int AS n, pg_backend_pid() AS pid`)

const codeOf = (err: unknown) => {
  const e = err as { code?: string, cause?: { code?: string } }
  return e.code ?? e.cause?.code
}

describe('trips of one turn in one write', { skip }, () => {
  const tdb = useTestDatabase({ skip })

  /** A database of its own on the suite's: `poolMax` connections, closed when `work` ends however it ends. */
  const withPool = async <T>(poolMax: number, work: (db: Database) => Promise<T>): Promise<T> => {
    const db = await openDatabase({ databaseUrl: tdb.url, poolMax })
    try {
      return await work(db)
    } finally {
      await db.close()
    }
  }

  it('go to one connection, where the pool would have lent one each', async () => {
    await withPool(10, async (db) => {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => db.oneTrip([ECHO({ n })])))
      assert.deepEqual(answers.map(([rows]) => rows![0]!.n), Array.from({ length: 20 }, (_, n) => n))
      assert.equal(new Set(answers.map(([rows]) => rows![0]!.pid)).size, 1)
      // Trips of another turn go out on their own.
      const first = await db.oneTrip([ECHO({ n: 1 })])
      const second = await db.oneTrip([ECHO({ n: 2 })])
      assert.deepEqual([first[0]![0]!.n, second[0]![0]!.n], [1, 2])
    })
  })

  it('each answers its own rows: a thousand at once, named and unnamed, some failing, on a pool of three', async () => {
    await withPool(3, async (db) => {
      const asked = Array.from({ length: 1000 }, (_, n) => n)
      const results = await Promise.allSettled(asked.map((n) => {
        if (n % 7 === 3) return db.oneTrip([sql`SELECT ${n}::int / 0 AS n`])
        if (n % 2) return db.oneTrip([ECHO({ n })])
        return db.oneTrip([sql`SELECT set_config('app.prova', ${String(n)}, true)`, sql`SELECT ${n}::int AS n, current_setting('app.prova') AS v`])
      }))
      results.forEach((r, n) => {
        if (n % 7 === 3) {
          assert.equal(r.status, 'rejected', `trip ${n}`)
          assert.equal(codeOf((r as PromiseRejectedResult).reason), '22012', `trip ${n}`)
          return
        }
        assert.equal(r.status, 'fulfilled', `trip ${n}: ${(r as PromiseRejectedResult).reason}`)
        const rows = (r as PromiseFulfilledResult<Record<string, unknown>[][]>).value
        const last = rows[rows.length - 1]![0]!
        assert.equal(last.n, n, `trip ${n}`)
        if (n % 2 === 0) assert.equal(last.v, String(n), `trip ${n}`)
      })
    })
  })

  it('each is its own transaction: a local setting ends with its trip, a failure undoes its trip alone', async () => {
    await withPool(1, async (db) => {
      await db.oneTrip([sql`CREATE TEMPORARY TABLE marcas (t text)`])
      const [set, seen, failed, kept] = await Promise.allSettled([
        db.oneTrip([sql`SELECT set_config('app.prova', 'sim', true)`]),
        db.oneTrip([sql`SELECT coalesce(current_setting('app.prova', true), '') AS v, pg_backend_pid() AS pid`]),
        db.oneTrip([sql`INSERT INTO marcas VALUES ('desfeita')`, sql`SELECT 1 / 0`]),
        db.oneTrip([sql`INSERT INTO marcas VALUES ('mantida')`, sql`SELECT pg_backend_pid() AS pid`]),
      ])
      assert.equal(set.status, 'fulfilled')
      assert.equal(failed.status, 'rejected')
      assert.equal(codeOf((failed as PromiseRejectedResult).reason), '22012')
      const seenRow = (seen as PromiseFulfilledResult<Record<string, unknown>[][]>).value[0]![0]!
      assert.equal(seenRow.v, '')
      const keptRows = (kept as PromiseFulfilledResult<Record<string, unknown>[][]>).value
      assert.equal(keptRows[1]![0]!.pid, seenRow.pid, 'one connection carried them all')
      const [marks] = await db.oneTrip([sql`SELECT t FROM marcas ORDER BY t`])
      assert.deepEqual(marks, [{ t: 'mantida' }])
    })
  })

  it('a value that cannot be sent fails its own trip, and the others of the write answer', async () => {
    await withPool(1, async (db) => {
      const circular: Record<string, unknown> = {}
      circular.self = circular
      const [before, refused, after] = await Promise.allSettled([
        db.oneTrip([ECHO({ n: 1 })]),
        db.oneTrip([sql`SELECT ${sql.param(circular)}::jsonb`]),
        db.oneTrip([ECHO({ n: 3 })]),
      ])
      assert.equal(refused.status, 'rejected')
      assert.deepEqual([before, after].map((r) => (r as PromiseFulfilledResult<Record<string, unknown>[][]>).value[0]![0]!.n), [1, 3])
      // And a write whose every trip is refused frees its connection: the pool of one still answers.
      const [alone] = await Promise.allSettled([db.oneTrip([sql`SELECT ${sql.param(circular)}::jsonb`])])
      assert.equal(alone.status, 'rejected')
      assert.equal((await db.oneTrip([ECHO({ n: 4 })]))[0]![0]!.n, 4)
    })
  })

  it('a statement the connection lost in the middle of a write is sent again alone, and answers', async () => {
    await withPool(1, async (db) => {
      await db.oneTrip([ECHO({ n: 0 })])
      const [dropped, stale, fresh] = await Promise.all([
        db.oneTrip([sql`DEALLOCATE ALL`]),
        db.oneTrip([ECHO({ n: 1 })]),
        db.oneTrip([ECHO({ n: 2 })]),
      ])
      assert.deepEqual(dropped, [[]])
      assert.deepEqual([stale[0]![0]!.n, fresh[0]![0]!.n], [1, 2])
    })
  })

  it('a connection lost under a write fails the trips it carried as unavailable, and the next turn gets a new one', async () => {
    await withPool(1, async (db) => {
      const admin = new pg.Client({ connectionString: tdb.url })
      await admin.connect()
      try {
        const carried = Promise.allSettled([
          db.oneTrip([sql`SELECT pg_sleep(0.3) AS marca_de_teste_lote`]),
          db.oneTrip([ECHO({ n: 1 })]),
          db.oneTrip([ECHO({ n: 2 })]),
        ])
        let killed = false
        for (let i = 0; i < 100 && !killed; i++) {
          const { rows } = await admin.query(`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
            WHERE query LIKE '%marca_de_teste_lote%' AND pid <> pg_backend_pid()`)
          killed = rows.some((r) => r.ok)
          if (!killed) await new Promise((r) => setTimeout(r, 10))
        }
        assert.ok(killed, 'the write was seen in flight')
        for (const r of await carried) {
          assert.equal(r.status, 'rejected')
          assert.equal(databaseUnavailable((r as PromiseRejectedResult).reason), true, `${(r as PromiseRejectedResult).reason}`)
        }
        assert.equal((await db.oneTrip([ECHO({ n: 3 })]))[0]![0]!.n, 3)
      } finally {
        await admin.end()
      }
    })
  })

  it('each trip has its own time: slow trips behind each other all answer, and one past its time fails with those behind it', async () => {
    const pool = new pg.Pool({ connectionString: tdb.url, max: 10 })
    try {
      const lend = async () => {
        const client = await pool.connect()
        return { client, release: (err?: Error) => client.release(err) }
      }
      const trips = tripBatcher(lend, ORM_TYPE_PARSERS, databaseUnavailable, { maxTrips: 32, tripTimeoutMs: 1000 })
      const slow = (s: number) => trips([boundStatement(sql`SELECT pg_sleep(${s}) AS dormiu, pg_backend_pid() AS pid`)])
      // 1.2 s in all on one connection, each trip well within its second.
      const three = await Promise.all([slow(0.4), slow(0.4), slow(0.4)])
      assert.equal(new Set(three.map(([rows]) => rows![0]!.pid)).size, 1)
      const [late, behind] = await Promise.allSettled([slow(1.5), slow(0)])
      for (const r of [late, behind]) {
        assert.equal(r.status, 'rejected')
        assert.match(String((r as PromiseRejectedResult).reason), /Query read timeout/)
        assert.equal(databaseUnavailable((r as PromiseRejectedResult).reason), true)
      }
      assert.equal((await slow(0))[0]![0]!.dormiu, '')
    } finally {
      await pool.end()
    }
  })

  it("the database's query timeout bounds each trip and each of the ORM's queries", async () => {
    const db = await openDatabase({ databaseUrl: tdb.url, queryTimeoutMs: 500 })
    try {
      const sleep = (s: number) => sql`SELECT pg_sleep(${s}) AS dormiu`
      const [quick, late] = await Promise.allSettled([db.oneTrip([sleep(0.3)]), db.oneTrip([sleep(1)])])
      assert.equal(quick.status, 'fulfilled')
      assert.equal(late.status, 'rejected')
      assert.match(String((late as PromiseRejectedResult).reason), /Query read timeout/)
      assert.equal(databaseUnavailable((late as PromiseRejectedResult).reason), true)
      // The ORM wraps the driver's error: its cause is the timeout, and it is answered as unavailable.
      await assert.rejects(db.orm.execute(sleep(1)), (err: Error) => {
        assert.match(String(err.cause), /Query read timeout/)
        assert.equal(databaseUnavailable(err), true)
        return true
      })
      assert.equal((await db.oneTrip([sleep(0)]))[0]![0]!.dormiu, '')
    } finally {
      await db.close()
    }
  })

  it('a trip that leaves a transaction open is refused, and its connection closed before another trip can run in it', async () => {
    await withPool(1, async (db) => {
      const [opened, next] = await Promise.allSettled([
        db.oneTrip([sql`BEGIN`, sql`SELECT set_config('app.prova', 'vazou', false)`]),
        db.oneTrip([sql`SELECT coalesce(current_setting('app.prova', true), '') AS v`]),
      ])
      assert.equal(opened.status, 'rejected')
      assert.match(String((opened as PromiseRejectedResult).reason), /transaction open/)
      assert.equal(next.status, 'rejected', 'the trip behind it never ran inside that transaction')
      assert.equal(databaseUnavailable((next as PromiseRejectedResult).reason), true)
      const [after] = await db.oneTrip([sql`SELECT coalesce(current_setting('app.prova', true), '') AS v`])
      assert.deepEqual(after, [{ v: '' }])
    })
  })

  it('a COPY in the middle of a write fails it and closes the connection; the trips behind it fail as unavailable', async () => {
    await withPool(1, async (db) => {
      await db.oneTrip([sql`CREATE TEMPORARY TABLE marcas (t text)`])
      const [copy, behind] = await Promise.allSettled([db.oneTrip([sql`COPY marcas FROM STDIN`]), db.oneTrip([ECHO({ n: 1 })])])
      assert.equal(copy.status, 'rejected')
      assert.match(String((copy as PromiseRejectedResult).reason), /COPY/)
      assert.equal(behind.status, 'rejected')
      assert.equal(databaseUnavailable((behind as PromiseRejectedResult).reason), true)
      assert.equal((await db.oneTrip([ECHO({ n: 2 })]))[0]![0]!.n, 2)
      // Alone (or last), a COPY fails by itself and the connection goes on.
      const before = await db.oneTrip([sql`CREATE TEMPORARY TABLE marcas (t text)`, sql`SELECT pg_backend_pid() AS pid`])
      await assert.rejects(db.oneTrip([sql`COPY marcas FROM STDIN`]), /COPY/)
      const [again] = await db.oneTrip([sql`SELECT pg_backend_pid() AS pid`])
      assert.equal(again![0]!.pid, before[1]![0]!.pid)
    })
  })
})

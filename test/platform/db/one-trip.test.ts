// Several statements in one round trip (Database.oneTrip): one transaction, each statement's values bound as its
// parameters by the trip's own messages (pipeline.ts). The same query run through the ORM, node-postgres's own
// Query (or PGlite's), is the independent check of every value and every row.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../../src/platform/db/database.ts'
import { openDatabase } from '../../../src/platform/db/database.ts'
import { boundStatement, fixedStatement } from '../../../src/platform/db/one-trip.ts'
import { runPipeline } from '../../../src/platform/db/pipeline.ts'
import pg from 'pg'
import { readAsTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { customer } from '../../helpers/credentials.ts'
import { onPostgresOnly } from '../../helpers/database.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'

const HOSTILE = [
  'plain', "it's", "''", '\\', "\\'", "a\\'; DROP TABLE clientes; --", '$1', '$$', '$q$x$q$', 'E\'\\x41\'', 'linha\nnova\r\t',
  'ç ã é ü 日本 🙂', ' ', '', '\u2028', 'null', 'NULL', '--', '/*', '*/',
]

describe('one round trip of statements', () => {
  const tdb = useTestDatabase()

  it('runs as one transaction: a local setting of the first statement is seen by the second, and is gone after', async () => {
    const [, seen] = await tdb.db.oneTrip([sql`SELECT set_config('app.prova', 'sim', true)`, sql`SELECT current_setting('app.prova', true) AS v`])
    assert.deepEqual(seen, [{ v: 'sim' }])
    const [after] = (await tdb.db.oneTrip([sql`SELECT coalesce(current_setting('app.prova', true), '') AS v`]))[0]!
    assert.equal(after!.v, '')
  })

  it('a failing statement undoes the ones before it', async () => {
    const c = await customer(tdb.db)
    const tenant = sql`SELECT set_config('app.cliente_id', ${c.id}, true)`
    await assert.rejects(tdb.db.oneTrip([tenant, sql`UPDATE clientes SET estado = 'suspenso' WHERE id = ${c.id}`, sql`SELECT 1 / 0`]),
      (err: { code?: string, cause?: { code?: string } }) => (err.code ?? err.cause?.code) === '22012', 'the division fails, after the update went through')
    const [row] = await readAsTenant<{ estado: string }>(tdb.db, c.id, sql`SELECT estado FROM clientes WHERE id = ${c.id}`)
    assert.equal(row!.estado, 'ativo')
  })

  it('a statement holding two is refused rather than shifting the answers', async () => {
    await assert.rejects(tdb.db.oneTrip([sql`SELECT 1 AS a; SELECT 2 AS b`, sql`SELECT 3 AS c`]))
  })

  it('a value that cannot be sent fails the whole trip before anything runs', async () => {
    const c = await customer(tdb.db)
    const circular: Record<string, unknown> = {}
    circular.self = circular
    await assert.rejects(tdb.db.oneTrip([
      sql`SELECT set_config('app.cliente_id', ${c.id}, true)`,
      sql`UPDATE clientes SET estado = 'suspenso' WHERE id = ${c.id}`,
      sql`SELECT ${sql.param(circular)}::jsonb`,
    ]))
    const [row] = await readAsTenant<{ estado: string }>(tdb.db, c.id, sql`SELECT estado FROM clientes WHERE id = ${c.id}`)
    assert.equal(row!.estado, 'ativo')
  })

  it('every value reads back as the bound parameter reads it: hostile text, numbers, dates, booleans, null, arrays', async () => {
    const values: unknown[] = [...HOSTILE, 0, -1, 2 ** 53 - 1, 1.5, 10n ** 30n, true, false, null,
      new Date('2026-11-27T12:34:56.789Z'), ['a', "b'c", 'd\\e', 'f"g', '{h}'], [1, 2, 3]]
    for (const value of values) {
      // sql.param: an array is one parameter (a bare array in the template is a list of them).
      // A date as an instant (the two drivers write its offset differently, +00:00 and Z), an array as an array
      // (the embedded driver writes one of unknown type as its JavaScript text): the same values either way.
      const type = value instanceof Date ? sql`timestamptz` : Array.isArray(value) ? sql`text[]` : sql`text`
      const query = sql`SELECT ${sql.param(value)}::${type} AS v`
      const [bound] = await queryRows(tdb.db.orm, query)
      assert.deepEqual((await tdb.db.oneTrip([query]))[0], [bound], `value ${JSON.stringify(String(value))}`)
    }
  })

  it('a value is never read as SQL: each hostile value matches itself alone among all of them', async () => {
    const c = await customer(tdb.db)
    for (const text of HOSTILE) {
      const rows = await readAsTenant<{ x: string }>(tdb.db, c.id, sql`SELECT x FROM unnest(${sql.param(HOSTILE)}::text[]) AS x WHERE x = ${text}`)
      assert.deepEqual(rows.map((r) => r.x), [text], JSON.stringify(text))
    }
  })

  it('a NUL is refused by the database, a placeholder before anything is sent', async () => {
    await assert.rejects(tdb.db.oneTrip([sql`SELECT ${'a\u0000b'}::text AS v`]))
    assert.throws(() => boundStatement(sql`SELECT ${sql.placeholder('x')}`), /fixed statement/)
  })
})

describe('a fixed statement', () => {
  const tdb = useTestDatabase()

  it('answers what the same query with its values bound answers', async () => {
    const fixed = fixedStatement<'a' | 'b'>(sql`SELECT ${sql.placeholder('a')}::text AS a, ${sql.placeholder('b')}::int + 1 AS b, '$1 stays' AS c`)
    for (const text of HOSTILE) {
      const [viaOrm] = await queryRows(tdb.db.orm, sql`SELECT ${text}::text AS a, ${41}::int + 1 AS b, '$1 stays' AS c`)
      assert.deepEqual((await tdb.db.oneTrip([fixed({ a: text, b: 41 })]))[0], [viaOrm])
    }
  })

  it('takes its values through placeholders alone, and every one of them', () => {
    assert.throws(() => fixedStatement(sql`SELECT ${'fixed value'}`), /sql\.placeholder/)
    const fixed = fixedStatement<'a' | 'b'>(sql`SELECT ${sql.placeholder('a')}, ${sql.placeholder('b')}`)
    assert.throws(() => fixed({ a: 1 } as never), /placeholder b/)
  })
})

const postgresOnly = { skip: onPostgresOnly('prepared statements of a pooled connection: PostgreSQL only') }
describe('a fixed statement on PostgreSQL: prepared once per connection', postgresOnly, () => {
  const tdb = useTestDatabase()
  const fixed = fixedStatement<'a'>(sql`SELECT ${sql.placeholder('a')}::int * 2 AS dobro`)

  /** A pool of one connection on the test database, so that every trip shares one session. */
  async function oneConnection(t: { after(fn: () => Promise<void>): void }) {
    const db = await openDatabase({ databaseUrl: tdb.url!, poolMax: 1 })
    t.after(() => db.close())
    return db
  }
  const preparedNames = sql`SELECT name FROM pg_prepared_statements ORDER BY name`

  it('is parsed on its first trip and only bound on the next ones', async (t) => {
    const db = await oneConnection(t)
    const { name } = fixed({ a: 1 })
    const [, before] = await db.oneTrip([fixed({ a: 1 }), preparedNames])
    assert.deepEqual(before!.map((r) => r.name), [name])
    // The server's own record of when it was prepared does not move: the second trip only bound it.
    const preparedAt = sql`SELECT prepare_time::text AS t FROM pg_prepared_statements WHERE name = ${name}`
    const [, first] = await db.oneTrip([fixed({ a: 2 }), preparedAt])
    await new Promise((resolve) => setTimeout(resolve, 5))
    const [, second] = await db.oneTrip([fixed({ a: 3 }), preparedAt])
    assert.deepEqual(second, first)
    // Dropped behind the trip's back: a trip that parsed again would not notice; one that only binds fails once and
    // is sent again, parsed afresh (the failed trip did nothing).
    await db.oneTrip([sql`DEALLOCATE ALL`])
    const [answer, after] = await db.oneTrip([fixed({ a: 21 }), preparedNames])
    assert.deepEqual(answer, [{ dobro: 42 }])
    assert.deepEqual(after!.map((r) => r.name), [name])
  })

  it('a statement whose result changed under it (a migration) is prepared again', async (t) => {
    const db = await oneConnection(t)
    await db.ownerTransaction((tx) => tx.exec('CREATE TABLE prova_fixa (a int); GRANT SELECT ON prova_fixa TO PUBLIC; INSERT INTO prova_fixa VALUES (1)'))
    const read = fixedStatement<'x'>(sql`SELECT * FROM prova_fixa WHERE ${sql.placeholder('x')}::int = 1`)
    assert.deepEqual((await db.oneTrip([read({ x: 1 })]))[0], [{ a: 1 }])
    await db.ownerTransaction((tx) => tx.exec("ALTER TABLE prova_fixa ADD COLUMN b text DEFAULT 'novo'"))
    assert.deepEqual((await db.oneTrip([read({ x: 1 })]))[0], [{ a: 1, b: 'novo' }])
  })

  it('a failed trip leaves the connection usable, its statements still answering', async (t) => {
    const db = await oneConnection(t)
    await assert.rejects(db.oneTrip([fixed({ a: 1 }), sql`SELECT 1 / 0`]), (err: { code?: string }) => err.code === '22012')
    await assert.rejects(db.oneTrip([fixed({ a: 'não é número' })]), (err: { code?: string }) => err.code === '22P02')
    assert.deepEqual(await db.oneTrip([fixed({ a: 2 }), fixed({ a: 3 })]), [[{ dobro: 4 }], [{ dobro: 6 }]])
  })

  it('a statement asking for COPY data fails the trip at once, and the connection goes on', async (t) => {
    const db = await oneConnection(t)
    await db.ownerTransaction((tx) => tx.exec('CREATE TABLE prova_copia (a int); GRANT INSERT ON prova_copia TO PUBLIC'))
    await assert.rejects(db.oneTrip([sql`COPY prova_copia FROM STDIN`]), /COPY/)
    assert.deepEqual(await db.oneTrip([fixed({ a: 4 })]), [[{ dobro: 8 }]])
  })

  it('a row its reader cannot read fails the trip, and the connection goes on', async (t) => {
    const client = new pg.Client({ connectionString: tdb.url! })
    await client.connect()
    t.after(() => client.end())
    const refusing = { getTypeParser: () => () => { throw new Error('unreadable value') } }
    await assert.rejects(runPipeline(client, [{ text: 'SELECT 1 AS um', values: [] }], refusing), /unreadable value/)
    assert.deepEqual((await client.query('SELECT 2 AS dois')).rows, [{ dois: 2 }])
  })
})

// Several statements in one round trip (Database.oneTrip): one transaction, values written in as literals that
// the database reads back exactly as its parameter binding reads them. The same query with its values bound
// (Parse/Bind, a parameter per value) is the independent check of every literal, on either database: the
// literal text is run as a statement of its own there, so the embedded lane checks the writing too.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../../src/platform/db/database.ts'
import { fixedStatement, inlineStatement } from '../../../src/platform/db/one-trip.ts'
import { readAsTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { customer } from '../../helpers/credentials.ts'
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

  it('every value reads back as the bound parameter reads it: hostile text, numbers, dates, booleans, null, arrays', async () => {
    const values: unknown[] = [...HOSTILE, 0, -1, 2 ** 53 - 1, 1.5, 10n ** 30n, true, false, null,
      new Date('2026-11-27T12:34:56.789Z'), ['a', "b'c", 'd\\e', 'f"g', '{h}'], [1, 2, 3]]
    for (const value of values) {
      // sql.param: an array is one parameter (a bare array in the template is a list of them).
      // A date as an instant (the two drivers write its offset differently, +00:00 and Z), an array as an array
      // (the embedded driver writes one of unknown type as its JavaScript text): the same values either way.
      const type = value instanceof Date ? sql`timestamptz` : Array.isArray(value) ? sql`text[]` : sql`text`
      const query = sql`SELECT ${sql.param(value)}::${type} AS v`
      const [inlined] = await queryRows(tdb.db.orm, sql.raw(inlineStatement(query)))
      const [bound] = await queryRows(tdb.db.orm, query)
      assert.deepEqual(inlined, bound, `value ${JSON.stringify(String(value))}`)
      assert.deepEqual((await tdb.db.oneTrip([query]))[0], [bound])
    }
  })

  it('a literal is never read as SQL: each hostile value matches itself alone among all of them', async () => {
    const c = await customer(tdb.db)
    for (const text of HOSTILE) {
      const rows = await readAsTenant<{ x: string }>(tdb.db, c.id, sql`SELECT x FROM unnest(${sql.param(HOSTILE)}::text[]) AS x WHERE x = ${text}`)
      assert.deepEqual(rows.map((r) => r.x), [text], JSON.stringify(text))
    }
  })

  it('bytes, a NUL and a placeholder are refused rather than written as text', () => {
    assert.throws(() => inlineStatement(sql`SELECT ${Buffer.from('x')}`), /bytes/)
    assert.throws(() => inlineStatement(sql`SELECT ${'a\u0000b'}`), /NUL/)
    assert.throws(() => inlineStatement(sql`SELECT ${sql.placeholder('x')}`), /fixed statement/)
  })
})

describe('a fixed statement', () => {
  const tdb = useTestDatabase()

  it('answers what the same query with its values bound answers', async () => {
    const fixed = fixedStatement<'a' | 'b'>(sql`SELECT ${sql.placeholder('a')}::text AS a, ${sql.placeholder('b')}::int + 1 AS b, '$1 stays' AS c`)
    for (const text of HOSTILE) {
      const [inlined] = await queryRows(tdb.db.orm, sql.raw(fixed({ a: text, b: 41 }).inlined))
      const [bound] = await queryRows(tdb.db.orm, sql`SELECT ${text}::text AS a, ${41}::int + 1 AS b, '$1 stays' AS c`)
      assert.deepEqual(inlined, bound)
    }
  })

  it('takes its values through placeholders alone, and every one of them', () => {
    assert.throws(() => fixedStatement(sql`SELECT ${'fixed value'}`), /sql\.placeholder/)
    const fixed = fixedStatement<'a' | 'b'>(sql`SELECT ${sql.placeholder('a')}, ${sql.placeholder('b')}`)
    assert.throws(() => fixed({ a: 1 } as never), /placeholder b/)
  })
})

// Fixed statements inside a transaction the ORM opened (in-transaction.ts), on both databases: they run in that
// transaction (its settings, its rows, its rollback), and their rows decode exactly as the ORM's own select
// decodes the same rows, which is the independent check of every column's value.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { eq, getTableColumns, sql } from 'drizzle-orm'
import { openDatabase } from '../../../src/platform/db/database.ts'
import { readInTransaction, sendInTransaction } from '../../../src/platform/db/in-transaction.ts'
import { fixedStatement } from '../../../src/platform/db/one-trip.ts'
import { auditoriaCliente, chavesIdempotencia } from '../../../src/platform/db/schema.ts'
import { columnsOf, rowDecoder } from '../../../src/platform/db/table-rows.ts'
import { databaseUnavailable, PreparedStatementLost } from '../../../src/platform/db/unavailable.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { customer } from '../../helpers/credentials.ts'
import { onPostgresOnly } from '../../helpers/database.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'

const KEYS = fixedStatement<'escopo'>(sql`SELECT ${columnsOf(chavesIdempotencia)} FROM ${chavesIdempotencia}
  WHERE ${chavesIdempotencia.escopo} = ${sql.placeholder('escopo')} ORDER BY ${chavesIdempotencia.chave}`)
const AUDIT = fixedStatement<'cliente'>(sql`SELECT ${columnsOf(auditoriaCliente, ['ipHash'])} FROM ${auditoriaCliente}
  WHERE ${auditoriaCliente.clienteId} = ${sql.placeholder('cliente')} ORDER BY ${auditoriaCliente.id}`)
const SETTING = fixedStatement<never>(sql`SELECT current_setting('app.cliente_id', true) AS v`)
const decodeKey = rowDecoder(chavesIdempotencia)
const decodeAudit = rowDecoder(auditoriaCliente)

describe('fixed statements in an ORM transaction', () => {
  const tdb = useTestDatabase()

  it('decode rows exactly as the ORM selects them: JSON, instants to the microsecond, small and big integers, nulls', async () => {
    const c = await customer(tdb.db)
    const escopo = `teste-${Math.random().toString(36).slice(2)}`
    await withTenant(tdb.db, c.id, async (tx) => {
      await tx.insert(chavesIdempotencia).values([
        { escopo, chave: 'a', clienteId: c.id, impressao: 'i', status: 201, cabecalhos: { 'content-type': 'application/json', 'x-ç': 'ã 🙂' }, corpo: '{}',
          criadaEm: new Date('2026-11-28T01:02:03.456Z'), expiraEm: new Date('2026-11-29T00:00:00Z') },
        { escopo, chave: 'b', clienteId: c.id, impressao: 'j', status: 204, cabecalhos: {}, corpo: '', criadaEm: new Date(0),
          expiraEm: new Date('9999-12-31T23:59:59.999Z') },
      ])
      await tx.execute(sql`UPDATE chaves_idempotencia SET criada_em = '2026-11-28 01:02:03.456789+00' WHERE escopo = ${escopo} AND chave = 'a'`)
      await tx.insert(auditoriaCliente).values({ clienteId: c.id, em: new Date(), atorTipo: 'operador', atorId: null, acao: 'cliente.criado' })
    })
    await withTenant(tdb.db, c.id, async (tx) => {
      const [keys, audit] = await readInTransaction(tx, [
        { statement: KEYS({ escopo }), answer: (rows) => rows.map(decodeKey) },
        { statement: AUDIT({ cliente: c.id }), answer: (rows) => rows.map(decodeAudit) },
      ] as const)
      assert.equal(keys.length, 2)
      assert.deepEqual(keys, await tx.select().from(chavesIdempotencia).where(eq(chavesIdempotencia.escopo, escopo)).orderBy(chavesIdempotencia.chave))
      const columns = Object.fromEntries(Object.entries(getTableColumns(auditoriaCliente)).filter(([key]) => key !== 'ipHash'))
      assert.ok(audit.length >= 1)
      assert.deepEqual(audit, await tx.select(columns).from(auditoriaCliente).where(eq(auditoriaCliente.clienteId, c.id)).orderBy(auditoriaCliente.id))
      assert.equal(Object.hasOwn(audit[0]!, 'ipHash'), false, 'a column left out is not answered as undefined')
    })
  })

  it('run in the transaction: its local setting, the rows it wrote, and its rollback of what they wrote', async () => {
    const c = await customer(tdb.db)
    const escopo = `teste-${Math.random().toString(36).slice(2)}`
    const insert = fixedStatement<'escopo' | 'cliente'>(sql`INSERT INTO chaves_idempotencia (escopo, chave, cliente_id, impressao, status, cabecalhos,
      corpo, criada_em, expira_em)
      VALUES (${sql.placeholder('escopo')}, 'k', ${sql.placeholder('cliente')}, 'i', 200, '{}', '', now(), now() + interval '1 day')`)
    await assert.rejects(withTenant(tdb.db, c.id, async (tx) => {
      const [settings, , keys] = await sendInTransaction(tx, [SETTING({}), insert({ escopo, cliente: c.id }), KEYS({ escopo })])
      assert.equal(settings![0]!.v, c.id.toLowerCase())
      assert.equal(keys![0]!.chave, 'k')
      throw new Error('undo')
    }), /undo/)
    const [left] = await withTenant(tdb.db, c.id, (tx) => sendInTransaction(tx, [KEYS({ escopo })]))
    assert.deepEqual(left, [])
  })

  it('a failing statement fails the transaction: nothing it or the others wrote is kept', async () => {
    const c = await customer(tdb.db)
    const escopo = `teste-${Math.random().toString(36).slice(2)}`
    await assert.rejects(withTenant(tdb.db, c.id, async (tx) => {
      await tx.insert(chavesIdempotencia).values({ escopo, chave: 'antes', clienteId: c.id, impressao: 'i', status: 200, cabecalhos: {}, corpo: '',
        criadaEm: new Date(), expiraEm: new Date(Date.now() + 86_400_000) })
      await sendInTransaction(tx, [KEYS({ escopo }), fixedStatement<never>(sql`SELECT 1 / 0 AS x`)({})])
    }), (err: { code?: string, cause?: { code?: string } }) => (err.code ?? err.cause?.code) === '22012')
    const [left] = await withTenant(tdb.db, c.id, (tx) => sendInTransaction(tx, [KEYS({ escopo })]))
    assert.deepEqual(left, [])
  })

  it('are refused outside a transaction (on the pool, a statement would run as no customer, and alone)', async () => {
    await assert.rejects(sendInTransaction(tdb.db.orm, [SETTING({})]), /in a transaction/)
  })

  it('a statement the connection no longer has fails its transaction as one to retry (503), and the retry works', {
    skip: onPostgresOnly('prepared statements of a pooled connection: PostgreSQL only'),
  }, async () => {
    // One connection, so the retry meets the connection whose statements were dropped.
    const db = await openDatabase({ databaseUrl: tdb.url, poolMax: 1 })
    try {
      const c = await customer(db)
      await withTenant(db, c.id, (tx) => sendInTransaction(tx, [SETTING({})]))
      const failed = await withTenant(db, c.id, async (tx) => {
        await tx.execute(sql`DEALLOCATE ALL`)
        return sendInTransaction(tx, [SETTING({})])
      }).then(() => undefined, (err: unknown) => err)
      assert.ok(failed instanceof PreparedStatementLost, `${failed}`)
      assert.equal(databaseUnavailable(failed), true)
      const [[again]] = (await withTenant(db, c.id, (tx) => sendInTransaction(tx, [SETTING({})]))) as [[{ v: string }]]
      assert.equal(again.v, c.id.toLowerCase())
    } finally {
      await db.close()
    }
  })
})

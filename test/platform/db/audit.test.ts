import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { migrate, readMigrations } from '../../../src/platform/db/migrate.ts'
import { auditoria } from '../../../src/platform/db/schema.ts'
import { asOwner } from '../../helpers/database.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'

// Drizzle wraps the driver's error; the database's own is the cause.
const denied = (err: Error & { cause?: Error & { code?: string } }) => err.cause?.code === '42501' && /permission denied/.test(err.cause.message)

describe('database', () => {
  const tdb = useTestDatabase()

  it('the audit trail is append-only: the service may not UPDATE, DELETE or TRUNCATE it, and the owner\'s triggers refuse them', async () => {
    await tdb.db.orm.insert(auditoria).values({ acao: 'teste', protocolo: 'CT-X', requestId: 'r1' })
    await assert.rejects(tdb.db.orm.execute(sql`UPDATE auditoria SET acao = 'alterado'`), denied)
    await assert.rejects(tdb.db.orm.execute(sql`DELETE FROM auditoria`), denied)
    await assert.rejects(tdb.db.orm.execute(sql`TRUNCATE auditoria`), denied)
    for (const statement of ["UPDATE auditoria SET acao = 'alterado'", 'DELETE FROM auditoria', 'TRUNCATE auditoria']) {
      await assert.rejects(asOwner(tdb.db, statement), (err: Error) => /somente insercao/.test(err.message), statement)
    }
    const rows = await tdb.db.orm.select().from(auditoria)
    assert.ok(rows.some((r) => r.acao === 'teste'))
    assert.ok(rows.every((r) => r.acao !== 'alterado'))
  })

  it('migrations are applied once: a second run applies nothing', async () => {
    assert.deepEqual(await migrate(tdb.db), [])
    const rows = await tdb.db.rawTransaction((tx) => tx.query<{ versao: number }>('SELECT versao FROM schema_migracoes ORDER BY versao'))
    assert.deepEqual(rows.map((r) => r.versao), readMigrations().map((m) => m.version))
  })

  it('a failing migration leaves nothing half-applied', async () => {
    const bad = [...readMigrations(), { version: 9999, name: 'quebrada', sql: 'CREATE TABLE meio_feito (id int); SELECT nao_existe();' }]
    await assert.rejects(migrate(tdb.db, bad))
    const rows = await tdb.db.ownerTransaction((tx) => tx.query<{ n: string }>(
      "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'meio_feito'",
    ))
    assert.equal(Number(rows[0]!.n), 0)
  })
})

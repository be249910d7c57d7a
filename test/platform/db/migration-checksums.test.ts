// Each applied migration's SHA-256 is recorded; a file changed after it was applied stops the start, naming it.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { migrate, MIGRATIONS_DIR, readMigrations } from '../../../src/platform/db/migrate.ts'
import { startupProblem } from '../../../src/platform/lib/startup.ts'
import { asOwner } from '../../helpers/database.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'

const sha256 = (file: string) => createHash('sha256').update(readFileSync(join(MIGRATIONS_DIR, file))).digest('hex')

describe('migration checksums', () => {
  const tdb = useTestDatabase()
  const recorded = () => tdb.db.rawTransaction((tx) =>
    tx.query<{ versao: number, nome: string, checksum: string | null }>('SELECT versao, nome, checksum FROM schema_migracoes ORDER BY versao'))

  it('records the SHA-256 of each applied file', async () => {
    const rows = await recorded()
    assert.deepEqual(rows.map((r) => r.versao), readMigrations().map((m) => m.version))
    for (const r of rows) assert.equal(r.checksum, sha256(`${String(r.versao).padStart(4, '0')}_${r.nome}.sql`), `checksum of ${r.nome}`)
  })

  it('a migration changed after it was applied stops the start with a problem naming it, and nothing else is applied', async () => {
    const changed = readMigrations().map((m) => m.version === 1 ? { ...m, sql: `${m.sql}\n-- editado depois de aplicado\n` } : m)
    const withNew = [...changed, { version: 9998, name: 'nova', sql: 'CREATE TABLE nao_deve_existir (id int)' }]
    const err = await migrate(tdb.db, withNew).then(() => assert.fail('migrated'), (e: unknown) => e)
    const problem = startupProblem(err)
    assert.ok(problem, `a start-up problem (exit 2, no stack), got ${String(err)}`)
    assert.match(problem, /^migration 0001_inicial changed after it was applied to this database/)
    assert.doesNotMatch(problem, /0002|0003/, 'only the changed file is named')
    const rows = await tdb.db.ownerTransaction((tx) => tx.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'nao_deve_existir'"))
    assert.deepEqual(rows, [])
    // Line endings alone are no change (a checkout with CRLF).
    const crlf = readMigrations().map((m) => m.version === 1 ? { ...m, sql: m.sql.replace(/\n/g, '\r\n') } : m)
    assert.deepEqual(await migrate(tdb.db, crlf), [])
  })

  it('a database migrated before checksums existed gets them from the current files, then catches a change', async () => {
    await asOwner(tdb.db, 'ALTER TABLE schema_migracoes DROP COLUMN checksum')
    assert.deepEqual(await migrate(tdb.db), [])
    const rows = await recorded()
    for (const r of rows) assert.equal(r.checksum, sha256(`${String(r.versao).padStart(4, '0')}_${r.nome}.sql`), `checksum of ${r.nome} filled`)
    const changed = readMigrations().map((m) => m.version === 2 ? { ...m, sql: m.sql.replace(/;/, '; ') } : m)
    await assert.rejects(migrate(tdb.db, changed), (err: unknown) => /^migration 0002_entrega changed/.test(startupProblem(err) ?? ''))
  })
})

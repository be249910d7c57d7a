// Migration 0029 numbers the rows an earlier release stored (issue 31 item 13): each customer's audit rows, ledger
// entries and operations get 1, 2, 3… in the order they were written, the next insert continues from there, and
// what the migration lifted for that (row security for the owner, the audit trail's refusal of any update) is back.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { migrate, readMigrations } from '../../../src/platform/db/migrate.ts'
import { createTestDatabase } from '../../helpers/database.ts'
import { customer, rowsAs } from '../../helpers/credentials.ts'
import { defer } from '../../helpers/fixture.ts'

describe('migration 0029: numbers within each customer', () => {
  it('numbers the rows there already in their order, per customer; the next continues; the guards it lifted are back', async (t) => {
    const tdb = await createTestDatabase(readMigrations().filter((m) => m.version < 29))
    defer(t, () => tdb.dispose())
    const a = await customer(tdb.db)
    const b = await customer(tdb.db)
    const audit = (c: { id: string }, acao: string) => rowsAs(tdb.db, c.id,
      `INSERT INTO auditoria_cliente (cliente_id, ator_tipo, acao) VALUES ('${c.id}', 'operador', '${acao}')`)
    for (const [c, acao] of [[a, 'teste.um'], [b, 'teste.um'], [a, 'teste.dois'], [b, 'teste.dois'], [a, 'teste.tres']] as const) await audit(c, acao)
    const numbered = (c: { id: string }) => rowsAs<{ acao: string, numero: string }>(tdb.db, c.id,
      'SELECT acao, numero::text AS numero FROM auditoria_cliente ORDER BY id')

    await migrate(tdb.db, readMigrations())
    const rowsA = await numbered(a)
    assert.deepEqual(rowsA.map((r) => Number(r.numero)), rowsA.map((_, i) => i + 1), 'A: 1… in the order written')
    assert.deepEqual(rowsA.slice(-3).map((r) => r.acao), ['teste.um', 'teste.dois', 'teste.tres'])
    const rowsB = await numbered(b)
    assert.deepEqual(rowsB.map((r) => Number(r.numero)), rowsB.map((_, i) => i + 1), 'B: its own 1…')

    await audit(a, 'teste.quatro')
    assert.equal(Number((await numbered(a)).at(-1)!.numero), rowsA.length + 1, 'the next row continues the customer\'s count')
    const forced = await tdb.db.ownerTransaction((tx) => tx.query<{ relname: string, relforcerowsecurity: boolean }>(
      `SELECT relname, relforcerowsecurity FROM pg_class WHERE relname IN ('operacoes', 'lancamentos', 'auditoria_cliente') ORDER BY relname`))
    assert.deepEqual(forced.map((r) => r.relforcerowsecurity), [true, true, true], 'row security holds the owner again')
    const triggers = await tdb.db.ownerTransaction((tx) => tx.query<{ tgname: string, tgenabled: string }>(
      `SELECT tgname, tgenabled FROM pg_trigger WHERE tgname IN ('lancamentos_imutaveis', 'auditoria_cliente_sem_update_delete') ORDER BY tgname`))
    assert.deepEqual(triggers.map((r) => r.tgenabled), ['O', 'O'], 'the refusals of any change are enabled again')
  })
})

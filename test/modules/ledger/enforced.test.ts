// The database itself keeps the ledger's rules (migration 0020), whatever the code does: as the service's runtime
// role, an entry that does not balance is refused at commit, a line with both sides or neither is refused, and
// no entry or line can be updated, deleted or truncated (nor by the schema's owner).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { postEntry } from '../../../src/modules/ledger/index.ts'
import { createParty } from '../../../src/modules/origination/registers/store.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { customer, dbError } from '../../helpers/credentials.ts'
import { asOwner } from '../../helpers/database.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'

const NOW = new Date('2026-10-05T15:00:00Z')

describe('the ledger, as the database enforces it', () => {
  const tdb = useTestDatabase()
  const setup = async () => {
    const c = await customer(tdb.db)
    const cedente = await withTenant(tdb.db, c.id, (tx) => createParty(tx, 'cedente', {
      clienteId: c.id, idExterno: null, documento: '11222333000181', tipoPessoa: 'pj', razaoSocial: 'Cedente', nomeFantasia: null, email: null,
      telefone: null, municipioIbge: null, uf: null, limiteCentavos: null, perfilIof: 'pj', motivoIsencao: null, contas: [],
    }, NOW))
    /** Runs raw statements as the runtime role in the customer's transaction: an entry with `lines` (each `conta, debit, credit`). */
    const entry = (lines: [string, number, number][]) => withTenant(tdb.db, c.id, async (tx) => {
      const [{ id }] = ((await tx.execute(sql`INSERT INTO lancamentos (cliente_id, data, historico, origem_tipo, origem_id)
        VALUES (${c.id}, '2026-10-05', 'teste', 'operacao', gen_random_uuid()) RETURNING id`)) as unknown as { rows: [{ id: string }] }).rows
      for (const [conta, debito, credito] of lines) {
        await tx.execute(sql`INSERT INTO lancamento_linhas (cliente_id, lancamento_id, data, lancamento_seq, conta, cedente_id,
          debito_centavos, credito_centavos)
          VALUES (${c.id}, ${id}, '2026-10-05', 1, ${conta}, ${conta === 'conta_grafica_cedentes' ? cedente.id : null}, ${debito}, ${credito})`)
      }
      return id
    })
    return { c, cedente, entry }
  }

  it('takes a balanced entry, written line by line', async () => {
    const { entry } = await setup()
    assert.ok(await entry([['direitos_creditorios', 1000, 0], ['conta_grafica_cedentes', 0, 990], ['receita_tarifas', 0, 10]]))
  })

  it('refuses at commit an entry whose debits and credits differ, and one with a single line or none', async () => {
    const { entry } = await setup()
    await assert.rejects(entry([['direitos_creditorios', 1000, 0], ['conta_grafica_cedentes', 0, 999]]), dbError('23514', /does not balance/))
    await assert.rejects(entry([['banco', 5, 0]]), dbError('23514', /does not balance/))
    await assert.rejects(entry([]), dbError('23514', /does not balance/))
  })

  it('refuses a line with both a debit and a credit, or neither, or a negative amount', async () => {
    const { entry } = await setup()
    await assert.rejects(entry([['banco', 10, 10], ['receita_tarifas', 0, 0]]), dbError('23514', /lancamento_linhas_um_lado/))
    await assert.rejects(entry([['banco', 0, 0], ['receita_tarifas', 0, 0]]), dbError('23514', /lancamento_linhas_um_lado/))
    await assert.rejects(entry([['banco', -10, 0], ['receita_tarifas', 0, -10]]), dbError('23514', /debito_centavos|credito_centavos|um_lado/))
  })

  it('refuses a line of another entry added later that unbalances it', async () => {
    const { c, entry } = await setup()
    const id = await entry([['banco', 100, 0], ['receita_tarifas', 0, 100]])
    await assert.rejects(withTenant(tdb.db, c.id, (tx) => tx.execute(sql`INSERT INTO lancamento_linhas
      (cliente_id, lancamento_id, data, lancamento_seq, conta, debito_centavos, credito_centavos) VALUES (${c.id}, ${id}, '2026-10-05', 1, 'banco', 1, 0)`)),
    dbError('23514', /does not balance/))
  })

  it('refuses UPDATE, DELETE and TRUNCATE of entries and lines: the runtime role has no grant, the owner meets a trigger', async () => {
    const { c } = await setup()
    await withTenant(tdb.db, c.id, (tx) => postEntry(tx, {
      clienteId: c.id, data: '2026-10-05', historico: 'teste', origem: { tipo: 'operacao', id: c.id }, requestId: null,
      linhas: [{ conta: 'banco', debito: 100n }, { conta: 'receita_tarifas', credito: 100n }],
    }, NOW))
    for (const table of ['lancamentos', 'lancamento_linhas']) {
      const column = table === 'lancamentos' ? 'historico = \'outro\'' : 'debito_centavos = 1'
      for (const statement of [`UPDATE ${table} SET ${column}`, `DELETE FROM ${table}`, `TRUNCATE ${table} CASCADE`]) {
        await assert.rejects(withTenant(tdb.db, c.id, (tx) => tx.execute(sql.raw(statement))), dbError('42501', /permission denied/), statement)
        await assert.rejects(asOwner(tdb.db, statement), /never changed or removed/, statement)
      }
    }
  })
})

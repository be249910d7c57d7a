// Migration 0028 on the cedentes an earlier release stored (issue 31 item 4): rows whose IOF profile does not fit
// their party, a pj_simples with no declaration, an exemption's free-text reason stop it, with a message saying how
// many rows break which rule and how to fix them, and nothing changed; once fixed, or on a clean database, it applies.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { migrate, readMigrations } from '../../../src/platform/db/migrate.ts'
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts'
import { customer, rowsAs } from '../../helpers/credentials.ts'
import { defer } from '../../helpers/fixture.ts'

const UP_TO_0027 = readMigrations().filter((m) => m.version < 28)
const UP_TO_0028 = readMigrations().filter((m) => m.version <= 28)

/** A cedente as the release before stored it (straight into the table, as its service did, in the customer's context). */
async function legacyCedente(tdb: TestDatabase, clienteId: string, documento: string, perfil: string, motivo: string | null = null) {
  const tipo = documento.length === 11 ? 'pf' : 'pj'
  const [row] = await rowsAs<{ id: string }>(tdb.db, clienteId, `INSERT INTO cedentes (cliente_id, documento, tipo_pessoa, razao_social, perfil_iof,
    motivo_isencao) VALUES ('${clienteId}', '${documento}', '${tipo}', 'Cedente ${documento}', '${perfil}', ${motivo === null ? 'NULL' : `'${motivo}'`})
    RETURNING id`)
  return row!.id
}

const version = async (tdb: TestDatabase) => Number((await tdb.db.ownerTransaction((tx) => tx.query<{ v: number }>(
  'SELECT max(versao) AS v FROM schema_migracoes')))[0]!.v)

const profiles = (tdb: TestDatabase, clienteId: string) =>
  rowsAs<{ documento: string, perfil_iof: string, motivo_isencao: string | null }>(tdb.db, clienteId,
    'SELECT documento, perfil_iof, motivo_isencao FROM cedentes ORDER BY documento')

describe('migration 0028: the IOF profile fits the party', () => {
  it('stops on rows that break the rules, saying how many, which and how to fix them; nothing changed; applies once they are fixed', async (t) => {
    const tdb = await createTestDatabase(UP_TO_0027)
    defer(t, () => tdb.dispose())
    const c = await customer(tdb.db)
    const cpfAsPj = await legacyCedente(tdb, c.id, '11144477735', 'pj')
    const cnpjAsPf = await legacyCedente(tdb, c.id, '11222333000181', 'pf')
    const simples = await legacyCedente(tdb, c.id, '12ABC34501DE35', 'pj_simples')
    const cpfAsSimples = await legacyCedente(tdb, c.id, '39053344705', 'pj_simples')
    const freeText = await legacyCedente(tdb, c.id, '52998224725', 'isento', 'FIDC: art. 8º do Decreto 6.306')
    await legacyCedente(tdb, c.id, '12345678909', 'pf')
    const before = await profiles(tdb, c.id)

    await assert.rejects(migrate(tdb.db, UP_TO_0028), (err: Error) => {
      assert.match(err.message, /^migration 0028_perfil_iof stopped, nothing was changed: 5 cedente row\(s\) break the IOF profile rules/)
      const of = (id: string) => `${id} \\(cliente ${c.id}\\)`
      // The first of each rule's rows, in the order they were made; a CPF as pj_simples breaks two rules, and is one row.
      assert.match(err.message, new RegExp(`start again\\. 3 with perfil_iof pj or pj_simples and a CPF, or pf and a CNPJ `
        + `\\(${of(cpfAsPj)}, ${of(cnpjAsPf)}, ${of(cpfAsSimples)}\\): change each to the profile of its documento; `))
      assert.match(err.message, new RegExp(`; 2 with perfil_iof pj_simples, which now needs the cedente's Simples Nacional declaration `
        + `\\(${of(simples)}, ${of(cpfAsSimples)}\\): `
        + 'change each to pj \\(pf for a CPF\\), and once migrated back to pj_simples with declaracao_simples'))
      assert.match(err.message, new RegExp(`; 1 with perfil_iof isento and a motivo_isencao that is not a code \\(${of(freeText)}\\): `
        + 'change each reason to one of comprador_fidc, comprador_securitizadora, .*missao_diplomatica\\.$'))
      return true
    })
    assert.equal(await version(tdb), 27, 'not recorded as applied')
    assert.deepEqual(await profiles(tdb, c.id), before, 'no row rewritten')
    const columns = await tdb.db.ownerTransaction((tx) => tx.query(`SELECT 1 FROM information_schema.columns
      WHERE table_name = 'cedentes' AND column_name = 'simples_declarado_em'`))
    assert.deepEqual(columns, [], 'none of its columns stayed')

    // What the message asks for, as the release before's PATCH would write it.
    await rowsAs(tdb.db, c.id, `UPDATE cedentes SET perfil_iof = CASE tipo_pessoa WHEN 'pf' THEN 'pf' ELSE 'pj' END
      WHERE id IN ('${cpfAsPj}', '${cnpjAsPf}', '${simples}', '${cpfAsSimples}')`)
    await rowsAs(tdb.db, c.id, `UPDATE cedentes SET motivo_isencao = 'comprador_fidc' WHERE id = '${freeText}'`)
    assert.deepEqual((await migrate(tdb.db, UP_TO_0028)).map((m) => m.name), ['perfil_iof'])
    assert.equal(await version(tdb), 28)
  })

  it('a database whose cedentes keep the rules migrates, every row as it was, with no declaration', async (t) => {
    const tdb = await createTestDatabase(UP_TO_0027)
    defer(t, () => tdb.dispose())
    const c = await customer(tdb.db)
    await legacyCedente(tdb, c.id, '11222333000181', 'pj')
    await legacyCedente(tdb, c.id, '11144477735', 'pf')
    await legacyCedente(tdb, c.id, '52998224725', 'isento', 'cooperativa')
    await legacyCedente(tdb, c.id, '12ABC34501DE35', 'isento', 'comprador_securitizadora')
    const before = await profiles(tdb, c.id)
    assert.deepEqual((await migrate(tdb.db, UP_TO_0028)).map((m) => m.name), ['perfil_iof'])
    assert.deepEqual(await profiles(tdb, c.id), before)
    assert.deepEqual(await rowsAs(tdb.db, c.id, 'SELECT DISTINCT simples_declarado_em, simples_declaracao_sha256 FROM cedentes'),
      [{ simples_declarado_em: null, simples_declaracao_sha256: null }])
  })
})

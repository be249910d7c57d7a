// `clientes documento ID --documento CNPJ`: the operator sets or corrects a customer's CNPJ (the cessionária's on
// every borderô, issue 32 item 4); its check digits are verified, another customer's CNPJ is refused, the change is
// audited with the value before and after, and the borderô prints it.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { auditRows, rowsAs } from '../helpers/credentials.ts'
import { cliRunner } from '../helpers/cli.ts'
import { useTestDatabase } from '../helpers/fixture.ts'

describe('clientes documento', () => {
  const tdb = useTestDatabase()
  const { lines, cli } = cliRunner(() => tdb.db)

  it('sets the CNPJ once its check digits hold, refuses another customer\'s, and audits the change', async () => {
    assert.equal(await cli('clientes', 'criar', '--nome', 'Fomento Sem CNPJ', '--json'), 0)
    const id = (JSON.parse(lines[0]!) as { id: string }).id
    assert.equal(await cli('clientes', 'criar', '--nome', 'Outra Fomento', '--documento', '11.444.777/0001-61', '--json'), 0)

    assert.notEqual(await cli('clientes', 'documento', id, '--documento', '11.444.777/0001-62'), 0)
    assert.notEqual(await cli('clientes', 'documento', id, '--documento', '11.444.777/0001-61'), 0)
    assert.equal(await cli('clientes', 'documento', id, '--documento', '11.222.333/0001-81', '--json'), 0, lines.join('\n'))
    assert.deepEqual(JSON.parse(lines[0]!), { id, documento: '11222333000181' })
    assert.deepEqual(await rowsAs(tdb.db, id, 'select documento from clientes'), [{ documento: '11222333000181' }])
    const audited = (await auditRows(tdb.db, id)).filter((r) => r.acao === 'cliente.documento_alterado')
    assert.deepEqual(audited.map((r) => [r.ator_tipo, r.alvo_id]), [['operador', id]])

    assert.equal(await cli('clientes', 'documento', '00000000-0000-4000-8000-000000000000', '--documento', '11.222.333/0001-81'), 1)
  })
})

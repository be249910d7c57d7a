// Names a customer or the operator chooses never act on the operator's terminal (issue 20, item 3): the CLI refuses
// control characters, line breaks and bidi controls in every name it sets (exit 2), the database refuses them
// under the stores (a CHECK), and whatever is already stored is printed with those characters as visible \uXXXX.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { before, describe, it } from 'node:test'
import { cliRunner } from '../helpers/cli.ts'
import { useTestDatabase } from '../helpers/fixture.ts'

const HOSTILE = {
  'ESC[31m': 'ERP \x1b[31mvermelho\x1b[0m',
  'OSC 52': 'x\x1b]52;c;ZWNobyBvd25lZA==\x07',
  'a newline': 'linha\nforjada',
  tabs: 'a\tb\tc',
  'a C1 CSI': 'c1 \u009b31m',
  'a bidi override': 'bidi \u202egpj.exe',
}

describe('names on the operator\'s terminal', () => {
  const tdb = useTestDatabase()
  const { lines, cli } = cliRunner(() => tdb.db)
  let cliente = ''

  before(async () => {
    assert.equal(await cli('clientes', 'criar', '--nome', 'Integradora', '--json'), 0)
    cliente = (JSON.parse(lines[0]!) as { id: string }).id
  })

  for (const [what, nome] of Object.entries(HOSTILE)) {
    it(`refuses ${what} in a token's, a person's and a customer's name (exit 2), and makes nothing`, async () => {
      assert.equal(await cli('tokens', 'criar', '--cliente', cliente, '--nome', nome, '--escopos', 'conta', '--expira-em', '30d'), 2)
      assert.match(lines.join('\n'), /control characters/)
      const email = `p.${randomBytes(4).toString('hex')}@cliente.com.br`
      assert.equal(await cli('usuarios', 'convidar', '--cliente', cliente, '--email', email, '--nome', nome), 2)
      assert.match(lines.join('\n'), /control characters/)
      assert.equal(await cli('clientes', 'criar', '--nome', nome), 2)
      assert.match(lines.join('\n'), /control characters/)
      assert.ok(!lines.join('\n').includes('\x1b'), 'nothing echoed raw')
    })
  }

  it('the database refuses such a name under the stores (CHECK), even from its owner', async () => {
    await assert.rejects(tdb.db.ownerTransaction(async (tx) => {
      await tx.query("SELECT set_config('app.cliente_id', $1, true)", [cliente])
      await tx.query("INSERT INTO tokens (cliente_id, nome, hash, escopos, expira_em) VALUES ($1, $2, $3, '{conta}', now() + interval '1 day')",
        [cliente, HOSTILE['ESC[31m'], randomBytes(32).toString('hex')])
    }), (err: { code?: string, cause?: { code?: string } }) => (err.code ?? err.cause?.code) === '23514')
  })

  it('a row stored before the rule (NOT VALID) is listed inert: each such character as visible \\uXXXX, one row, its columns intact', async () => {
    const nome = Object.values(HOSTILE).join(' ')
    await tdb.db.ownerTransaction(async (tx) => {
      await tx.query('ALTER TABLE tokens DROP CONSTRAINT tokens_nome_imprimivel')
      await tx.query("SELECT set_config('app.cliente_id', $1, true)", [cliente])
      await tx.query("INSERT INTO tokens (cliente_id, nome, hash, escopos, expira_em) VALUES ($1, $2, $3, '{conta}', now() + interval '1 day')",
        [cliente, nome, randomBytes(32).toString('hex')])
      await tx.query(`ALTER TABLE tokens ADD CONSTRAINT tokens_nome_imprimivel
        CHECK (nome !~ '[\\u0001-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]') NOT VALID`)
    })
    assert.equal(await cli('tokens', 'listar', '--cliente', cliente), 0)
    const out = lines.join('\n')
    // eslint-disable-next-line no-control-regex -- control characters are what it looks for
    assert.doesNotMatch(out, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, 'no control reaches the terminal')
    assert.equal(lines.length, 2, 'the header and one row: no forged row')
    const cells = lines[1]!.split('\t')
    assert.equal(cells.length, 7, 'no forged column')
    assert.equal(cells[1], 'ERP \\u001b[31mvermelho\\u001b[0m x\\u001b]52;c;ZWNobyBvd25lZA==\\u0007 '
      + 'linha\\u000aforjada a\\u0009b\\u0009c c1 \\u009b31m bidi \\u202egpj.exe')
    // --json stays JSON, and gives the name back as it is stored.
    assert.equal(await cli('tokens', 'listar', '--cliente', cliente, '--json'), 0)
    assert.doesNotMatch(lines[0]!, /[\u007f-\u009f\u202a-\u202e]/)
    assert.equal((JSON.parse(lines[0]!) as Array<{ nome: string }>)[0]!.nome, nome)
  })
})

// `clientes criar / listar / suspender / reativar`: the commercial channel's customers from the operator CLI,
// each action audited as the operator's in the customer's trail; --json, --help, exit 2 on bad input.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { auditRows } from '../helpers/credentials.ts'
import { cliRunner } from '../helpers/cli.ts'
import { useTestDatabase } from '../helpers/fixture.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('clientes', () => {
  const tdb = useTestDatabase()
  const { lines, cli } = cliRunner(() => tdb.db)

  async function created(...args: string[]): Promise<string> {
    assert.equal(await cli('clientes', 'criar', ...args, '--json'), 0, lines.join('\n'))
    const out = JSON.parse(lines[0]!) as { id: string }
    assert.deepEqual(Object.keys(out), ['id'])
    assert.match(out.id, UUID)
    return out.id
  }

  it('criar --json prints {"id"} alone; the creation is the operator\'s in the customer\'s audit trail', async () => {
    const id = await created('--nome', 'Fomento Paulista S.A.', '--documento', '11.222.333/0001-81')
    const audit = await auditRows(tdb.db, id)
    assert.deepEqual(audit.map((r) => [r.acao, r.ator_tipo, r.ator_id, r.alvo_id]), [['cliente.criado', 'operador', null, id]])
  })

  it('criar without --json says what it made', async () => {
    assert.equal(await cli('clientes', 'criar', '--nome', 'Securitizadora Norte'), 0)
    assert.match(lines[0]!, /^created customer [0-9a-f-]{36} \(Securitizadora Norte\)$/)
  })

  it('listar: every customer with its CNPJ and state, as a table or --json', async () => {
    const id = await created('--nome', 'Listada Ltda', '--documento', '04252011000110')
    assert.equal(await cli('clientes', 'listar'), 0)
    assert.deepEqual(lines[0]!.split('\t'), ['ID', 'NOME', 'DOCUMENTO', 'ESTADO', 'DESDE (BRASÍLIA)'])
    const row = lines.find((l) => l.startsWith(id))!.split('\t')
    assert.deepEqual(row.slice(0, 4), [id, 'Listada Ltda', '04252011000110', 'ativo'])
    assert.match(row[4]!, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} \(-03:00\)$/)
    assert.equal(await cli('clientes', 'listar', '--json'), 0)
    const all = JSON.parse(lines[0]!) as Record<string, unknown>[]
    const mine = all.find((c) => c.id === id)!
    assert.deepEqual(Object.keys(mine).sort(), ['criado_em', 'documento', 'estado', 'estado_em', 'id', 'nome'])
    assert.deepEqual([mine.nome, mine.documento, mine.estado], ['Listada Ltda', '04252011000110', 'ativo'])
  })

  it('suspender and reativar: say what changed (or that nothing did), --json too, each change audited once', async () => {
    const id = await created('--nome', 'Suspensa Ltda')
    assert.equal(await cli('clientes', 'suspender', id), 0)
    assert.deepEqual(lines, [`suspended customer ${id} (Suspensa Ltda)`])
    assert.equal(await cli('clientes', 'suspender', id, '--json'), 0)
    assert.deepEqual(JSON.parse(lines[0]!), { id, estado: 'suspenso', alterado: false })
    assert.equal(await cli('clientes', 'listar', '--json'), 0)
    assert.equal((JSON.parse(lines[0]!) as { id: string, estado: string }[]).find((c) => c.id === id)!.estado, 'suspenso')
    assert.equal(await cli('clientes', 'reativar', id.toUpperCase(), '--json'), 0)
    assert.deepEqual(JSON.parse(lines[0]!), { id, estado: 'ativo', alterado: true })
    assert.equal(await cli('clientes', 'reativar', id), 0)
    assert.deepEqual(lines, [`customer ${id} was ativo already: nothing changed`])
    assert.deepEqual((await auditRows(tdb.db, id)).map((r) => [r.acao, r.ator_tipo]),
      [['cliente.criado', 'operador'], ['cliente.suspenso', 'operador'], ['cliente.reativado', 'operador']])
  })

  it('an id no customer has: one line, exit 1', async () => {
    const id = crypto.randomUUID()
    assert.equal(await cli('clientes', 'suspender', id), 1)
    assert.deepEqual(lines, [`error: no customer ${id}`])
  })

  it('--help on the command and on a subcommand, exit 0; the general help names them', async () => {
    for (const args of [['clientes', '--help'], ['clientes', 'criar', '--help'], ['clientes', 'suspender', '-h']]) {
      assert.equal(await cli(...args), 0, args.join(' '))
      for (const part of ['clientes criar --nome NOME [--documento CNPJ] [--json]', 'clientes listar', 'clientes suspender ID', 'clientes reativar ID']) {
        assert.ok(lines.join('\n').includes(part), `${args.join(' ')}: ${part}`)
      }
    }
    assert.equal(await cli('help'), 0)
    assert.ok(['clientes criar', 'tokens criar', 'tokens revogar'].every((c) => lines.join('\n').includes(c)))
  })

  for (const [args, message] of [
    [['criar'], /clientes criar needs --nome/],
    [['criar', '--nome', 'X', '--documento', '11.222.333/0001-82'], /not a valid CNPJ/],
    [['criar', '--nome', 'X', '--documento'], /--documento/],
    [['criar', '--nome', ''], /1 to 200 characters/],
    [['criar', '--nome', 'X', '--cnpj', '11222333000181'], /--cnpj/],
    [['criar', '--nome', 'X', 'extra'], /extra/],
    [['suspender'], /clientes suspender needs the customer's id/],
    [['reativar', '42'], /"42" is not an id/],
    [['suspender', crypto.randomUUID(), 'outro'], /unexpected "outro"/],
    [['listar', '--todos'], /--todos/],
    [['apagar', crypto.randomUUID()], /unknown subcommand "clientes apagar"/],
    [[], /clientes needs a subcommand/],
  ] as const) {
    it(`bad input (${args.join(' ') || 'nothing'}): one error line and the help's name, exit 2`, async () => {
      const before = await customersNow()
      assert.equal(await cli('clientes', ...args), 2)
      assert.match(lines[0]!, /^error: /)
      assert.match(lines[0]!, message)
      assert.equal(await customersNow(), before, 'nothing made')
    })
  }

  async function customersNow(): Promise<number> {
    const rows = await tdb.db.ownerTransaction((tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM clientes'))
    return rows[0]!.n
  }

  it('a CNPJ already used is bad input too, naming the rule', async () => {
    await created('--nome', 'Dono do CNPJ', '--documento', '12.ABC.345/01DE-35')
    assert.equal(await cli('clientes', 'criar', '--nome', 'Outro', '--documento', '12abc34501de35'), 2)
    assert.match(lines[0]!, /^error: a customer with this CNPJ exists already/)
  })
})

// `tokens criar / listar / revogar`: the secret printed once by `criar`, never by anything else (listings, the
// audit trail); validation of scopes, expiry and DPoP thumbprint; revocation by id alone; exit codes.
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { findToken } from '../../src/modules/credentials/tokens/store.ts'
import { tokenHash, tokenKind } from '../../src/modules/credentials/token-format.ts'
import { auditRows } from '../helpers/credentials.ts'
import { cliRunner } from '../helpers/cli.ts'
import { useTestDatabase } from '../helpers/fixture.ts'

const DAY = 86_400_000
const JKT = 'A5eQ1ghtpsISb8r0bMo6cfrNe21Uf3M5txZp3bpqzhc'

describe('tokens', () => {
  const tdb = useTestDatabase()
  const { lines, cli } = cliRunner(() => tdb.db)
  let cliente = ''
  const secrets: string[] = []

  before(async () => {
    assert.equal(await cli('clientes', 'criar', '--nome', 'Integradora', '--json'), 0)
    cliente = (JSON.parse(lines[0]!) as { id: string }).id
  })

  async function issue(...extra: string[]): Promise<{ id: string, token: string, expira_em: string }> {
    assert.equal(await cli('tokens', 'criar', '--cliente', cliente, '--nome', 'ERP', '--escopos', 'conta,tokens', '--expira-em', '30d', ...extra, '--json'), 0,
      lines.join('\n'))
    const out = JSON.parse(lines[0]!) as { id: string, token: string, expira_em: string }
    secrets.push(out.token)
    return out
  }

  it('criar --json: {"id", "token", "expira_em"}; the token works, expires when asked, and its creation is audited without it', async () => {
    const before = Date.now()
    const out = await issue('--dpop-jkt', JKT)
    assert.deepEqual(Object.keys(out), ['id', 'token', 'expira_em'])
    assert.equal(tokenKind(out.token), 'pat')
    const expiry = new Date(out.expira_em).getTime()
    assert.ok(expiry >= before + 30 * DAY && expiry <= Date.now() + 30 * DAY, out.expira_em)
    const found = await findToken(tdb.db.orm, out.token)
    assert.deepEqual([found?.id, found?.clienteId, found?.escopos, found?.dpopJkt], [out.id, cliente, ['conta', 'tokens'], JKT])
    const created = (await auditRows(tdb.db, cliente)).filter((r) => r.acao === 'token.criado')
    assert.deepEqual(created.map((r) => [r.ator_tipo, r.ator_id, r.alvo_id]), [['operador', null, out.id]])
  })

  it('--dpop-jkt=THUMBPRINT takes a thumbprint that begins with a dash (one in 64 keys has one)', async () => {
    const dashed = `-${JKT.slice(1)}`
    const out = await issue(`--dpop-jkt=${dashed}`)
    assert.equal((await findToken(tdb.db.orm, out.token))?.dpopJkt, dashed)
  })

  it('criar without --json: the id, the token once, its expiry in Brasília time, and a warning that it is not shown again', async () => {
    assert.equal(await cli('tokens', 'criar', '--cliente', cliente, '--nome', 'Planilha', '--escopos', 'mcp', '--expira-em', '12h'), 0)
    assert.match(lines[0]!, /^id: [0-9a-f-]{36}$/)
    const token = /^token: (fct_pat_\w+)$/.exec(lines[1]!)?.[1]
    assert.ok(token && tokenKind(token) === 'pat', lines[1])
    secrets.push(token)
    assert.match(lines[2]!, /^expira_em: \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(-03:00\)$/)
    assert.match(lines[3]!, /shown only this once/)
  })

  it('listar: name, scopes, expiry, last use, bound or not, state; as a table or --json; never a secret or its digest', async () => {
    const plain = await issue()
    assert.equal(await cli('tokens', 'listar', '--cliente', cliente), 0)
    assert.deepEqual(lines[0]!.split('\t'), ['ID', 'NOME', 'ESCOPOS', 'EXPIRA (BRASÍLIA)', 'ÚLTIMO USO', 'DPOP', 'ESTADO'])
    const row = lines.find((l) => l.startsWith(plain.id))!.split('\t')
    assert.deepEqual([row[1], row[2], row[4], row[5], row[6]], ['ERP', 'conta,tokens', '-', 'não', 'ativo'])
    assert.ok(lines.some((l) => l.split('\t')[5] === 'sim'), 'the bound token says so')
    assert.equal(await cli('tokens', 'listar', '--cliente', cliente, '--json'), 0)
    const listed = JSON.parse(lines[0]!) as Record<string, unknown>[]
    assert.deepEqual(Object.keys(listed[0]!).sort(), ['criado_em', 'dpop_jkt', 'escopos', 'estado', 'expira_em', 'id', 'nome', 'primeiro_uso_em',
      'revogado_em', 'ultimo_uso_em', 'ultimo_uso_ip', 'usuario_id'])
    assert.ok(listed.some((t) => t.id === plain.id && t.estado === 'ativo'))
  })

  it('revogar: by the token\'s id alone; again says nothing changed; audited once; the token then finds a revoked one', async () => {
    const { id, token } = await issue()
    assert.equal(await cli('tokens', 'revogar', id), 0)
    assert.deepEqual(lines, [`revoked token ${id} (ERP)`])
    assert.equal(await cli('tokens', 'revogar', id, '--json'), 0)
    const again = JSON.parse(lines[0]!) as { id: string, revogado_em: string, alterado: boolean }
    assert.deepEqual([again.id, again.alterado], [id, false])
    assert.equal((await findToken(tdb.db.orm, token))?.revogadoEm?.toISOString(), again.revogado_em)
    assert.equal(await cli('tokens', 'listar', '--cliente', cliente), 0)
    assert.equal(lines.find((l) => l.startsWith(id))!.split('\t')[6], 'revogado')
    assert.deepEqual((await auditRows(tdb.db, cliente)).filter((r) => r.acao === 'token.revogado').map((r) => [r.alvo_id, r.ator_tipo]), [[id, 'operador']])
  })

  it('an id no token has: one line, exit 1; a suspended or unknown customer gets no token: exit 1', async () => {
    const nobody = crypto.randomUUID()
    assert.equal(await cli('tokens', 'revogar', nobody), 1)
    assert.deepEqual(lines, [`error: no token ${nobody}`])
    assert.equal(await cli('tokens', 'criar', '--cliente', nobody, '--nome', 'x', '--escopos', 'conta', '--expira-em', '1d'), 1)
    assert.deepEqual(lines, ['error: no customer has this id'])
    assert.equal(await cli('clientes', 'criar', '--nome', 'Vai suspender', '--json'), 0)
    const suspended = (JSON.parse(lines[0]!) as { id: string }).id
    assert.equal(await cli('clientes', 'suspender', suspended), 0)
    assert.equal(await cli('tokens', 'criar', '--cliente', suspended, '--nome', 'x', '--escopos', 'conta', '--expira-em', '1d'), 1)
    assert.deepEqual(lines, ['error: the customer is suspended: reactivate it first'])
  })

  // `C` stands for the suite's customer id, known only once the suite has started.
  const C = '<cliente>'
  for (const [args, message] of [
    [['criar', '--nome', 'x', '--escopos', 'conta', '--expira-em', '1d'], /tokens criar needs --cliente ID/],
    [['criar', '--cliente', 'abc', '--nome', 'x', '--escopos', 'conta', '--expira-em', '1d'], /"abc" is not an id/],
    [['criar', '--cliente', C, '--escopos', 'conta', '--expira-em', '1d'], /needs --nome/],
    [['criar', '--cliente', C, '--nome', 'x', '--expira-em', '1d'], /needs --escopos \(some of conta, tokens, mcp, cadastro, operacoes, aprovacao, financeiro, cobranca, webhooks\)/],
    [['criar', '--cliente', C, '--nome', 'x', '--escopos', 'conta,admin', '--expira-em', '1d'], /unknown scope "admin": use conta, tokens, mcp/],
    [['criar', '--cliente', C, '--nome', 'x', '--escopos', 'conta'], /needs --expira-em/],
    [['criar', '--cliente', C, '--nome', 'x', '--escopos', 'conta', '--expira-em', '30'], /--expira-em must be a number of days or hours/],
    [['criar', '--cliente', C, '--nome', 'x', '--escopos', 'conta', '--expira-em', '0d'], /--expira-em must be/],
    [['criar', '--cliente', C, '--nome', 'x', '--escopos', 'conta', '--expira-em', '1y'], /--expira-em must be/],
    [['criar', '--cliente', C, '--nome', 'x', '--escopos', 'conta', '--expira-em', '400d'], /at most 366 days/],
    [['criar', '--cliente', C, '--nome', 'x', '--escopos', 'conta', '--expira-em', '1d', '--dpop-jkt', 'not-a-thumbprint'], /RFC 7638/],
    [['criar', '--cliente', C, '--nome', 'x', '--escopos', 'conta', '--expira-em', '1d', '--dpop'], /--dpop/],
    [['listar'], /tokens listar needs --cliente ID/],
    [['revogar'], /tokens revogar needs the token's id/],
    [['revogar', 'fct_pat_x'], /"fct_pat_x" is not an id/],
    [['mostrar', C], /unknown subcommand "tokens mostrar"/],
  ] as const) {
    it(`bad input (${args.join(' ')}): one error line, exit 2, no token made`, async () => {
      const count = async () => (await tdb.db.ownerTransaction((tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM tokens')))[0]!.n
      const before = await count()
      assert.equal(await cli('tokens', ...args.map((a) => (a === C ? cliente : a))), 2)
      assert.match(lines[0]!, /^error: /)
      assert.match(lines[0]!, message)
      assert.equal(await count(), before)
    })
  }

  it('--help, on the command and on a subcommand: every option, exit 0', async () => {
    for (const args of [['tokens', '--help'], ['tokens', 'criar', '--help']]) {
      assert.equal(await cli(...args), 0)
      for (const part of ['--cliente ID', '--escopos conta,tokens,mcp', '--expira-em 30d', '--dpop-jkt=THUMBPRINT', 'tokens listar', 'tokens revogar ID']) {
        assert.ok(lines.join('\n').includes(part), part)
      }
    }
  })

  it('no secret, nor its digest, anywhere in the customer\'s audit trail', async () => {
    assert.ok(secrets.length >= 4)
    const written = JSON.stringify(await auditRows(tdb.db, cliente))
    for (const secret of secrets) assert.ok(!written.includes(secret) && !written.includes(tokenHash(secret)))
  })
})

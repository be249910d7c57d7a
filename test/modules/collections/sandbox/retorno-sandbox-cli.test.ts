// `cobranca retorno-sandbox` (issue 33, for a person trying the cycle without a bank): the file it writes is read by
// the service as a bank's retorno, and liquidates the charges named, paid in full or in part; it refuses what the
// bank would never send (a charge of another customer, charges of two accounts, a charge already paid), never
// overwrites a file, and in production writes nothing.
import assert from 'node:assert/strict'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { runCli } from '../../../../src/cli/commands.ts'
import { mod10 } from '../../../../src/modules/collections/boleto/modulos.ts'
import { issueToken } from '../../../helpers/api-credentials.ts'
import { cliRunner } from '../../../helpers/cli.ts'
import { rowsAs } from '../../../helpers/credentials.ts'
import { useTestApp } from '../../../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, formalizedExample, key, settableClock } from '../../operations/helpers.ts'

const BB = { nome: 'BB cobrança', banco: '001', agencia: '3064', conta: '123456', conta_digito: 'X', carteira: '17', convenio: '1234567' }

describe('cobranca retorno-sandbox', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })
  const { lines, cli } = cliRunner(() => ctx.db)
  let dir = ''
  after(async () => { if (dir) await rm(dir, { recursive: true, force: true }) })

  it('writes the retorno that liquidates the charges named, which the service applies as a bank\'s', async () => {
    dir = await mkdtemp(join(tmpdir(), 'retorno-sandbox-'))
    const office = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await formalizedExample(office.admin.call)
    const account = created(await office.operador.call('POST', '/api/contas-cobranca', BB))
    created(await office.aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    const [t1, t2] = (op.titulos as { id: string }[]).map((t) => t.id)
    const charge = async (tituloId: string) => created(await office.operador.call('POST', '/api/cobrancas',
      { titulo_id: tituloId, conta_cobranca_id: account.id }, key()))
    const c1 = await charge(t1!)
    const c2 = await charge(t2!)
    const file = join(dir, 'a.ret')

    // The first paid in full, the second in part (R$ 1.000,00), on the day given.
    assert.equal(await cli('cobranca', 'retorno-sandbox', '--cliente', office.clienteId, '--cobranca', c1.id, '--saida', file,
      '--data', '2026-11-04'), 0, lines.join('\n'))
    assert.match(lines[0]!, /^SANDBOX: .*a\.ret written, retorno 1 of CNAB 240/)
    const partial = join(dir, 'b.ret')
    assert.equal(await cli('cobranca', 'retorno-sandbox', '--cliente', office.clienteId, '--cobranca', c2.id, '--pago', '1.000,00',
      '--saida', partial, '--data', '2026-11-04'), 0, lines.join('\n'))
    assert.equal(await cli('cobranca', 'retorno-sandbox', '--cliente', office.clienteId, '--cobranca', c2.id, '--saida', partial), 2,
      'an existing file is never overwritten')
    assert.match(lines.join('\n'), /exists already/)

    const { token } = await issueToken(ctx.db, office.clienteId, { escopos: ['cobranca'], clock, expiraEm: new Date('2027-06-30T00:00:00Z') })
    const send = async (path: string) => ctx.app.inject({ method: 'POST', url: `/api/cnab/retornos?conta_cobranca_id=${account.id}`,
      payload: await readFile(path), headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' } })
    clock.set('2026-11-05T15:00:00Z')
    const first = await send(file)
    assert.equal(first.statusCode, 201, first.body)
    assert.deepEqual([first.json().aplicadas, first.json().ignoradas], [2, 0], 'its entrada confirmada and its liquidação')
    const second = await send(partial)
    assert.equal(second.statusCode, 201, second.body)
    const titulos = await rowsAs<{ id: string, estado: string, saldo: string, face: string }>(ctx.db, office.clienteId,
      `SELECT id, estado, saldo_centavos::text AS saldo, valor_face_centavos::text AS face FROM titulos WHERE id IN ('${t1}', '${t2}')`)
    const t = (id: string) => titulos.find((x) => x.id === id)!
    assert.deepEqual([t(t1!).estado, t(t1!).saldo], ['liquidado', '0'])
    assert.deepEqual([t(t2!).estado, t(t2!).saldo], ['adquirido', String(BigInt(t(t2!).face) - 100_000n)])

    // What the bank would never send.
    assert.equal(await cli('cobranca', 'retorno-sandbox', '--cliente', office.clienteId, '--cobranca', c1.id, '--saida', join(dir, 'c.ret')), 1)
    assert.match(lines.join('\n'), /is liquidada: the bank would not liquidate it/)
    const other = await backOffice(ctx.db, ctx.app, clock)
    assert.equal(await cli('cobranca', 'retorno-sandbox', '--cliente', other.clienteId, '--cobranca', c2.id, '--saida', join(dir, 'd.ret')), 1)
    assert.match(lines.join('\n'), /has no charge/)
    assert.equal(await cli('cobranca', 'retorno-sandbox', '--cliente', office.clienteId, '--cobranca', c2.id, '--pago', '12,345'), 2)

    // In production it writes nothing.
    const printed: string[] = []
    const code = await runCli(['cobranca', 'retorno-sandbox', '--cliente', office.clienteId, '--cobranca', c2.id, '--saida', join(dir, 'e.ret')],
      { log: (s) => printed.push(s), error: (s) => printed.push(s) },
      { DATA_DIR: tmpdir(), PUBLIC_URL: 'https://fomento.example', AMBIENTE: 'producao', MAIL_SANDBOX: 'on' }, { open: async () => ctx.db })
    assert.equal(code, 1, printed.join('\n'))
    assert.match(printed.join('\n'), /AMBIENTE=producao/)
    await assert.rejects(readFile(join(dir, 'e.ret')), { code: 'ENOENT' })
  })

  it('writes a CNAB 400 for an Itaú account, one the bank reaches by its API too: its payments come back by retorno files', async () => {
    dir ||= await mkdtemp(join(tmpdir(), 'retorno-sandbox-'))
    clock.set(EXAMPLE_NOW)
    const office = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await formalizedExample(office.admin.call)
    const itau = { nome: 'Itaú API', banco: '341', agencia: '1234', conta: '56789', conta_digito: String(mod10('123456789')), carteira: '109',
      layout_cnab: '400', transporte: 'api' }
    const account = created(await office.operador.call('POST', '/api/contas-cobranca', itau))
    created(await office.aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    const t1 = (op.titulos as { id: string }[])[0]!.id
    const c = created(await office.operador.call('POST', '/api/cobrancas', { titulo_id: t1, conta_cobranca_id: account.id }, key()))
    const file = join(dir, 'itau.ret')
    assert.equal(await cli('cobranca', 'retorno-sandbox', '--cliente', office.clienteId, '--cobranca', c.id, '--saida', file, '--data', '2026-11-04'),
      0, lines.join('\n'))
    const text = await readFile(file, 'latin1')
    assert.ok(text.split('\r\n').filter(Boolean).every((l) => l.length === 400), 'a CNAB 400 file')
    const { token } = await issueToken(ctx.db, office.clienteId, { escopos: ['cobranca'], clock, expiraEm: new Date('2027-06-30T00:00:00Z') })
    clock.set('2026-11-05T15:00:00Z')
    const res = await ctx.app.inject({ method: 'POST', url: `/api/cnab/retornos?conta_cobranca_id=${account.id}`, payload: Buffer.from(text, 'latin1'),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' } })
    assert.equal(res.statusCode, 201, res.body)
    const [titulo] = await rowsAs<{ estado: string }>(ctx.db, office.clienteId, `SELECT estado FROM titulos WHERE id = '${t1}'`)
    assert.equal(titulo!.estado, 'liquidado')
  })
})

import assert from 'node:assert/strict'
import { tmpdir } from 'node:os'
import { describe, it } from 'node:test'
import { runCli } from '../../src/cli/commands.ts'
import { cliRunner } from '../helpers/cli.ts'
import { useTestApp, useTestDatabase } from '../helpers/fixture.ts'

describe('operator CLI', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' } })
  const { lines, cli } = cliRunner(() => ctx.db)

  it('help: a usage text with every command, exit 0; no command: the same, exit 2', async () => {
    assert.equal(await cli('--help'), 0)
    for (const c of [
      'migrate', 'manutencao declarar', 'manutencao listar', 'manutencao encerrar', 'fila listar', 'fila reenfileirar', 'email testar', 'contatos expurgar',
    ]) {
      assert.ok(lines.join('\n').includes(c), c)
    }
    assert.equal(await cli(), 2)
  })

  it('migrate: nothing to do on a current database', async () => {
    assert.equal(await cli('migrate'), 0)
    assert.deepEqual(lines, ['database is up to date'])
  })

  it('manutencao declarar / listar / encerrar, seen by GET /api/status', async () => {
    const inicio = new Date(Date.now() + 3_600_000).toISOString()
    const fim = new Date(Date.now() + 7_200_000).toISOString()
    assert.equal(await cli('manutencao', 'declarar', '--inicio', inicio, '--fim', fim, '--mensagem', 'Troca de servidor'), 0, lines.join('\n'))
    const id = Number(/declared window (\d+)/.exec(lines[0]!)?.[1])
    assert.ok(id > 0)
    assert.equal(await cli('manutencao', 'listar'), 0)
    assert.ok(lines.some((l) => l.startsWith(`${id}\t`) && l.includes('Troca de servidor')))

    let status = await ctx.app.deps.snapshot.refresh()
    assert.deepEqual(status.manutencao, {
      inicio: new Date(inicio).toISOString(), fim: new Date(fim).toISOString(), mensagem: 'Troca de servidor', em_curso: false, anunciada: true,
    })

    assert.equal(await cli('manutencao', 'declarar', '--mensagem', 'Emergência no banco'), 0)
    const now = Number(/declared window (\d+)/.exec(lines[0]!)?.[1])
    status = await ctx.app.deps.snapshot.refresh()
    assert.equal(status.status, 'manutencao')
    assert.deepEqual([status.manutencao?.mensagem, status.manutencao?.em_curso, status.manutencao?.anunciada], ['Emergência no banco', true, false])

    assert.equal(await cli('manutencao', 'encerrar', String(now)), 0)
    assert.equal(await cli('manutencao', 'encerrar', String(id)), 0)
    assert.equal(await cli('manutencao', 'encerrar', String(id)), 1, 'already ended')
    status = await ctx.app.deps.snapshot.refresh()
    assert.equal(status.manutencao, null)
    assert.equal(status.status, 'operacional')
  })

  it('bad input: a clear message and exit 2, nothing declared', async () => {
    const cases: string[][] = [
      ['manutencao', 'declarar', '--inicio', '2026-12-01'],
      ['manutencao', 'declarar', '--inicio', '2030-01-01T03:00:00Z', '--fim', '2030-01-01T02:00:00Z'],
      ['manutencao', 'declarar', '--fim', '2000-01-01T00:00:00Z'],
      ['manutencao', 'declarar', '--duracao', '2h'],
      ['manutencao', 'encerrar', 'abc'],
      ['manutencao'],
      ['fila', 'listar', '--estado', 'perdido'],
      ['email', 'testar', 'nao-e-email'],
      ['contatos', 'expurgar', '--dias', '0'],
      ['desconhecido'],
    ]
    for (const argv of cases) {
      assert.equal(await cli(...argv), 2, argv.join(' '))
      assert.match(lines[0]!, /^error: /, argv.join(' '))
    }
    assert.equal(await cli('manutencao', 'listar'), 0)
    assert.deepEqual(lines, ['no open maintenance windows'])
  })
})

describe('operator CLI: help, usage errors, times, an unreachable DATABASE_URL', () => {
  const tdb = useTestDatabase()
  const lines: string[] = []
  const out = { log: (s: string) => lines.push(...s.split('\n')), error: (s: string) => lines.push(...s.split('\n')) }
  const cli = (...argv: string[]) => {
    lines.length = 0
    return runCli(argv, out, { DATA_DIR: tmpdir() }, { open: async () => tdb.db })
  }

  it('every command and subcommand answers --help and -h with its own usage, exit 0', async () => {
    const asks: [string[], string][] = [
      [['manutencao', '--help'], 'manutencao declarar'], [['manutencao', '-h'], 'manutencao encerrar ID'],
      [['manutencao', 'declarar', '--help'], '--inicio ISO'], [['manutencao', 'encerrar', '-h'], 'manutencao encerrar ID'],
      [['fila', '--help'], 'fila reenfileirar'], [['fila', 'listar', '-h'], 'fila listar [--estado E]'],
      [['email', 'testar', '--help'], 'email testar ENDERECO'], [['contatos', 'expurgar', '--help'], 'contatos expurgar'],
      [['migrate', '--help'], 'apply pending database migrations'],
    ]
    for (const [argv, expected] of asks) {
      assert.equal(await cli(...argv), 0, argv.join(' '))
      assert.ok(lines.join('\n').includes(expected), `${argv.join(' ')}: ${lines.join('\n')}`)
      assert.ok(!lines.some((l) => l.startsWith('error')), argv.join(' '))
    }
  })

  it('an argument error is one line naming it and a hint, not the whole usage', async () => {
    assert.equal(await cli('manutencao', 'declarar', '--duracao', '2h'), 2)
    assert.equal(lines.length, 2, lines.join('\n'))
    assert.match(lines[0]!, /^error: .*--duracao/)
    assert.equal(lines[1], 'see: npm run cli -- manutencao --help')
    assert.equal(await cli('fila', 'listar', '--estado', 'perdido'), 2)
    assert.deepEqual(lines.slice(1), ['see: npm run cli -- fila --help'])
    assert.equal(await cli('desconhecido'), 2)
    assert.deepEqual(lines, ['error: unknown command "desconhecido"', 'see: npm run cli -- help'])
  })

  it('shows times in Brasília time with the offset', async () => {
    assert.equal(await cli('manutencao', 'declarar', '--inicio', '2030-12-01T05:00:00Z', '--fim', '2030-12-01T07:30:00Z'), 0, lines.join('\n'))
    assert.match(lines[0]!, /^declared window \d+: 2030-12-01 02:00 \(-03:00\) → 2030-12-01 04:30 \(-03:00\)$/)
    assert.equal(await cli('manutencao', 'listar'), 0)
    assert.ok(lines.some((l) => l.endsWith('\t2030-12-01 02:00 (-03:00) → 2030-12-01 04:30 (-03:00)')), lines.join('\n'))
  })

  it('a configuration error is worded as the server words it (startupProblem), exit 2', async () => {
    lines.length = 0
    const code = await runCli(['fila', 'listar'], out, { DATA_DIR: tmpdir(), LOG_LEVEL: 'loud' })
    assert.equal(code, 2, lines.join('\n'))
    assert.deepEqual(lines, ['error: configuration error: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'])
  })

  it('an unreachable DATABASE_URL is named, without its password, exit 2', async () => {
    lines.length = 0
    const code = await runCli(['fila', 'listar'], out, { DATA_DIR: tmpdir(), DATABASE_URL: 'postgres://ops:segredo-123@127.0.0.1:1/fps?password=outro-456' })
    assert.equal(code, 2, lines.join('\n'))
    assert.deepEqual(lines, [
      'database: PostgreSQL postgres://ops@127.0.0.1:1/fps (DATABASE_URL, its password not shown)',
      'error: DATABASE_URL: cannot connect to PostgreSQL at 127.0.0.1:1/fps: nothing accepts connections there (ECONNREFUSED)',
    ])
  })
})

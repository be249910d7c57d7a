import assert from 'node:assert/strict'
import { tmpdir } from 'node:os'
import { after, before, describe, it } from 'node:test'
import type { App } from '../../src/app.ts'
import { runCli } from '../../src/cli/main.ts'
import { createTestApp } from '../helpers/app.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

describe('operator CLI', () => {
  let tdb: TestDatabase
  let app: App
  const lines: string[] = []
  const cli = (...argv: string[]) => {
    lines.length = 0
    return runCli(argv, { log: (s) => lines.push(s), error: (s) => lines.push(s) }, { DATA_DIR: tmpdir() }, { open: async () => tdb.db })
  }
  before(async () => {
    tdb = await createTestDatabase()
    app = await createTestApp({ db: tdb.db, env: { MAIL_WORKER: 'off' } })
  })
  after(async () => {
    await app?.close()
    await tdb?.dispose()
  })

  it('help: a usage text with every command, exit 0; no command: the same, exit 2', async () => {
    assert.equal(await cli('--help'), 0)
    for (const c of ['migrate', 'manutencao declarar', 'manutencao listar', 'manutencao encerrar', 'fila listar', 'fila reenfileirar', 'email testar', 'contatos expurgar']) {
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

    let status = await app.deps.snapshot.refresh()
    assert.deepEqual(status.manutencao, { inicio: new Date(inicio).toISOString(), fim: new Date(fim).toISOString(), mensagem: 'Troca de servidor', em_curso: false, anunciada: true })

    assert.equal(await cli('manutencao', 'declarar', '--mensagem', 'Emergência no banco'), 0)
    const now = Number(/declared window (\d+)/.exec(lines[0]!)?.[1])
    status = await app.deps.snapshot.refresh()
    assert.equal(status.status, 'manutencao')
    assert.deepEqual([status.manutencao?.mensagem, status.manutencao?.em_curso, status.manutencao?.anunciada], ['Emergência no banco', true, false])

    assert.equal(await cli('manutencao', 'encerrar', String(now)), 0)
    assert.equal(await cli('manutencao', 'encerrar', String(id)), 0)
    assert.equal(await cli('manutencao', 'encerrar', String(id)), 1, 'already ended')
    status = await app.deps.snapshot.refresh()
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

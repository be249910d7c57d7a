// `tarefas listar`: each platform job, its schedule, its last run in the cluster and when it is next due.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { cliRunner } from '../helpers/cli.ts'
import { useTestDatabase } from '../helpers/fixture.ts'

describe('operator CLI: tarefas', () => {
  const tdb = useTestDatabase()
  const { lines, cli } = cliRunner(() => tdb.db)
  const recordRun = (tarefa: string, instancia: string, startedMinutesAgo: number, outcome: { resultado: string, contagem?: number, erro?: string }) =>
    tdb.db.orm.execute(sql`
      INSERT INTO execucoes_tarefa (tarefa, instancia, iniciada_em, valida_ate, terminada_em, resultado, contagem, erro)
      VALUES (${tarefa}, ${instancia}, now() - make_interval(mins => ${startedMinutesAgo}), now() - make_interval(mins => ${startedMinutesAgo - 15}),
              ${outcome.resultado === 'em_curso' ? null : sql`now()`}, ${outcome.resultado}, ${outcome.contagem ?? null}, ${outcome.erro ?? null})`)

  it('before any run: every job, never run, due now', async () => {
    assert.equal(await cli('tarefas', 'listar'), 0)
    // The platform's jobs, then each module's in the modules' order.
    assert.deepEqual(lines, [
      'chaves-idempotencia-expurgo\tevery 6 h\tnever run\tnext now',
      'mensagens-conteudo-expurgo\tevery 1 h\tnever run\tnext now',
      'contatos-retencao\tevery 6 h\tnever run\tnext now',
      'dpop-jti-expurgo\tevery 10 min\tnever run\tnext now',
      'desagio-apropriacao\tdaily at 00:30 (horário de Brasília)\tnever run\tnext now',
      'cobrancas-registro\tevery 10 s\tnever run\tnext now',
      'cobrancas-instrucoes\tevery 10 s\tnever run\tnext now',
      'retornos-aplicacao\tevery 10 s\tnever run\tnext now',
      'registro-pedidos\tevery 10 s\tnever run\tnext now',
      'titulos-vencidos-eventos\tdaily at 00:10 (horário de Brasília)\tnever run\tnext now',
    ])
  })

  it('the last run of each: its outcome, count or error, the instance (printed inert), and the next due', async () => {
    await recordRun('contatos-retencao', 'web-1:41', 120, { resultado: 'ok', contagem: 3 })
    await recordRun('contatos-retencao', 'web-2:7', 60, { resultado: 'ok', contagem: 2 })
    await recordRun('chaves-idempotencia-expurgo', 'web-1:41', 30, { resultado: 'falhou', erro: 'DatabaseError 57014' })
    await recordRun('mensagens-conteudo-expurgo', 'web-\u001b[31m1', 5, { resultado: 'em_curso' })
    await recordRun('dpop-jti-expurgo', 'web-1:41', 60, { resultado: 'em_curso' })
    await recordRun('desagio-apropriacao', 'web-2:7', 90, { resultado: 'ok', contagem: 1 })
    await recordRun('cobrancas-registro', 'web-1:41', 1, { resultado: 'ok', contagem: 4 })
    await recordRun('cobrancas-instrucoes', 'web-2:7', 2, { resultado: 'falhou', erro: 'TimeoutError' })
    await recordRun('retornos-aplicacao', 'web-1:41', 1, { resultado: 'ok', contagem: 0 })
    await recordRun('registro-pedidos', 'web-2:7', 1, { resultado: 'ok', contagem: 2 })
    await recordRun('titulos-vencidos-eventos', 'web-2:7', 600, { resultado: 'ok', contagem: 5 })
    assert.equal(await cli('tarefas', 'listar'), 0)
    const cells = lines.map((l) => l.split('\t'))
    assert.deepEqual(cells.map((c) => [c[0], c[3], c[4]]), [
      ['chaves-idempotencia-expurgo', 'failed: DatabaseError 57014', 'on web-1:41'],
      ['mensagens-conteudo-expurgo', 'running', 'on web-\\u001b[31m1'],
      ['contatos-retencao', 'ok, 2 done', 'on web-2:7'],
      ['dpop-jti-expurgo', 'abandoned (not finished within its lease)', 'on web-1:41'],
      ['desagio-apropriacao', 'ok, 1 done', 'on web-2:7'],
      ['cobrancas-registro', 'ok, 4 done', 'on web-1:41'],
      ['cobrancas-instrucoes', 'failed: TimeoutError', 'on web-2:7'],
      ['retornos-aplicacao', 'ok, 0 done', 'on web-1:41'],
      ['registro-pedidos', 'ok, 2 done', 'on web-2:7'],
      ['titulos-vencidos-eventos', 'ok, 5 done', 'on web-2:7'],
    ])
    for (const c of cells) assert.match(c[2]!, /^last \d{4}-\d\d-\d\d \d\d:\d\d \(-03:00\)$/)
    // The retention ran an hour ago every 6 hours: due in 5; the running one is held until its lease ends.
    assert.match(cells[2]![5]!, /^next \d{4}-\d\d-\d\d \d\d:\d\d \(-03:00\)$/)
    assert.equal(cells[3]![5], 'next now')
  })

  it('no subcommand, or another: a usage error, exit 2', async () => {
    assert.equal(await cli('tarefas'), 2)
    assert.match(lines.join('\n'), /tarefas needs a subcommand/)
    assert.equal(await cli('tarefas', 'listar', 'demais'), 2)
    assert.equal(await cli('tarefas', '--help'), 0)
    assert.match(lines.join('\n'), /tarefas listar/)
  })
})

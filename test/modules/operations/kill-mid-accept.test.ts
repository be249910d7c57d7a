// A process killed (SIGKILL) in the middle of an acceptance (produto.md §1 "No transition is ever half done"): the
// built service accepts a quote while another session holds the ledger's table, so its transaction has already
// locked the operation, acquired the títulos and marked the operation accepted, and waits to post the entry; the
// process is killed there. The operation is then exactly as before (cotada, títulos offered, no entry), and the
// acceptance made again posts its whole entry once.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import pg from 'pg'
import { addDays } from '../../../src/modules/calendar/civil-date.ts'
import { brasiliaDay } from '../../../src/platform/lib/brasilia-time.ts'
import { issueToken } from '../../helpers/api-credentials.ts'
import { rowsAs } from '../../helpers/credentials.ts'
import { onPostgresOnly } from '../../helpers/database.ts'
import { defer, useTestApp } from '../../helpers/fixture.ts'
import { spawnService, waitForOutput } from '../../helpers/service-process.ts'
import { tempDir } from '../../helpers/temp.ts'
import { backOffice, created, exampleRegisters } from './helpers.ts'

const skip = onPostgresOnly('a second session holding a table lock needs PostgreSQL: runs in the PostgreSQL suite (DATABASE_URL set)')

describe('a process killed in the middle of an acceptance', { skip }, () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' } })

  it('leaves the operation as it was; accepting again posts the whole entry once', async (t) => {
    const { clienteId, operador } = await backOffice(ctx.db, ctx.app)
    const { produto, cedente, sacados } = await exampleRegisters(operador.call)
    const today = brasiliaDay(new Date())
    const op = created(await operador.call('POST', '/api/operacoes', {
      cedente_id: cedente.id, produto_id: produto.id, titulos: sacados.map((s: { id: string }, i: number) => ({
        tipo: 'duplicata_mercantil', numero: `K${i}`, sacado_id: s.id, emissao: today, vencimento: addDays(today, 30 + i * 10),
          valor_face_centavos: 100_000 * (i + 1),
      })),
    }))
    created(await operador.call('POST', `/api/operacoes/${op.id}/cotacao`))
    const { token } = await issueToken(ctx.db, clienteId, { escopos: ['operacoes'] })

    const service = await spawnService(t, { DATABASE_URL: ctx.url!, DATA_DIR: tempDir('kill-accept'), MAIL_WORKER: 'off',
      RATE_LIMIT_ALLOWLIST: '127.0.0.1/32' })
    await waitForOutput(service, /"msg":"service ready"/)

    // Another session holds the ledger's table: an INSERT there waits, inside the acceptance's transaction.
    const holder = new pg.Client({ connectionString: ctx.url! })
    await holder.connect()
    defer(t, () => holder.end())
    await holder.query('BEGIN')
    await holder.query('LOCK TABLE lancamentos IN SHARE ROW EXCLUSIVE MODE')
    const accepting = fetch(`${service.base}/api/operacoes/${op.id}/aceite`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ cotacao_versao: 1 }),
    }).catch((err: unknown) => err)
    // Until the acceptance waits on the lock: the operation and its títulos are changed in its transaction by then.
    for (let waited = 0; ; waited += 50) {
      const { rows } = await holder.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
        WHERE c.relname = 'lancamentos' AND NOT l.granted`)
      if (rows[0]!.n > 0) break
      assert.ok(waited < 20_000, `the acceptance never reached the ledger:\n${service.output()}`)
      await new Promise((r) => setTimeout(r, 50))
    }
    process.kill(-service.child.pid!, 'SIGKILL')
    await service.exited
    await accepting
    await holder.query('ROLLBACK')

    const [state] = await rowsAs<{ estado: string, aceita: number | null }>(ctx.db, clienteId,
      `SELECT estado, cotacao_aceita AS aceita FROM operacoes WHERE id = '${op.id}'`)
    assert.deepEqual(state, { estado: 'cotada', aceita: null })
    const titles = await rowsAs<{ estado: string }>(ctx.db, clienteId, `SELECT DISTINCT estado FROM titulos WHERE operacao_id = '${op.id}'`)
    assert.deepEqual(titles, [{ estado: 'ofertado' }])
    assert.deepEqual(await rowsAs(ctx.db, clienteId, 'SELECT id FROM lancamentos'), [])

    const again = await operador.call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, { 'idempotency-key': randomUUID() })
    assert.equal(again.statusCode, 200, again.body)
    const entries = await rowsAs<{ n: number }>(ctx.db, clienteId, 'SELECT count(*)::int AS n FROM lancamentos')
    assert.equal(entries[0]!.n, 1)
  })
})

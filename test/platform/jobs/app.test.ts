// The app's jobs: the platform's purges registered on its scheduler, and a close that waits for a run in hand.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { testApp, useTestDatabase } from '../../helpers/fixture.ts'
import { heldJob, runsOf, startHeld } from '../../helpers/jobs.ts'

describe('the app\'s jobs', () => {
  const tdb = useTestDatabase()

  it('registers the retention and expiry purges, runs them when due, and its close waits for a run in hand', async (t) => {
    const app = await testApp(t, { db: tdb.db, env: { MAIL_WORKER: 'off' } })
    assert.deepEqual(app.deps.jobs.list().map((j) => j.name),
      ['chaves-idempotencia-expurgo', 'mensagens-conteudo-expurgo', 'contatos-retencao', 'dpop-jti-expurgo', 'desagio-apropriacao',
        'cobrancas-registro', 'cobrancas-instrucoes', 'retornos-aplicacao', 'registro-pedidos', 'titulos-vencidos-eventos'])
    const job = heldJob('teste-fechamento')
    t.after(job.release)
    app.deps.jobs.register(job)
    await startHeld(app.deps.jobs, job)
    const closing = app.close()
    job.release()
    await closing
    assert.deepEqual((await runsOf(tdb.db, job.name)).map((r) => r.resultado), ['ok'], 'recorded before the close resolved')
    for (const { name } of app.deps.jobs.list().slice(0, 7)) {
      assert.deepEqual((await runsOf(tdb.db, name)).map((r) => [r.resultado, r.contagem]), [['ok', 0]], name)
    }
  })
})

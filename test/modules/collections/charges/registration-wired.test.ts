// The registration as the service runs it (issue 33): in development, with no BANCO_API_URL, the app's own
// `cobrancas-registro` job registers a charge of an `api` account at the labelled sandbox bank it started in-process
// for it, with the cobv's BR Code; the app's close stops that sandbox.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { mod10 } from '../../../../src/modules/collections/boleto/modulos.ts'
import { testApp, useTestDatabase } from '../../../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, formalizedExample, key, settableClock } from '../../operations/helpers.ts'

describe('the registration wired in the app', () => {
  const tdb = useTestDatabase()

  it('registers through the in-process sandbox bank it starts, and stops it on close', async (t) => {
    const clock = settableClock(EXAMPLE_NOW)
    const logs: { msg?: string, url?: string }[] = []
    const app = await testApp(t, { db: tdb.db, env: { MAIL_WORKER: 'off' }, deps: { clock }, logs, logLevel: 'info' })
    const office = await backOffice(tdb.db, app, clock)
    const { op } = await formalizedExample(office.admin.call)
    const account = created(await office.operador.call('POST', '/api/contas-cobranca',
      { nome: 'Itaú API', banco: '341', agencia: '1234', conta: '24680', conta_digito: String(mod10('123424680')), carteira: '109', transporte: 'api' }))
    created(await office.aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    const charge = created(await office.operador.call('POST', '/api/cobrancas', { titulo_id: op.titulos[0].id, conta_cobranca_id: account.id }, key()))

    const job = app.deps.jobs.list().find((j) => j.name === 'cobrancas-registro')!
    assert.equal(await job.run(clock.now()), 1)
    const read = created(await office.aprovador.call('GET', `/api/cobrancas/${charge.id}`), 200)
    assert.equal(read.estado, 'registrada')
    assert.match(read.pix_copia_e_cola, /pix\.banco-sandbox\.example/, 'the sandbox\'s BR Code, which pays nobody')
    const started = logs.find((l) => l.msg?.startsWith('SANDBOX BANK started in-process'))
    assert.ok(started?.url, 'the sandbox says it is one, and where')

    await app.close()
    await assert.rejects(fetch(started.url), 'the sandbox bank stopped with the app')
  })
})

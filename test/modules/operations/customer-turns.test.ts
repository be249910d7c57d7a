// One customer must not starve the others (issue 31 item 9): a customer's requests past CLIENTE_MAX_SIMULTANEAS
// wait their turn on the instance, and past CLIENTE_MAX_NA_FILA or CLIENTE_ESPERA_MAX_MS are 429
// requisicoes_simultaneas with Retry-After; meanwhile another customer's requests are answered at once. A's
// requests are held by a row lock another session keeps, so they really are in flight: PostgreSQL only.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'
import { holdInAnotherSession, lockWaiters, onPostgresOnly } from '../../helpers/database.ts'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { issueToken } from '../../helpers/api-credentials.ts'
import { backOffice, created, EXAMPLE_NOW, exampleRegisters, exampleTitles, settableClock } from './helpers.ts'

const skip = onPostgresOnly('requests held in flight by another session\'s row lock need PostgreSQL: runs in the PostgreSQL suite (DATABASE_URL set)')

describe('one customer\'s requests at once', { skip }, () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({
    env: { MAIL_WORKER: 'off', DATABASE_POOL_MAX: '10', CLIENTE_MAX_SIMULTANEAS: '2', CLIENTE_MAX_NA_FILA: '1', CLIENTE_ESPERA_MAX_MS: '1500' },
    deps: { clock },
  })

  it('take turns: two run, one waits, the next is 429; another customer is answered meanwhile; all run once the lock goes', async (t) => {
    const a = await backOffice(ctx.db, ctx.app, clock)
    const b = await backOffice(ctx.db, ctx.app, clock)
    const regs = await exampleRegisters(a.operador.call)
    await exampleRegisters(b.operador.call)
    const op = created(await a.operador.call('POST', '/api/operacoes', {
      cedente_id: regs.cedente.id, produto_id: regs.produto.id, titulos: exampleTitles(regs.sacados.map((s: { id: string }) => s.id)),
    }))
    const lock = await holdInAnotherSession(t, ctx.url, [{ text: 'SELECT 1 FROM operacoes WHERE id = $1 FOR UPDATE', values: [op.id] }])

    const settled = new Set<string>()
    const track = <T>(name: string, p: Promise<T>) => p.finally(() => settled.add(name))
    const quotes = [1, 2].map((i) => track(`cotacao${i}`, a.operador.call('POST', `/api/operacoes/${op.id}/cotacao`)))
    await lockWaiters(ctx.url!, 2) // both quotes hold A's two turns
    const waiting = track('espera', a.integration('GET', '/api/cedentes'))
    const refused = await a.operador.call('GET', '/api/cedentes')
    assert.equal(refused.statusCode, 429, refused.body)
    assert.deepEqual(refused.json(), { detail: 'requisicoes_simultaneas' })
    assert.equal(refused.headers['retry-after'], '1')

    const other = await b.operador.call('GET', '/api/cedentes')
    assert.equal(other.statusCode, 200, 'another customer is answered while A\'s requests wait')
    assert.equal(other.json().itens.length, 1)
    assert.equal(settled.has('cotacao1') || settled.has('cotacao2'), false, 'A\'s requests were still held')

    const waited = await waiting
    assert.equal(waited.statusCode, 429, 'the one in line gave up after CLIENTE_ESPERA_MAX_MS')
    assert.deepEqual(waited.json(), { detail: 'requisicoes_simultaneas' })
    assert.equal(settled.has('cotacao1') || settled.has('cotacao2'), false)

    await lock.release()
    const done = await Promise.all(quotes)
    assert.deepEqual(done.map((r) => r.statusCode), [201, 201], done.map((r) => r.body).join('\n'))
    assert.deepEqual(done.map((r) => r.json().versao).sort(), [1, 2])
    assert.equal((await a.operador.call('GET', '/api/cedentes')).statusCode, 200, 'A\'s turns all came back')
  })
})

describe('a turn of a client that went away', { skip }, () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({
    env: { MAIL_WORKER: 'off', CLIENTE_MAX_SIMULTANEAS: '1', CLIENTE_MAX_NA_FILA: '1', CLIENTE_ESPERA_MAX_MS: '1500' }, deps: { clock },
  })

  it('comes back when the client left while its credential was checked (its close was over before a turn was taken)', async (t) => {
    const { clienteId, operador } = await backOffice(ctx.db, ctx.app, clock)
    const { token } = await issueToken(ctx.db, clienteId, { escopos: ['cadastro'], clock })
    await ctx.app.listen({ host: '127.0.0.1', port: 0 })
    const { port } = ctx.app.server.address() as AddressInfo
    const lock = await holdInAnotherSession(t, ctx.url, ['LOCK TABLE tokens IN ACCESS EXCLUSIVE MODE'])
    const leaving = request({ host: '127.0.0.1', port, path: '/api/cedentes', headers: { authorization: `Bearer ${token}` } })
    leaving.on('error', () => {})
    leaving.end()
    await lockWaiters(ctx.url!, 1) // its credential's lookup waits for the lock
    leaving.destroy()
    await new Promise((r) => setTimeout(r, 100))
    await lock.release()
    // With the turn leaked, every later request of the customer would wait CLIENTE_ESPERA_MAX_MS for a 429.
    for (let i = 0; i < 3; i++) {
      const res = await operador.call('GET', '/api/cedentes')
      assert.equal(res.statusCode, 200, res.body)
    }
  })
})


// An export read slowly holds none of its customer's turns (red team, issue 32): with one turn a customer, an
// export whose client has stopped reading still lets a colleague's page be answered; a customer streams at most
// EXPORTS_PER_CUSTOMER exports at once (past that, 429 requisicoes_simultaneas), and a slot comes back when its
// client goes. The exports really are held by a client that stopped reading: over a real socket, on PostgreSQL.
import assert from 'node:assert/strict'
import { request, type ClientRequest, type IncomingMessage } from 'node:http'
import { describe, it } from 'node:test'
import { EXPORTS_PER_CUSTOMER } from '../../../src/platform/http/csv-answer.ts'
import { holdInAnotherSession, lockWaiters, onPostgresOnly } from '../../helpers/database.ts'
import { customerWithTitles } from './many-titles.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { EXAMPLE_NOW, settableClock } from './helpers.ts'

const ROWS = 100_000
const skip = onPostgresOnly('exports held over a real socket by a client that stopped reading: runs in the PostgreSQL suite (DATABASE_URL set)')

/** An export whose client reads its first bytes and then stops reading (kept in `held`): its status. */
function stalledExport(port: number, token: string, held: ClientRequest[]): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/titulos', headers: { authorization: `Bearer ${token}`, accept: 'text/csv' } },
      (res: IncomingMessage) => {
        if (res.statusCode !== 200) {
          res.resume()
          resolve(res.statusCode!)
          return
        }
        res.once('data', () => {
          res.pause()
          resolve(200)
        })
      })
    req.on('error', reject)
    req.end()
    held.push(req)
  })
}

describe('exports and the customer\'s turns', { skip }, () => {
  const clock = settableClock(EXAMPLE_NOW)
  const env = { MAIL_WORKER: 'off', CLIENTE_MAX_SIMULTANEAS: '1', CLIENTE_MAX_NA_FILA: '1', CLIENTE_ESPERA_MAX_MS: '1000' }
  const ctx = useTestApp({ env, deps: { clock } })

  it('an export read slowly gives its turn back; two exports at once, the third refused, a slot back when its client goes', { timeout: 120_000 }, async () => {
    const { office, token, port } = await customerWithTitles(ctx.db, ctx.app, clock, ROWS, 'T-')

    const held: ClientRequest[] = []
    const stalled = () => stalledExport(port, token, held)
    try {
      assert.equal(EXPORTS_PER_CUSTOMER, 2)
      assert.equal(await stalled(), 200)
      const page = await office.operador.call('GET', '/api/cedentes')
      assert.equal(page.statusCode, 200, `a colleague's read while an export waits for its reader: ${page.body}`)

      assert.equal(await stalled(), 200, 'a second export')
      assert.equal(await stalled(), 429, 'a third one at once is refused')
      assert.equal((await office.operador.call('GET', '/api/cedentes')).statusCode, 200, 'and the turns are still free')

      held.shift()!.destroy()
      let again = 0
      for (let i = 0; i < 50 && again !== 200; i++) {
        await new Promise((r) => setTimeout(r, 100))
        again = await stalled()
      }
      assert.equal(again, 200, 'the slot of an export whose client went comes back')
    } finally {
      for (const req of held) req.destroy()
    }
  })

  it('an export whose client goes while its first batch is read gives its slot back', { timeout: 120_000 }, async (t) => {
    const { token, port } = await customerWithTitles(ctx.db, ctx.app, clock, ROWS, 'L-')
    // Each export's first batch waits behind a lock another session holds, and its client goes meanwhile.
    const lock = await holdInAnotherSession(t, ctx.url, ['LOCK TABLE titulos IN ACCESS EXCLUSIVE MODE'])
    for (let i = 1; i <= EXPORTS_PER_CUSTOMER; i++) {
      const req = request({ host: '127.0.0.1', port, path: '/api/titulos', headers: { authorization: `Bearer ${token}`, accept: 'text/csv' } })
      req.on('error', () => {})
      req.end()
      await lockWaiters(ctx.url!, i)
      req.destroy()
      await new Promise((r) => setTimeout(r, 200))
    }
    await lock.release()
    const held: ClientRequest[] = []
    try {
      assert.deepEqual([await stalledExport(port, token, held), await stalledExport(port, token, held)], [200, 200],
        'the slots of the exports whose clients went are free again')
    } finally {
      for (const req of held) req.destroy()
    }
  })
})

// One customer's requests take turns (src/platform/http/customer-turns.ts): at most `running` at once per
// customer, the rest in line first come first served, refused when the line is full or the wait is over or the
// client has gone; another customer never waits in that line.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { customerTurns, type Turn } from '../../../src/platform/http/customer-turns.ts'

const granted = (turn: Turn) => {
  assert.equal(turn.ok, true)
  return (turn as { release: () => void }).release
}

describe('a customer\'s turns', () => {
  it('runs `running` at once; the next wait in order and are served as turns end; another customer goes straight in', async () => {
    const turns = customerTurns({ running: 2, waiting: 5, waitMs: 60_000 })
    const a1 = granted(await turns.take('A'))
    const a2 = granted(await turns.take('A'))
    const order: string[] = []
    const a3 = turns.take('A').then((t) => { order.push('a3'); return granted(t) })
    const a4 = turns.take('A').then((t) => { order.push('a4'); return granted(t) })
    assert.deepEqual(turns.load('A'), { running: 2, waiting: 2 })
    granted(await turns.take('B'))
    assert.deepEqual(turns.load('B'), { running: 1, waiting: 0 }, 'B waits in no line of A\'s')
    a1()
    a1() // a release twice gives one turn, not two
    const r3 = await a3
    assert.deepEqual(order, ['a3'])
    assert.deepEqual(turns.load('A'), { running: 2, waiting: 1 })
    a2()
    const r4 = await a4
    assert.deepEqual(order, ['a3', 'a4'])
    r3()
    r4()
    assert.deepEqual(turns.load('A'), { running: 0, waiting: 0 })
  })

  it('refuses past the line\'s length (fila_cheia) and past the wait (espera_esgotada), and then still serves in turn', async () => {
    const turns = customerTurns({ running: 1, waiting: 1, waitMs: 50 })
    const first = granted(await turns.take('A'))
    const waiting = turns.take('A')
    assert.deepEqual(await turns.take('A'), { ok: false, why: 'fila_cheia' })
    assert.deepEqual(await waiting, { ok: false, why: 'espera_esgotada' })
    assert.deepEqual(turns.load('A'), { running: 1, waiting: 0 })
    first()
    granted(await turns.take('A'))
  })

  it('a request whose client went away leaves the line and takes no turn', async () => {
    const turns = customerTurns({ running: 1, waiting: 3, waitMs: 60_000 })
    const first = granted(await turns.take('A'))
    const gone = new AbortController()
    const leaving = turns.take('A', gone.signal)
    const staying = turns.take('A')
    gone.abort()
    assert.deepEqual(await leaving, { ok: false, why: 'espera_esgotada' })
    first()
    granted(await staying)
    assert.deepEqual(turns.load('A'), { running: 1, waiting: 0 })
  })
})

// onFirstUse (src/platform/lib/on-first-use.ts): a library is loaded once however many ask, and a load that failed (a missing
// native module, a disk error) is tried again by the next caller instead of failing every later one.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { onFirstUse } from '../../../src/platform/lib/on-first-use.ts'

describe('onFirstUse', () => {
  it('loads once for every caller, also concurrent ones', async () => {
    let loads = 0
    const load = onFirstUse(async () => ({ n: ++loads }))
    const [a, b] = await Promise.all([load(), load()])
    assert.equal(a, b)
    assert.equal(await load(), a)
    assert.equal(loads, 1)
  })

  it('a failed load is tried again by the next caller, and kept once it succeeds', async () => {
    let loads = 0
    const load = onFirstUse(async () => {
      if (++loads === 1) throw new Error('not yet')
      return 'loaded'
    })
    await assert.rejects(load(), /not yet/)
    assert.equal(await load(), 'loaded')
    assert.equal(await load(), 'loaded')
    assert.equal(loads, 2)
  })
})

// The token lookups an instance keeps for half a second (lookup-cache.ts), on a clock the test moves: kept for
// that long and no longer, one read for concurrent requests, unknown tokens and failed reads never kept, and
// everything dropped at once by forget().
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { keptTokenLookup, TOKEN_LOOKUP_KEPT_MS } from '../../../src/modules/credentials/tokens/lookup-cache.ts'
import type { FoundToken } from '../../../src/modules/credentials/tokens/store.ts'

const FOUND = { id: 't1' } as FoundToken

function counted(answer: (hash: string) => Promise<FoundToken | undefined> = async () => FOUND) {
  const reads: string[] = []
  let t = 0
  const lookup = keptTokenLookup(async (hash) => { reads.push(hash); return answer(hash) }, { now: () => t })
  return { lookup, reads, advance: (ms: number) => { t += ms } }
}

describe('the kept token lookups', () => {
  it('keeps a found token for TOKEN_LOOKUP_KEPT_MS, then reads it again', async () => {
    const { lookup, reads, advance } = counted()
    assert.equal(await lookup.find('h'), FOUND)
    advance(TOKEN_LOOKUP_KEPT_MS - 1)
    assert.equal(await lookup.find('h'), FOUND)
    assert.equal(reads.length, 1)
    advance(1)
    await lookup.find('h')
    assert.equal(reads.length, 2, 'read again once the half second is over')
    assert.ok(TOKEN_LOOKUP_KEPT_MS < 1000, 'a change made anywhere takes effect within a second')
  })

  it('concurrent requests of one token share one read', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => { release = r })
    const { lookup, reads } = counted(async () => { await gate; return FOUND })
    const all = Promise.all(Array.from({ length: 20 }, () => lookup.find('h')))
    release()
    assert.deepEqual(new Set(await all), new Set([FOUND]))
    assert.equal(reads.length, 1)
  })

  it('an unknown token is never kept: each request reads', async () => {
    const { lookup, reads } = counted(async () => undefined)
    assert.equal(await lookup.find('made-up'), undefined)
    assert.equal(await lookup.find('made-up'), undefined)
    assert.equal(reads.length, 2)
  })

  it('a failed read is not kept: the next request reads again', async () => {
    let fail = true
    const { lookup, reads } = counted(async () => { if (fail) throw new Error('database down'); return FOUND })
    await assert.rejects(lookup.find('h'), /database down/)
    fail = false
    assert.equal(await lookup.find('h'), FOUND)
    assert.equal(reads.length, 2)
  })

  it('forget() drops every kept lookup, and one in flight with them', async () => {
    let release!: () => void
    let gate = Promise.resolve()
    const { lookup, reads } = counted(async () => { await gate; return FOUND })
    await lookup.find('a')
    await lookup.find('b')
    lookup.forget()
    await lookup.find('a')
    assert.deepEqual(reads, ['a', 'b', 'a'])
    gate = new Promise<void>((r) => { release = r })
    const inFlight = lookup.find('c')
    lookup.forget()
    release()
    await inFlight
    await lookup.find('c')
    assert.deepEqual(reads, ['a', 'b', 'a', 'c', 'c'], 'a read in flight at forget() is not kept')
  })
})

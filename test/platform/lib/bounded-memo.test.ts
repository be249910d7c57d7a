// The memo the hot paths share: one decision per key, bounded in entries and in key length.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { BoundedMemo } from '../../../src/platform/lib/bounded-memo.ts'

describe('a bounded memo', () => {
  const counting = () => {
    const calls: string[] = []
    return { calls, decide: (key: string) => () => { calls.push(key); return key.length } }
  }

  it('decides once per key, and the answer is the decision', () => {
    const memo = new BoundedMemo<number>(10)
    const { calls, decide } = counting()
    assert.deepEqual([memo.get('ab', decide('ab')), memo.get('ab', decide('ab')), memo.get('abc', decide('abc'))], [2, 2, 3])
    assert.deepEqual(calls, ['ab', 'abc'])
  })

  it('full, it starts again: the keys seen before are decided anew', () => {
    const memo = new BoundedMemo<number>(2)
    const { calls, decide } = counting()
    for (const key of ['a', 'b', 'c', 'a']) memo.get(key, decide(key))
    assert.deepEqual(calls, ['a', 'b', 'c', 'a'])
  })

  it('a key longer than its bound is answered and never kept', () => {
    const memo = new BoundedMemo<number>(10, 3)
    const { calls, decide } = counting()
    for (const key of ['abcd', 'abcd', 'abc', 'abc']) memo.get(key, decide(key))
    assert.deepEqual(calls, ['abcd', 'abcd', 'abc'])
  })
})

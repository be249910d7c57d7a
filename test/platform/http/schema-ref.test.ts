// ref(): a route or schema points at a named component by $ref (so the contract names it), and an unnamed
// schema is refused at start-up rather than published inline.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Type } from 'typebox'
import { ref } from '../../../src/platform/http/schema-ref.ts'

describe('ref', () => {
  it('is a $ref to the schema\'s $id and nothing else', () => {
    const Named = Type.Object({ a: Type.String() }, { $id: 'Named' })
    assert.deepEqual(JSON.parse(JSON.stringify(ref(Named))), { $ref: 'Named#' })
  })

  it('refuses a schema without an $id', () => {
    assert.throws(() => ref(Type.Object({ a: Type.String() })), /named schema/)
  })
})

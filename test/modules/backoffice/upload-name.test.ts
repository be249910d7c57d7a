// A signed term's file name as the back office passes it on (a review of issue 32): no path, no quote, no control
// or bidi character, at most 200 characters counted as characters, so a cut never splits an emoji into half a
// surrogate pair that no URL can carry (encodeURIComponent throws on one, and the form answered 500).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { keptName } from '../../../src/modules/backoffice/upload.ts'

describe('the file name kept', () => {
  it('drops the path, quotes and unsafe characters, and cuts at 200 characters', () => {
    assert.equal(keptName('C:\\Users\\ana\\"termo"\u202e.pdf'), 'termo.pdf')
    assert.equal(keptName('/tmp/   '), undefined)
    const long = keptName(`${'a'.repeat(199)}😀.pdf`)!
    assert.equal([...long].length, 200)
    assert.equal(long, `${'a'.repeat(199)}😀`)
    assert.doesNotThrow(() => encodeURIComponent(long))
  })
})

// A retorno's body spooled to a private file (retornos/spool.ts): hashed as it arrives (the SHA-256 node:crypto gives
// the whole), read back whole in chunks, refused past its bound with 413 corpo_muito_grande, and its file gone after
// it is disposed of or refused.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { describe, it } from 'node:test'
import { spool } from '../../../../src/modules/collections/retornos/spool.ts'
import { tempDir } from '../../../helpers/temp.ts'

// A directory of this test's own: other test processes spool retornos under the system's at the same time.
const under = tempDir('spool')
const spoolDirs = () => new Set(readdirSync(under).filter((d) => d.startsWith('retorno-')))

describe('a retorno\'s body spooled to disk', () => {
  it('hashes it, gives it back whole, keeps it to its owner, and removes it', async () => {
    const before = spoolDirs()
    const parts = ['0'.repeat(240) + '\r\n', 'é'.repeat(10), '1'.repeat(100_000)].map((s) => Buffer.from(s, 'latin1'))
    const whole = Buffer.concat(parts)
    const file = await spool(Readable.from(parts), 1_000_000, under)
    assert.equal(file.bytes, whole.length)
    assert.equal(file.sha256, createHash('sha256').update(whole).digest('hex'))
    const read: Buffer[] = []
    for await (const c of file.read()) read.push(c)
    assert.ok(Buffer.concat(read).equals(whole))
    const [dir] = [...spoolDirs()].filter((d) => !before.has(d))
    assert.ok(dir, 'spooled under the directory given')
    assert.equal(statSync(join(under, dir!)).mode & 0o777, 0o700)
    await file.dispose()
    assert.deepEqual(spoolDirs(), before)
  })

  it('refuses a body past its bound with 413 corpo_muito_grande and leaves nothing behind', async () => {
    const before = spoolDirs()
    await assert.rejects(spool(Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), 1000, under),
      (err: { statusCode?: number, detail?: string }) => err.statusCode === 413 && err.detail === 'corpo_muito_grande')
    assert.deepEqual(spoolDirs(), before)
  })
})

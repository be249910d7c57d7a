// Password hashing: argon2id with OWASP's parameters, verification, NFKC, the dummy hash for unknown accounts,
// and telling when a stored hash should be made again with the current parameters.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { makePasswordHasher, PASSWORD_HASH_OPTIONS } from '../../../src/modules/credentials/password.ts'

describe('password hashing', () => {
  const hasher = makePasswordHasher()

  it('stores an argon2id PHC string with m=19456 (19 MiB), t=2, p=1, and a fresh salt each time', async () => {
    const a = await hasher.hash('uma senha bem comprida')
    const b = await hasher.hash('uma senha bem comprida')
    assert.match(a, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
    assert.notEqual(a, b)
    assert.ok(!a.includes('uma senha'))
  })

  it('verifies the right password, refuses a wrong one, one differing in case, and another account\'s hash', async () => {
    const stored = await hasher.hash('Cavalo correto bateria grampo')
    assert.equal(await hasher.verify(stored, 'Cavalo correto bateria grampo'), true)
    assert.equal(await hasher.verify(stored, 'cavalo correto bateria grampo'), false)
    assert.equal(await hasher.verify(stored, 'Cavalo correto bateria grampo '), false)
    assert.equal(await hasher.verify(stored, ''), false)
    assert.equal(await hasher.verify(await hasher.hash('outra senha qualquer'), 'Cavalo correto bateria grampo'), false)
  })

  it('a password typed with composed or combining accents is the same password (NFKC)', async () => {
    const composed = 'Ação rápida e segura'.normalize('NFC')
    const decomposed = composed.normalize('NFD')
    assert.notEqual(composed, decomposed)
    assert.equal(await hasher.verify(await hasher.hash(composed), decomposed), true)
    assert.equal(await hasher.verify(await hasher.hash(decomposed), composed), true)
  })

  it('without a stored hash (unknown e-mail, no password set yet) the answer is false', async () => {
    for (const stored of [undefined, null, '']) assert.equal(await hasher.verify(stored, 'qualquer senha longa'), false)
  })

  it('a password over the maximum never matches, even one hashed without the policy', async () => {
    const long = 'x'.repeat(129)
    const stored = await hasher.hash(long)
    assert.equal(await hasher.verify(stored, long), false)
    const longest = 'y'.repeat(128)
    assert.equal(await hasher.verify(await hasher.hash(longest), longest), true)
  })

  it('tells when a stored hash was made with other parameters, which still verify until rehashed', async () => {
    const current = await hasher.hash('senha de hoje em dia')
    assert.equal(await hasher.needsRehash(current), false)
    const older = makePasswordHasher({ ...PASSWORD_HASH_OPTIONS, memoryCost: 8192, timeCost: 3 })
    const old = await older.hash('senha de outros tempos')
    assert.equal(await hasher.needsRehash(old), true)
    assert.equal(await hasher.verify(old, 'senha de outros tempos'), true)
    const argon2i = makePasswordHasher({ ...PASSWORD_HASH_OPTIONS, algorithm: 1 as never })
    assert.equal(await hasher.needsRehash(await argon2i.hash('outro algoritmo')), true)
    for (const other of ['', 'not a hash', '$2b$10$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234', '$argon2id$v=19$broken']) {
      assert.equal(await hasher.needsRehash(other), true, other)
      assert.equal(await hasher.verify(other, 'senha de outros tempos'), false, `${other}: refused, not thrown`)
    }
  })
})

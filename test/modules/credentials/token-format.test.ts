import assert from 'node:assert/strict'
import { test } from 'node:test'
import { newToken, tokenHash, tokenKind, TOKEN_KINDS, type TokenKind } from '../../../src/modules/credentials/token-format.ts'

test('each kind of token carries its prefix, 46 characters, and is recognised as its kind', () => {
  for (const kind of Object.keys(TOKEN_KINDS) as TokenKind[]) {
    const token = newToken(kind)
    assert.ok(token.startsWith(TOKEN_KINDS[kind]))
    assert.equal(token.length, 46)
    assert.equal(tokenKind(token), kind)
  }
})

test('tokens do not repeat and use the whole base62 alphabet', () => {
  const tokens = Array.from({ length: 2000 }, () => newToken('pat'))
  assert.equal(new Set(tokens).size, tokens.length)
  const seen = new Set(tokens.flatMap((t) => [...t.slice(8, 40)]))
  assert.equal(seen.size, 62)
})

test('one changed, dropped or added character is refused by the checksum or the shape', () => {
  const token = newToken('pat')
  for (let i = 8; i < token.length; i++) {
    const c = token[i] === 'a' ? 'b' : 'a'
    assert.equal(tokenKind(token.slice(0, i) + c + token.slice(i + 1)), undefined, `changed at ${i}`)
  }
  assert.equal(tokenKind(token.slice(0, -1)), undefined)
  assert.equal(tokenKind(token + 'a'), undefined)
  assert.equal(tokenKind(token.replace('fct_pat_', 'fct_ses_')), undefined, 'the prefix is covered by the checksum')
  for (const bad of ['', 'Bearer', 'fct_pat_', 'x'.repeat(46), `${token} `]) assert.equal(tokenKind(bad), undefined)
})

test('the stored hash is the hex SHA-256 of the whole token', () => {
  assert.equal(tokenHash('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  const token = newToken('sessao')
  assert.match(tokenHash(token), /^[0-9a-f]{64}$/)
  assert.notEqual(tokenHash(token), tokenHash(newToken('sessao')))
})

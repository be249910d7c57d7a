// The shapes the credential layer checks before any query: a CNPJ's check digits (numeric and, from July 2026,
// alphanumeric), a DPoP key thumbprint, the list of scopes.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { describe, it } from 'node:test'
import { normalizeCnpj } from '../../../src/modules/credentials/customers/cnpj.ts'
import { InvalidScopesError, parseScopes, SCOPES } from '../../../src/modules/credentials/scopes.ts'
import { isJwkThumbprint } from '../../../src/modules/credentials/tokens/thumbprint.ts'

describe('CNPJ', () => {
  it('accepts one whose check digits hold, with or without punctuation, and keeps its 14 characters', () => {
    assert.equal(normalizeCnpj('11.222.333/0001-81'), '11222333000181')
    assert.equal(normalizeCnpj(' 11222333000181 '), '11222333000181')
    assert.equal(normalizeCnpj('04.252.011/0001-10'), '04252011000110')
  })

  it('accepts the alphanumeric CNPJ of the Receita Federal\'s own example, in either case', () => {
    assert.equal(normalizeCnpj('12.ABC.345/01DE-35'), '12ABC34501DE35')
    assert.equal(normalizeCnpj('12abc34501de35'), '12ABC34501DE35')
  })

  for (const bad of ['11.222.333/0001-82', '11.222.333/0001-18', '12.ABC.345/01DE-36', '00000000000000', '99999999999999', '1122233300018',
    '112223330001811', '11.222.333/0001-8A', '11 222 333 0001 81', '', 'CNPJ']) {
    it(`refuses "${bad}"`, () => { assert.equal(normalizeCnpj(bad), undefined) })
  }
})

describe('DPoP key thumbprint', () => {
  const real = createHash('sha256').update('a JWK').digest('base64url')

  it('is 43 base64url characters that are exactly 32 bytes', () => {
    assert.equal(real.length, 43)
    assert.ok(isJwkThumbprint(real))
  })

  for (const [why, value] of [
    ['one character short', real.slice(1)], ['one character more', `${real}A`], ['padded', `${real}=`],
    ['base64, not base64url', `${real.slice(0, 42)}+`], ['a last character with bits past the 32nd byte', `${real.slice(0, 42)}B`],
    ['a SHA-1 thumbprint', createHash('sha1').update('a JWK').digest('base64url')], ['hex', createHash('sha256').update('x').digest('hex')],
  ] as const) {
    it(`refuses ${why}`, () => { assert.equal(isJwkThumbprint(value), false) })
  }
})

describe('scopes', () => {
  it('one list: conta, tokens, mcp and the product\'s areas', () => {
    assert.deepEqual([...SCOPES], ['conta', 'tokens', 'mcp', 'cadastro', 'operacoes', 'aprovacao', 'financeiro', 'cobranca', 'webhooks'])
  })

  it('a comma-separated list, spaces allowed, repeats dropped', () => {
    assert.deepEqual(parseScopes('conta, tokens,conta'), ['conta', 'tokens'])
  })

  it('refuses an empty list and names unknown scopes', () => {
    assert.throws(() => parseScopes(' , '), (err: Error) => err instanceof InvalidScopesError && /at least one scope/.test(err.message))
    assert.throws(() => parseScopes('conta,admin,root'), (err: Error) => err instanceof InvalidScopesError && /unknown scopes "admin", "root"/.test(err.message))
  })
})

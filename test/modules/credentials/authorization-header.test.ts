// Parsing `Authorization`: Bearer and DPoP in any case with one token68, typed refusals for everything else,
// never a throw. Examples first, then properties over generated headers (fast-check).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { parseAuthorization, type ParsedAuthorization } from '../../../src/modules/credentials/http/authorization.ts'
import { newToken } from '../../../src/modules/credentials/token-format.ts'

const RUNS = 2000
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/
const FAILURES = ['missing', 'multiple', 'unsupported_scheme', 'malformed']

const token68 = fc.tuple(
  fc.stringMatching(/^[A-Za-z0-9\-._~+/]{1,80}$/),
  fc.integer({ min: 0, max: 3 }),
).map(([body, pad]) => body + '='.repeat(pad))
const schemeCase = (scheme: string) => fc.array(fc.boolean(), { minLength: scheme.length, maxLength: scheme.length })
  .map((upper) => [...scheme].map((c, i) => upper[i] ? c.toUpperCase() : c.toLowerCase()).join(''))
const odd = fc.constantFrom(' ', '\t', ',', '"', '=', ';', ':', 'ç', '😀', '\u0000', '\r', '\n', '\ud800', '\\', '(', '@')
const anyHeader = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.string({ unit: 'binary', maxLength: 120 }),
  fc.tuple(fc.constantFrom('Bearer', 'DPoP', 'bearer', 'dpop', 'Basic', 'Digest', ''), fc.string({ maxLength: 60 }), odd)
    .map(([s, rest, c]) => `${s} ${rest}${c}`),
)

function assertTyped(result: ParsedAuthorization): void {
  if (result.ok) {
    assert.ok(result.scheme === 'Bearer' || result.scheme === 'DPoP')
    assert.match(result.token, TOKEN68)
  } else {
    assert.ok(FAILURES.includes(result.failure), result.failure)
  }
}

describe('the Authorization header', () => {
  it('reads Bearer and DPoP with their token, whatever the scheme\'s case', () => {
    const token = newToken('pat')
    assert.deepEqual(parseAuthorization(`Bearer ${token}`), { ok: true, scheme: 'Bearer', token })
    assert.deepEqual(parseAuthorization(`DPoP ${token}`), { ok: true, scheme: 'DPoP', token })
    assert.deepEqual(parseAuthorization(`bEaReR ${token}`), { ok: true, scheme: 'Bearer', token })
    assert.deepEqual(parseAuthorization([`DPOP   ${token}`]), { ok: true, scheme: 'DPoP', token })
    assert.deepEqual(parseAuthorization('Bearer abc+/=='), { ok: true, scheme: 'Bearer', token: 'abc+/==' })
  })

  it('refuses, by name, what is not one credential of ours', () => {
    const token = newToken('pat')
    const cases: [string | string[] | undefined, string][] = [
      [undefined, 'missing'], [[], 'missing'],
      [[`Bearer ${token}`, `Bearer ${token}`], 'multiple'],
      ['Basic dXNlcjpwYXNz', 'unsupported_scheme'], ['Token abc', 'unsupported_scheme'], ['Bearerx abc', 'unsupported_scheme'],
      ['', 'malformed'], ['Bearer', 'malformed'], ['Bearer ', 'malformed'], [`Bearer ${token} extra`, 'malformed'],
      [`Bearer ${token},`, 'malformed'], ['Bearer =abc', 'malformed'], ['Bearer a=b', 'malformed'], [`Bearer\t${token}`, 'malformed'],
      [' Bearer abc', 'malformed'], ['DPoP realm="api"', 'malformed'], ['Bearer tøken', 'malformed'], ['Bearer "abc"', 'malformed'],
    ]
    for (const [value, failure] of cases) assert.deepEqual(parseAuthorization(value), { ok: false, failure }, JSON.stringify(value))
  })

  it('never throws, and answers only a well-formed credential or a named failure, for any header values', () => {
    fc.assert(fc.property(fc.oneof(anyHeader, fc.array(anyHeader, { maxLength: 3 })), (value) => {
      assertTyped(parseAuthorization(value))
    }), { numRuns: RUNS })
  })

  it('any Bearer or DPoP in any case with any token68 and spaces between reads back as that scheme and token', () => {
    const credential = fc.tuple(fc.constantFrom('Bearer', 'DPoP').chain((s) => schemeCase(s).map((c) => [s, c] as const)),
      fc.integer({ min: 1, max: 3 }), token68)
    fc.assert(fc.property(credential, ([[scheme, written], spaces, token]) => {
      assert.deepEqual(parseAuthorization(`${written}${' '.repeat(spaces)}${token}`), { ok: true, scheme, token })
    }), { numRuns: RUNS })
  })

  it('a token with any character outside token68 in it is malformed', () => {
    fc.assert(fc.property(fc.constantFrom('Bearer', 'DPoP'), token68, odd, token68, (scheme, a, c, b) => {
      const result = parseAuthorization(`${scheme} ${a.replace(/=+$/, '')}${c}${b}`)
      assert.deepEqual(result, { ok: false, failure: 'malformed' })
    }), { numRuns: RUNS })
  })
})

// WWW-Authenticate of the API's 401 and 403: Bearer and DPoP offered together, DPoP with its algs, and each error
// on the challenge it concerns, as RFC 6750 section 3 and RFC 9449 sections 7.1 and 9 show them.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { DEFAULT_DPOP_ALGORITHMS } from '../../../src/modules/credentials/dpop/algorithms.ts'
import { wwwAuthenticate } from '../../../src/modules/credentials/http/www-authenticate.ts'

const algs = ['ES256', 'EdDSA']

describe('WWW-Authenticate', () => {
  it('without a credential: both schemes, DPoP with its algorithms, no error', () => {
    assert.equal(wwwAuthenticate({ algs }), 'Bearer realm="api", DPoP realm="api", algs="ES256 EdDSA"')
    assert.equal(wwwAuthenticate({ algs: DEFAULT_DPOP_ALGORITHMS }),
      'Bearer realm="api", DPoP realm="api", algs="ES256 ES384 EdDSA Ed25519 PS256 RS256"')
  })

  it('a bad token: invalid_token on the scheme the client used', () => {
    assert.equal(wwwAuthenticate({ algs, error: 'invalid_token' }),
      'Bearer realm="api", error="invalid_token", DPoP realm="api", algs="ES256 EdDSA"')
    assert.equal(wwwAuthenticate({ algs, error: 'invalid_token', scheme: 'DPoP' }),
      'Bearer realm="api", DPoP realm="api", error="invalid_token", algs="ES256 EdDSA"')
  })

  it('a bad proof or a missing nonce: the error on DPoP\'s challenge, whatever scheme is named', () => {
    for (const scheme of [undefined, 'Bearer', 'DPoP'] as const) {
      assert.equal(wwwAuthenticate({ algs, error: 'invalid_dpop_proof', scheme }),
        'Bearer realm="api", DPoP realm="api", error="invalid_dpop_proof", algs="ES256 EdDSA"')
      assert.equal(wwwAuthenticate({ algs, error: 'use_dpop_nonce', scheme, description: 'Resource server requires nonce in DPoP proof' }),
        'Bearer realm="api", DPoP realm="api", error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof", algs="ES256 EdDSA"')
    }
  })

  it('a resource with an RFC 9728 document names it on both challenges, after the error (section 5.1)', () => {
    const resourceMetadata = 'https://api.fatorial.example/.well-known/oauth-protected-resource/api/mcp'
    assert.equal(wwwAuthenticate({ algs, resourceMetadata }),
      `Bearer realm="api", resource_metadata="${resourceMetadata}", DPoP realm="api", algs="ES256 EdDSA", resource_metadata="${resourceMetadata}"`)
    assert.equal(wwwAuthenticate({ algs, resourceMetadata, error: 'insufficient_scope', scope: ['mcp'] }),
      `Bearer realm="api", error="insufficient_scope", scope="mcp", resource_metadata="${resourceMetadata}", `
      + `DPoP realm="api", algs="ES256 EdDSA", resource_metadata="${resourceMetadata}"`)
  })

  it('a missing scope: insufficient_scope with the scopes the request needs', () => {
    assert.equal(wwwAuthenticate({ algs, error: 'insufficient_scope', scheme: 'DPoP', scope: ['tokens', 'conta:ler'] }),
      'Bearer realm="api", DPoP realm="api", error="insufficient_scope", scope="tokens conta:ler", algs="ES256 EdDSA"')
  })

  it('a description cannot break out of its quotes or add a line; a scope or alg that is not a token is refused', () => {
    const header = wwwAuthenticate({ algs, error: 'invalid_token', description: 'a"b\\c\r\nSet-Cookie: x=1 ç' })
    assert.equal(header, 'Bearer realm="api", error="invalid_token", error_description="abcSet-Cookie: x=1 ", DPoP realm="api", algs="ES256 EdDSA"')
    assert.throws(() => wwwAuthenticate({ algs, error: 'insufficient_scope', scope: ['a b'] }), TypeError)
    assert.throws(() => wwwAuthenticate({ algs: ['ES256"'] }), TypeError)
  })

  it('any description gives a value of visible ASCII with balanced quotes', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (description) => {
      const header = wwwAuthenticate({ algs, error: 'invalid_dpop_proof', description })
      assert.match(header, /^[\x20-\x7E]*$/)
      assert.equal(header.replace(/\\./g, '').split('"').length % 2, 1)
    }), { numRuns: 1000 })
  })
})

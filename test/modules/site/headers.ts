// What every site response must carry (shared by the site's test files).
import assert from 'node:assert/strict'

export function assertSiteHeaders(headers: Record<string, unknown>, what: string, production = false): void {
  const csp = String(headers['content-security-policy'] ?? '')
  assert.match(csp, /default-src 'none'/, `${what}: CSP default-src`)
  assert.match(csp, /script-src 'self'(;|$)/, `${what}: CSP script-src self only`)
  assert.match(csp, /style-src 'self'(;|$)/, `${what}: CSP style-src self only`)
  assert.match(csp, /frame-ancestors 'none'/, `${what}: CSP frame-ancestors`)
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:|\*|data:/, `${what}: CSP allows nothing inline or third-party`)
  assert.equal(headers['x-content-type-options'], 'nosniff', `${what}: nosniff`)
  assert.equal(headers['referrer-policy'], 'strict-origin-when-cross-origin', `${what}: Referrer-Policy`)
  assert.match(String(headers.vary ?? ''), /(^|,\s*)Accept(\s*,|$)/, `${what}: Vary: Accept`)
  if (production) assert.match(String(headers['strict-transport-security']), /^max-age=\d{7,}/, `${what}: HSTS`)
  else assert.equal(headers['strict-transport-security'], undefined, `${what}: no HSTS outside producao`)
}

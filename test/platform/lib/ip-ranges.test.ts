// makeIpMatcher: the allowlist and trusted-proxy ranges, matched per request.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { makeIpMatcher } from '../../../src/platform/lib/ip-ranges.ts'

describe('makeIpMatcher (allowlist and proxies)', () => {
  it('matches addresses and ranges, IPv4, IPv6 and IPv4-mapped IPv6', () => {
    const match = makeIpMatcher(['10.0.0.0/8', '192.0.2.1', '2001:db8::/32'])
    for (const ip of ['10.0.0.1', '10.255.255.255', '192.0.2.1', '::ffff:10.1.2.3', '2001:db8::1', '2001:db8:ffff::1']) assert.equal(match(ip), true, ip)
    for (const ip of ['11.0.0.1', '192.0.2.2', '2001:db9::1', '::1', '', 'garbage']) assert.equal(match(ip), false, ip)
  })

  it('answers the same when asked again, and past the size of its memo', () => {
    const match = makeIpMatcher(['10.0.0.0/8'])
    for (let i = 0; i < 12_000; i++) assert.equal(match(`10.${i >> 8 & 255}.${i & 255}.1`), true)
    for (let i = 0; i < 12_000; i++) assert.equal(match(`11.${i >> 8 & 255}.${i & 255}.1`), false)
    assert.equal(match('10.0.0.1'), true)
    assert.equal(match('11.0.0.1'), false)
  })

  it('matches nothing when the list is empty', () => {
    assert.equal(makeIpMatcher([])('10.0.0.1'), false)
  })
})

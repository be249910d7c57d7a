// Where a webhook may be delivered (issue 34): public unicast addresses only, an IPv4 address carried inside IPv6
// judged as itself, the operator's networks allowed. The ranges are IANA's special-purpose registries (RFC 6890 and
// its updates), written out here from the registries, not from the code's classification. And the sender refuses at
// connect time: a name that resolves to a forbidden address is refused when the request is made, not only when saved.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { addressPolicy } from '../../../src/modules/webhooks/address-policy.ts'
import { FORBIDDEN_ADDRESS, makeSender } from '../../../src/modules/webhooks/sender.ts'
import { urlCheck } from '../../../src/modules/webhooks/url-check.ts'
import { receiver } from './receiver.ts'

const REFUSED = [
  '0.0.0.0', '10.0.0.1', '100.64.0.1', '127.0.0.1', '127.255.255.254', '169.254.169.254', '172.16.0.1', '172.31.255.255', '192.0.0.8', '192.0.2.1',
  '192.168.1.1', '198.18.0.1', '198.51.100.7', '203.0.113.9', '224.0.0.1', '240.0.0.1', '255.255.255.255',
  '::', '::1', 'fe80::1', 'fc00::1', 'fd00:ec2::254', 'ff02::1', '2001:db8::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254',
  '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  // IPv4-translated (RFC 6145) and the deprecated IPv4-compatible ::/96 (red team of issue 34: the first threw).
  '::ffff:0:7f00:1', '::ffff:0:a9fe:a9fe', '::a9fe:a9fe', '::7f00:1', '::808:808',
]
const ALLOWED = ['8.8.8.8', '1.1.1.1', '200.160.2.3', '172.32.0.1', '2001:4860:4860::8888', '2804:14c::1', '::ffff:8.8.8.8']

describe('webhook addresses', () => {
  it('refuses every special-purpose range and takes public addresses', () => {
    const allowed = addressPolicy([])
    for (const a of REFUSED) assert.equal(allowed(a), false, a)
    for (const a of ALLOWED) assert.equal(allowed(a), true, a)
    assert.equal(allowed('not an address'), false)
  })

  it('allows the operator\'s networks, and only those', () => {
    const allowed = addressPolicy(['127.0.0.0/8', '10.20.0.0/16'])
    assert.equal(allowed('127.0.0.1'), true)
    assert.equal(allowed('::ffff:127.0.0.1'), true)
    assert.equal(allowed('10.20.3.4'), true)
    assert.equal(allowed('10.21.0.1'), false)
    assert.equal(allowed('169.254.169.254'), false)
  })

  it('checks a saved URL: scheme, userinfo, fragment, and every address its name resolves to', async () => {
    const resolve = async (h: string) => (h === 'duplo.example' ? ['8.8.8.8', '10.0.0.1'] : ['8.8.8.8'])
    const check = urlCheck({ allowed: addressPolicy([]), production: true, resolve })
    assert.deepEqual(await check('https://erp.example/eventos'), { url: 'https://erp.example/eventos' })
    assert.ok('problem' in await check('http://erp.example/eventos'), 'http in production')
    assert.ok('problem' in await check('https://u:p@erp.example/eventos'))
    assert.ok('problem' in await check('https://erp.example/eventos#x'))
    assert.ok('problem' in await check('https://duplo.example/eventos'), 'one of its addresses is private')
    assert.ok('problem' in await check('https://[::ffff:a9fe:a9fe]/'))
    const dev = urlCheck({ allowed: addressPolicy([]), production: false, resolve: async () => ['8.8.8.8'] })
    assert.ok('url' in await dev('http://erp.example/eventos'), 'http outside production')
  })

  it('refuses at connect time a name that resolves to a forbidden address, and an address written in the URL', async (t) => {
    const rec = await receiver()
    t.after(() => rec.close())
    const port = new URL(rec.url).port
    const strict = makeSender({ allowed: addressPolicy([]), timeoutMs: 2000, userAgent: 'test' })
    const byName = await strict(`http://localhost:${port}/hook`, '{}', {})
    assert.deepEqual([byName.status, 'error' in byName && byName.error], [null, FORBIDDEN_ADDRESS])
    const byAddress = await strict(`http://127.0.0.1:${port}/hook`, '{}', {})
    assert.deepEqual([byAddress.status, 'error' in byAddress && byAddress.error], [null, FORBIDDEN_ADDRESS])
    assert.equal(rec.got.length, 0, 'nothing reached the receiver')
    const open = makeSender({ allowed: addressPolicy(['127.0.0.0/8', '::1/128']), timeoutMs: 2000, userAgent: 'test' })
    const ok = await open(`http://localhost:${port}/hook`, '{"a":1}', { 'webhook-id': 'x' })
    assert.equal(ok.status, 200)
    assert.equal(rec.got[0]!.body, '{"a":1}')
  })
})

// The static files: fingerprinted names, ETag and 304, year-long immutable caching, Brotli and gzip,
// the site's security headers; and nothing from a CDN.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { before, describe, it } from 'node:test'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { useTestApp } from '../../helpers/fixture.ts'
import { assertSiteHeaders } from './headers.ts'

describe('site assets', () => {
  let urls: string[]
  const ctx = useTestApp()
  before(async () => {
    const html = (await ctx.app.inject({ url: '/' })).body
    urls = [...new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!))]
  })

  it('the layout names a stylesheet, a script and an icon, all fingerprinted by their content', async () => {
    assert.deepEqual(urls.map((u) => u.replace(/\.[0-9a-f]{10}\./, '.HASH.')).sort(), ['/assets/icone.HASH.svg', '/assets/site.HASH.css', '/assets/site.HASH.js'])
    for (const url of urls) {
      const res = await ctx.app.inject({ url })
      assert.equal(res.statusCode, 200, url)
      const hash = createHash('sha256').update(res.rawPayload).digest('hex')
      assert.ok(url.includes(`.${hash.slice(0, 10)}.`), `${url}: the name carries the content's hash`)
      assert.equal(res.headers.etag, `"${hash.slice(0, 27)}"`)
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable')
      assertSiteHeaders(res.headers, url)
    }
  })

  it('answers 304 to a matching If-None-Match', async () => {
    for (const url of urls) {
      const { etag } = (await ctx.app.inject({ url })).headers
      const res = await ctx.app.inject({ url, headers: { 'if-none-match': `W/"other", ${String(etag)}` } })
      assert.equal(res.statusCode, 304, url)
      assert.equal(res.body, '')
      assert.equal(res.headers.etag, etag)
    }
  })

  it('serves them compressed (br, gzip) by Accept-Encoding, with Vary', async () => {
    for (const url of urls) {
      const plain = (await ctx.app.inject({ url })).rawPayload
      const br = await ctx.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } })
      assert.equal(br.headers['content-encoding'], 'br')
      assert.deepEqual(brotliDecompressSync(br.rawPayload), plain)
      assert.ok(br.rawPayload.length < plain.length, `${url}: smaller`)
      const gz = await ctx.app.inject({ url, headers: { 'accept-encoding': 'gzip' } })
      assert.equal(gz.headers['content-encoding'], 'gzip')
      assert.deepEqual(gunzipSync(gz.rawPayload), plain)
      assert.match(String(gz.headers.vary), /Accept-Encoding/)
    }
  })

  it('content types are right and the script is a bundled module with no import from elsewhere', async () => {
    const types = Object.fromEntries(await Promise.all(urls.map(async (u) => [u.split('.').pop(), (await ctx.app.inject({ url: u })).headers['content-type']])))
    assert.deepEqual(types, { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8', svg: 'image/svg+xml' })
    const js = (await ctx.app.inject({ url: urls.find((u) => u.endsWith('.js'))! })).body
    assert.doesNotMatch(js, /\bimport\s*[({'"]|https?:\/\//)
  })

  it('an unknown asset is the 404 page, with the site headers', async () => {
    const res = await ctx.app.inject({ url: '/assets/site.0000000000.css' })
    assert.equal(res.statusCode, 404)
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8')
    assertSiteHeaders(res.headers, 'unknown asset')
  })

  it('/favicon.ico points at the icon', async () => {
    const res = await ctx.app.inject({ url: '/favicon.ico' })
    assert.equal(res.statusCode, 301)
    assert.match(String(res.headers.location), /^\/assets\/icone\.[0-9a-f]{10}\.svg$/)
  })
})

describe('site assets as the build leaves them', () => {
  it('each compressed form in dist/ is named by the hash of the file beside it and decompresses to that file', async () => {
    const { existsSync, readdirSync, readFileSync } = await import('node:fs')
    const dir = new URL('../../../dist/modules/site/assets/', import.meta.url)
    assert.ok(existsSync(dir), 'dist/ is missing: npm test builds it first for this file (scripts/test.mjs)')
    const files = readdirSync(dir).filter((f) => !/\.(br|gzip)$/.test(f))
    assert.deepEqual(files.sort(), ['icone.svg', 'site.css', 'site.js'])
    for (const file of files) {
      const body = readFileSync(new URL(file, dir))
      const hash = createHash('sha256').update(body).digest('hex').slice(0, 16)
      const forms = readdirSync(dir).filter((f) => f.startsWith(`${file}.`)).sort()
      assert.deepEqual(forms, [`${file}.${hash}.br`, `${file}.${hash}.gzip`], `${file}: one current form of each encoding, none stale`)
      assert.deepEqual(brotliDecompressSync(readFileSync(new URL(forms[0]!, dir))), body)
      assert.deepEqual(gunzipSync(readFileSync(new URL(forms[1]!, dir))), body)
    }
  })
})

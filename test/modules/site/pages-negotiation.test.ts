// The Accept negotiation table on every site page (and the 404 page): the Markdown or the HTML, or 406, with the site's headers.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'
import { PAGES } from '../../helpers/site-pages.ts'
import { assertSiteHeaders } from './headers.ts'

const source = (name: string) => readFileSync(new URL(`../../../content/${name}.md`, import.meta.url), 'utf8')

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8'

/** Accept header → the expected answer. */
const TABLE: [string | undefined, 'html' | 'markdown' | 406][] = [
  [undefined, 'html'],
  ['*/*', 'html'],
  [BROWSER, 'html'],
  ['text/html', 'html'],
  ['text/*', 'html'],
  ['text/markdown', 'markdown'],
  ['text/markdown; charset=utf-8', 'markdown'],
  ['text/markdown, */*;q=0.1', 'markdown'],
  // q-values both ways
  ['text/markdown;q=0.9, text/html', 'html'],
  ['text/html;q=0.8, text/markdown;q=0.9', 'markdown'],
  ['text/markdown;q=0.5, text/html;q=0.8', 'html'],
  ['text/html;q=0.5, text/markdown', 'markdown'],
  // equal q: the order the client wrote
  ['text/markdown, text/html', 'markdown'],
  ['text/html, text/markdown', 'html'],
  // q=0 refuses even next to a wildcard
  ['text/markdown;q=0, */*', 'html'],
  ['text/html;q=0, */*', 'markdown'],
  ['application/json', 406],
  ['image/png, application/pdf', 406],
  ['text/html;q=0, text/markdown;q=0', 406],
  ['*/*;q=0', 406],
]

describe('site pages: negotiation and headers', () => {
  const ctx = useTestApp({ env: { PUBLIC_URL: 'https://site.example' } })

  for (const page of PAGES) {
    describe(`${page.path} (${page.source}.md)`, () => {
      for (const [accept, expected] of TABLE) {
        it(`Accept: ${accept ?? '(none)'} → ${expected}`, async () => {
          const res = await ctx.app.inject({ url: page.path, headers: accept === undefined ? {} : { accept } })
          const what = `${page.path} with ${accept}`
          assertSiteHeaders(res.headers, what)
          if (expected === 406) {
            assert.equal(res.statusCode, 406, what)
            assert.equal(res.json().detail, 'nao_aceitavel')
            return
          }
          assert.equal(res.statusCode, page.status, what)
          if (expected === 'markdown') {
            assert.equal(res.headers['content-type'], 'text/markdown; charset=utf-8', what)
            assert.equal(res.headers.link, undefined, `${what}: no Link on Markdown`)
            assert.match(res.body, /^# \S/, `${what}: starts with the title`)
            assert.doesNotMatch(res.body, /<(html|nav|header|footer|script|div)\b/i, `${what}: no chrome`)
          } else {
            assert.equal(res.headers['content-type'], 'text/html; charset=utf-8', what)
            assert.equal(res.headers.link, `<${page.path}>; rel="alternate"; type="text/markdown"`, what)
            assert.match(res.body, /^<!doctype html>/, what)
          }
        })
      }

      it('the Markdown is the page\'s own source (placeholders filled), the HTML its rendering in the layout', async () => {
        const md = (await ctx.app.inject({ url: page.path, headers: { accept: 'text/markdown' } })).body
        const html = (await ctx.app.inject({ url: page.path })).body
        // Every line of the source that is not a placeholder is in the answer, in order.
        let at = 0
        for (const line of source(page.source).split('\n').filter((l) => l.trim() && !l.includes('{{'))) {
          const found = md.indexOf(line, at)
          assert.ok(found >= 0, `${page.path}: source line missing from the Markdown: ${line}`)
          at = found + line.length
        }
        assert.doesNotMatch(md, /\{\{[a-z0-9_]+\}\}/, 'no placeholder left')
        const title = /^# (.+)$/m.exec(md)![1]!
        assert.ok(html.includes(`<h1>${title}</h1>`), `${page.path}: the HTML has the Markdown's title`)
        assert.match(html, /<html lang="pt-BR">/)
        assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/)
        assert.match(html, /<nav aria-label="Principal">/)
        assert.match(html, /<footer/)
        assert.match(html, /<link rel="alternate" type="text\/markdown"/)
      })

      it('HTML has no inline script, style or event handler', async () => {
        const html = (await ctx.app.inject({ url: page.path })).body
        for (const tag of html.match(/<script\b[^>]*>/g) ?? []) assert.match(tag, /\ssrc="\/assets\/[^"]+"/, `external script only: ${tag}`)
        assert.doesNotMatch(html, /<script\b[^>]*>[^<]+<\/script>/, 'no script body')
        assert.doesNotMatch(html, /<style\b/i, 'no style element')
        assert.doesNotMatch(html, /\sstyle=/i, 'no style attribute')
        assert.doesNotMatch(html, /\son[a-z]+=/i, 'no event handler attribute')
        assert.doesNotMatch(html, /(src|href)="(https?:)?\/\/(?!127\.0\.0\.1)/, 'no third-party resource')
      })

      it('HEAD answers the same headers without a body', async () => {
        const res = await ctx.app.inject({ method: 'HEAD', url: page.path })
        assert.equal(res.statusCode, page.status)
        assert.equal(res.body, '')
        assertSiteHeaders(res.headers, `HEAD ${page.path}`)
      })
    })
  }
})

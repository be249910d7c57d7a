// html`…` (src/platform/lib/html.ts): every value escaped unless it is Html, nothing for null/undefined/false, numbers as text,
// arrays joined; and the places where escaping cannot help refused.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { html, join, raw, type HtmlValue } from '../../../src/platform/lib/html.ts'

const render = (h: { toString(): string }) => h.toString()

describe('html`…`', () => {
  it('escapes & < > " \' in text and in quoted attribute values', () => {
    const v = `a & b < c > d " e ' f`
    assert.equal(render(html`<p title="${v}">${v}</p>`), '<p title="a &amp; b &lt; c &gt; d &quot; e &#39; f">a &amp; b &lt; c &gt; d &quot; e &#39; f</p>')
    assert.equal(render(html`<p title='${v}'>x</p>`), `<p title='a &amp; b &lt; c &gt; d &quot; e &#39; f'>x</p>`)
    assert.equal(render(html`<p>${'&amp;'}</p>`), '<p>&amp;amp;</p>', 'an entity typed as text is text')
  })

  it('renders null, undefined, false and the empty string as nothing; numbers as text', () => {
    assert.equal(render(html`<p>${null}${undefined}${false}${''}</p>`), '<p></p>')
    assert.equal(render(html`<p data-n="${0}">${42}, ${-1.5}</p>`), '<p data-n="0">42, -1.5</p>')
    const hidden = (on: boolean) => html`<div${on && html` hidden`}>`
    assert.equal(render(hidden(true)), '<div hidden>')
    assert.equal(render(hidden(false)), '<div>')
  })

  it('nests: Html goes in as markup, once, however deep', () => {
    const name = '<b>Ana</b>'
    const inner = html`<em>${name}</em>`
    assert.equal(render(html`<p>${inner}</p>`), '<p><em>&lt;b&gt;Ana&lt;/b&gt;</em></p>')
    assert.equal(render(html`<div>${html`<p>${inner}</p>`}</div>`), '<div><p><em>&lt;b&gt;Ana&lt;/b&gt;</em></p></div>')
  })

  it('joins arrays, escaping their strings and keeping their Html; join() puts a separator between', () => {
    const items: HtmlValue[] = ['<a>', html`<li>b</li>`, [1, null, ['<c>']]]
    assert.equal(render(html`<ul>${items}</ul>`), '<ul>&lt;a&gt;<li>b</li>1&lt;c&gt;</ul>')
    assert.equal(render(join([html`<tr>1</tr>`, html`<tr>2</tr>`, '<x>'], '\n')), '<tr>1</tr>\n<tr>2</tr>\n&lt;x&gt;')
    assert.equal(render(join(['a', 'b'], '<&>')), 'a&lt;&amp;&gt;b', 'the separator is text')
  })

  it('raw() is passed through untouched: the one way to trust a string', () => {
    const svg = '<svg viewBox="0 0 1 1"><path d="M0 0"/></svg>'
    assert.equal(render(html`<span>${raw(svg)}</span>`), `<span>${svg}</span>`)
  })

  it('a string made to look like Html is still escaped: only html`…` and raw() make Html', () => {
    const forged = { toString: () => '<script>x</script>' } as unknown as string
    assert.equal(render(html`<p>${forged}</p>`), '<p>&lt;script&gt;x&lt;/script&gt;</p>')
  })

  it('refuses an unquoted attribute value, the first time its template is used', () => {
    assert.throws(() => html`<a href=${'/x'}>`, /quote the attribute value/)
    assert.throws(() => html` title=${'x'}`, /quote the attribute value/, 'an attributes-only template too')
  })

  it('refuses text between a tag\'s attributes, where a word needs no quote to become one; Html and nothing pass', () => {
    const attack = 'autofocus onfocus=alert(1)' as HtmlValue
    assert.throws(() => html`<input ${attack}>`, /only Html may stand between a tag's attributes/)
    assert.throws(() => html`<input type="text" ${attack}>`, /only Html/)
    assert.equal(render(html`<input ${html`required`}${false}${''}>`), '<input required>')
    assert.equal(render(html`<p>a=${'b'}</p>`), '<p>a=b</p>', 'an equals sign in text is text')
  })

  it('a link attribute whose value starts with another scheme than http(s) or mailto gets "#"', () => {
    const link = (href: string) => render(html`<a href="${href}">x</a>`)
    for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'java\tscript:x', 'data:text/html,<p>', 'vbscript:x']) {
      assert.equal(link(bad), '<a href="#">x</a>', bad)
    }
    for (const good of ['https://a.example/?q=1&r=2', 'http://a', 'mailto:a@b.example', '/conta', '#topo', '?aviso=saiu', 'pagina', '/x:y']) {
      assert.equal(link(good), `<a href="${good.replace(/&/g, '&amp;')}">x</a>`, good)
    }
    assert.equal(render(html`<form action="${'javascript:x'}"><img src="${'data:x'}"></form>`), '<form action="#"><img src="#"></form>')
    assert.equal(render(html`href="${'javascript:x'}"`), 'href="#"', 'in a template of attributes alone too')
    assert.equal(render(html`<a title="${'javascript:x'}">`), '<a title="javascript:x">', 'not a link attribute: text as it is')
    assert.equal(render(html`<a href="/conta/${'javascript:x'}">`), '<a href="/conta/javascript:x">', 'after a path: no scheme to fear')
  })
})

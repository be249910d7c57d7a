// Markdown to HTML for the site's pages. Raw HTML in Markdown is shown as text, never passed through: the
// pages' markup comes only from the layout and the components, and live values cannot inject any.
import { Marked, type Tokens } from 'marked'
import { html, raw, type Html } from '../../platform/lib/html.ts'
import { escapeMarkdown } from '../../platform/lib/markdown-escape.ts'

export { escapeMarkdown }

/** A table cell: escaped, on one line. */
export const cell = (s: string) => escapeMarkdown(s)

/** Inline code that holds any text (a run of backticks longer than any inside it). */
export function code(s: string): string {
  const longest = Math.max(0, ...[...s.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${s.replace(/\r?\n/g, ' ')}${pad}${fence}`
}

export function slug(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
    .replace(/<[^>]*>/g, '').replace(/&[a-z0-9#]+;/g, '')
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'secao'
}

function makeMarked(): Marked {
  return new Marked({
    gfm: true,
    async: false,
    renderer: {
      html({ text }: Tokens.HTML | Tokens.Tag) {
        return html`${text}`.toString()
      },
      heading({ tokens, depth, text }: Tokens.Heading) {
        const inner = raw(this.parser.parseInline(tokens))
        // The page's title keeps no id; sections get one, so they can be linked to.
        if (depth === 1) return html`<h1>${inner}</h1>\n`.toString()
        const tag = raw(`h${depth}`) // the parser's level, 2 to 6
        return html`<${tag} id="${slug(text)}">${inner}</${tag}>\n`.toString()
      },
      link({ href, title, tokens }: Tokens.Link) {
        const inner = raw(this.parser.parseInline(tokens))
        const safe = /^(https?:|mailto:|\/|#)/i.test(href) ? href : '#'
        const external = /^https?:/i.test(safe)
        return html`<a href="${safe}"${title && html` title="${title}"`}${external && html` rel="noopener noreferrer"`}>${inner}</a>`.toString()
      },
      table(token: Tokens.Table) {
        const inline = (c: Tokens.TableCell) => raw(this.parser.parseInline(c.tokens))
        // The first cell of a row heads it, for screen readers reading a row at a time.
        const head = token.header.map((c) => html`<th scope="col">${inline(c)}</th>`)
        // Each cell names its column, so that on a phone the stylesheet can stack a row as a card.
        const labels = token.header.map((c) => c.text.replace(/[`*_\\]/g, ''))
        const rows = token.rows.map((row) => html`<tr>${row.map((c, i) => i === 0
          ? html`<th scope="row">${inline(c)}</th>`
          : html`<td data-rotulo="${labels[i] ?? ''}">${inline(c)}</td>`)}</tr>\n`)
        return html`<table class="empilhavel">\n<thead><tr>${head}</tr></thead>\n<tbody>\n${rows}</tbody>\n</table>\n`.toString()
      },
    },
  })
}

const marked = makeMarked()

/** The renderer escapes every text and attribute it writes, and shows raw HTML as text: its output is trusted. */
export function markdownToHtml(source: string): Html {
  return raw(marked.parse(source, { async: false }))
}

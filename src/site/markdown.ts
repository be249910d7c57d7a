// Markdown to HTML for the site's pages. Raw HTML in Markdown is shown as text, never passed through: the
// pages' markup comes only from the layout and the components, and live values cannot inject any.
import { Marked, type Tokens } from 'marked'
import { escapeHtml } from '../markup-escape.ts'

/**
 * Text that reads as itself inside a Markdown line (no emphasis, code, links, tables or HTML made of it).
 * Only the characters that act mid-line are escaped, so the Markdown stays clean to read.
 */
export function escapeMarkdown(s: string): string {
  return s.replace(/[\\`*_[\]|<>~]/g, '\\$&').replace(/\r?\n/g, ' ')
}

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
        return escapeHtml(text)
      },
      heading({ tokens, depth, text }: Tokens.Heading) {
        const inner = this.parser.parseInline(tokens)
        // The page's title keeps no id; sections get one, so they can be linked to.
        return depth === 1 ? `<h1>${inner}</h1>\n` : `<h${depth} id="${slug(text)}">${inner}</h${depth}>\n`
      },
      link({ href, title, tokens }: Tokens.Link) {
        const inner = this.parser.parseInline(tokens)
        const safe = /^(https?:|mailto:|\/|#)/i.test(href) ? href : '#'
        const external = /^https?:/i.test(safe)
        return `<a href="${escapeHtml(safe)}"${title ? ` title="${escapeHtml(title)}"` : ''}${external ? ' rel="noopener noreferrer"' : ''}>${inner}</a>`
      },
      table(token: Tokens.Table) {
        // The first cell of a row heads it, for screen readers reading a row at a time.
        let head = ''
        for (const c of token.header) head += `<th scope="col">${this.parser.parseInline(c.tokens)}</th>`
        // Each cell names its column, so that on a phone the stylesheet can stack a row as a card.
        const labels = token.header.map((c) => escapeHtml(c.text.replace(/[`*_\\]/g, '')))
        let body = ''
        for (const row of token.rows) {
          body += '<tr>' + row.map((c, i) => i === 0
            ? `<th scope="row">${this.parser.parseInline(c.tokens)}</th>`
            : `<td data-rotulo="${labels[i] ?? ''}">${this.parser.parseInline(c.tokens)}</td>`).join('') + '</tr>\n'
        }
        return `<table class="empilhavel">\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}</tbody>\n</table>\n`
      },
    },
  })
}

const marked = makeMarked()

export function markdownToHtml(source: string): string {
  return marked.parse(source, { async: false })
}

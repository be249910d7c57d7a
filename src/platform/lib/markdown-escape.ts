// Text that reads as itself inside a Markdown line (no emphasis, code, links, tables, HTML or character references
// made of it): for every document written as Markdown, the site's pages and the product's (a borderô). Only the
// characters that act mid-line are escaped, so the Markdown stays clean to read: an `&` only where it would start
// a reference (`&amp;` would read as `&`).
export function escapeMarkdown(s: string): string {
  // Every line break Markdown or a reader may take for one becomes a space; a marker that acts at a line's start
  // (a heading, a list item, a quote, a setext underline) is escaped there, since a value may open a line.
  return s.replace(/[\\`*_[\]|<>~]|&(?=#?[a-z0-9]+;)/gi, '\\$&').replace(/\r\n|[\r\n\u0085\u2028\u2029]/g, ' ')
    .replace(/^(\s*)([#+\-=>])/, '$1\\$2').replace(/^(\s*\d{1,9})([.)])(?=\s|$)/, '$1\\$2')
}

// Text that reads as itself inside a Markdown line (no emphasis, code, links, tables, HTML or character references
// made of it): for every document written as Markdown, the site's pages and the product's (a borderô). Only the
// characters that act mid-line are escaped, so the Markdown stays clean to read: an `&` only where it would start
// a reference (`&amp;` would read as `&`).
export function escapeMarkdown(s: string): string {
  return s.replace(/[\\`*_[\]|<>~]|&(?=#?[a-z0-9]+;)/gi, '\\$&').replace(/\r?\n/g, ' ')
}

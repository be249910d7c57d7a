// Text made safe inside HTML or XML, as an element's content or a quoted attribute's value: the site's
// pages, the sitemap and the contact e-mail's HTML part all escape through this one function.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c]!)
}

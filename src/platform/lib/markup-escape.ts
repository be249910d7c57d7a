// Text made safe inside HTML or XML, as an element's content or a quoted attribute's value. Pages and e-mails never
// call it: they are built with html`…` (src/platform/lib/html.ts), which escapes through it; eslint keeps it out of the folders
// that build HTML. What is left is XML (the sitemap).
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c]!)
}

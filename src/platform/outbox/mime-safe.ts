// Values from people (a visitor, an operator, a customer's name) made safe for each part of an e-mail. The HTML
// part is built with html`…` (src/platform/lib/html.ts), which escapes them after this cleaning.

/** For headers: no line breaks or control characters, white space folded, bounded length. */
export function headerSafe(value: string, max = 200): string {
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim()
  return [...clean].slice(0, max).join('')
}

/** For the text part: keep line breaks and tabs, drop other control characters (terminal escapes…). */
export function textSafe(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
}

// Text for PDFKit's standard fonts (Helvetica and its kin, in every PDF reader without a font file): they encode
// WinAnsi, which holds every Portuguese letter (ç, ã, é, º). Anything outside it is printed as its nearest ASCII or
// "?", never as a wrong glyph.

// The characters of WinAnsiEncoding above Latin-1's printable ASCII: Latin-1 (U+00A0–U+00FF) and these.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ')
const NEAREST: Record<string, string> = { '−': '-', '‐': '-', '‑': '-', '\u00a0': ' ', '\u202f': ' ', '≥': '>=', '≤': '<=' }

/** `text` as the standard fonts can print it. */
export function winAnsi(text: string): string {
  let out = ''
  for (const ch of text.normalize('NFC')) {
    const c = ch.codePointAt(0)!
    if ((c >= 0x20 && c <= 0x7e) || (c >= 0xa1 && c <= 0xff) || WIN_ANSI_EXTRA.has(ch)) out += ch
    else out += NEAREST[ch] ?? (c < 0x20 ? ' ' : '?')
  }
  return out
}

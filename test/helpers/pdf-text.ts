// A PDF's text as a reader's tool extracts it (pdfjs-dist, Mozilla's reader), page by page, lines joined by
// spaces: what a test asserts a document says.
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

export async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  // The standard fonts' metrics, so the reader need not guess (and say so on stderr).
  const fonts = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts/')
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), standardFontDataUrl: fonts, isEvalSupported: false }).promise
  const pages: string[] = []
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent()
    pages.push(content.items.map((it) => ('str' in it ? `${it.str}${it.hasEOL ? '\n' : ''}` : '')).join(' ').replace(/[ \t]+/g, ' '))
  }
  await doc.destroy()
  return pages
}

export const isPdf = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-'

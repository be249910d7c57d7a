// The charge's BR Code as a QR code (qrcode, a kept library: the encoder), drawn as SVG for the page and as
// squares for the PDF from the same module matrix. Error correction M: the BCB manual asks for at least M. Loaded on
// the first boleto drawn (on-first-use.ts): most instances draw none, and the package brings its renderers along.
import { onFirstUse } from '../../../platform/lib/on-first-use.ts'

const loadQrCode = onFirstUse(async () => (await import('qrcode')).default)

export interface QrMatrix { size: number, dark(row: number, col: number): boolean }

export async function qrMatrix(text: string): Promise<QrMatrix> {
  const { modules } = (await loadQrCode()).create(text, { errorCorrectionLevel: 'M' })
  return { size: modules.size, dark: (r, c) => Boolean(modules.get(r, c)) }
}

/** An SVG of the code with a quiet zone of four modules, `mm` wide, as one path of unit squares. */
export async function qrSvg(text: string, mm: number, label: string): Promise<string> {
  const m = await qrMatrix(text)
  const n = m.size + 8
  let d = ''
  for (let r = 0; r < m.size; r++) for (let c = 0; c < m.size; c++) if (m.dark(r, c)) d += `M${c + 4} ${r + 4}h1v1h-1z`
  const safe = label.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`)
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${safe}" width="${mm}mm" height="${mm}mm" viewBox="0 0 ${n} ${n}" `
    + `shape-rendering="crispEdges"><rect width="${n}" height="${n}" fill="#fff"/><path fill="#000" d="${d}"/></svg>`
}

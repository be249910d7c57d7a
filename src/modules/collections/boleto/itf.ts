// The boleto's barcode as FEBRABAN prints it: Interleaved 2 of 5 (ITF) over the 44 digits, narrow to wide 1 : 3.
// Each pair of digits is five bars (the first digit) interleaved with five spaces (the second), two of each five
// wide; a start of four narrow elements (bar, space, bar, space) and a stop of a wide bar, a narrow space and a
// narrow bar frame them. Drawn as SVG rectangles, one per bar, in whole modules so a printer keeps the ratio.
import { isDigits } from './modulos.ts'

// Which of a digit's five elements are wide (1), from the ITF symbology's table.
const PATTERNS = ['00110', '10001', '01001', '11000', '00101', '10100', '01100', '00011', '10010', '01010'] as const
const WIDE = 3

/** The widths, in modules, of the code's elements from the start: bar, space, bar, space… (first and last are bars). */
export function itfWidths(digits: string): number[] {
  if (!isDigits(digits) || digits.length % 2 !== 0) throw new RangeError('Interleaved 2 of 5 takes an even count of digits')
  const w = (wide: string) => (wide === '1' ? WIDE : 1)
  const out = [1, 1, 1, 1]
  for (let i = 0; i < digits.length; i += 2) {
    const bars = PATTERNS[Number(digits[i])]!
    const spaces = PATTERNS[Number(digits[i + 1])]!
    for (let k = 0; k < 5; k++) out.push(w(bars[k]!), w(spaces[k]!))
  }
  out.push(WIDE, 1, 1)
  return out
}

export interface ItfSvgOptions {
  /** The narrow element's width in the SVG's units (FEBRABAN's narrow bar is about 0.25–0.33 mm; the default prints in mm). */
  module?: number
  height?: number
  /** The quiet zone each side, in modules (at least 10). */
  quiet?: number
  /** What a screen reader says: the digits, for one. */
  label: string
}

/** The barcode as an SVG element: black bars on white, sized in millimetres by default. */
export function itfSvg(digits: string, o: ItfSvgOptions): string {
  const module = o.module ?? 0.254
  const height = o.height ?? 13
  const quiet = Math.max(10, o.quiet ?? 10)
  const widths = itfWidths(digits)
  const total = widths.reduce((a, b) => a + b, 0) + 2 * quiet
  let x = quiet
  const rects: string[] = []
  widths.forEach((wd, i) => {
    if (i % 2 === 0) rects.push(`<rect x="${x}" y="0" width="${wd}" height="1"/>`)
    x += wd
  })
  const label = o.label.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${label}" width="${(total * module).toFixed(3)}mm" height="${height}mm" `
    + `viewBox="0 0 ${total} 1" preserveAspectRatio="none" shape-rendering="crispEdges"><rect width="${total}" height="1" fill="#fff"/>`
    + `<g fill="#000">${rects.join('')}</g></svg>`
}

// The borderô as a PDF to sign (Accept: application/pdf): the same sections as the HTML and Markdown (bordero.ts),
// laid out on landscape A4 with PDFKit's standard Helvetica, so no browser and no font file is needed at run time.
// Those fonts encode WinAnsi, which holds every Portuguese letter (ç, ã, é, º); anything outside it is printed as
// its nearest ASCII or "?", never as a wrong glyph. Pages are written out as they fill (PDFKit keeps none).
import { onFirstUse } from '../../platform/lib/on-first-use.ts'
import { winAnsi } from '../../platform/lib/win-ansi.ts'
import type { BorderoHead, BorderoRow } from './bordero-data.ts'
import { FIRST_NUMBER, HEAD, headSections, issuedAt, operationTitle, rowCells, signatureLines, tailSections, type Section } from './bordero.ts'

// Loaded on the first PDF asked for: most instances never draw one (and PDFKit reads its font metrics from its own files).
const loadPdfKit = onFirstUse(async () => (await import('pdfkit')).default)

const MARGIN = 36
const WIDTHS = [52, 78, 190, 46, 46, 22, 64, 56, 52, 42, 54, 66]
const ROW = 10
const SIZE = 7

/** The PDF's bytes. */
export async function borderoPdf(h: BorderoHead, rows: readonly BorderoRow[], now: Date): Promise<Buffer> {
  const PDFDocument = await loadPdfKit()
  const doc = new PDFDocument({
    size: 'A4', layout: 'landscape', margin: MARGIN, bufferPages: false, compress: true,
    info: { Title: winAnsi(operationTitle(h)), Author: winAnsi(h.cessionaria.nome), CreationDate: now },
  })
  const chunks: Buffer[] = []
  doc.on('data', (c: Buffer) => chunks.push(c))
  const ended = new Promise<void>((resolve, reject) => { doc.on('end', resolve); doc.on('error', reject) })

  const width = doc.page.width - 2 * MARGIN
  const bottom = () => doc.page.height - MARGIN - 14
  let pageNo = 1
  // The page number sits in the bottom margin, below where PDFKit lets text go (it would start a new page for it):
  // the page's bottom margin is set to 0 while it is written, and put back after.
  const footer = () => {
    const y = doc.page.height - MARGIN - 8
    const margin = doc.page.margins.bottom
    doc.page.margins.bottom = 0
    doc.font('Helvetica').fontSize(7).fillColor('#444')
      .text(winAnsi(`${operationTitle(h)} — página ${pageNo}`), MARGIN, y, { width, align: 'right', lineBreak: false })
      .fillColor('black')
    doc.page.margins.bottom = margin
  }
  const newPage = () => {
    footer()
    doc.addPage()
    pageNo++
    doc.x = MARGIN
    doc.y = MARGIN
  }
  const room = (needed: number) => { if (doc.y + needed > bottom()) newPage() }
  const section = (s: Section) => {
    room(30)
    doc.moveDown(0.6).font('Helvetica-Bold').fontSize(11).text(winAnsi(s.title), MARGIN, doc.y, { width })
    doc.moveDown(0.2)
    for (const [k, v] of s.facts) {
      room(12)
      doc.font('Helvetica-Bold').fontSize(9).text(winAnsi(`${k}: `), MARGIN, doc.y, { continued: true, width })
        .font('Helvetica').text(winAnsi(v))
    }
  }

  doc.font('Helvetica-Bold').fontSize(16).text(winAnsi(operationTitle(h)), { width })
  for (const s of headSections(h)) section(s)

  const headerRow = () => {
    room(ROW * 3)
    let x = MARGIN
    const y = doc.y
    doc.font('Helvetica-Bold').fontSize(SIZE)
    HEAD.forEach((title, i) => {
      doc.text(winAnsi(title), x + 1, y, { width: WIDTHS[i]! - 2, align: i >= FIRST_NUMBER ? 'right' : 'left', lineBreak: false })
      x += WIDTHS[i]!
    })
    doc.moveTo(MARGIN, y + ROW - 1).lineTo(MARGIN + width, y + ROW - 1).lineWidth(0.5).stroke()
    doc.x = MARGIN
    doc.y = y + ROW + 1
  }
  room(40)
  doc.moveDown(0.6).font('Helvetica-Bold').fontSize(11).text('Títulos', MARGIN, doc.y, { width })
  doc.moveDown(0.2)
  headerRow()
  for (const r of rows) {
    if (doc.y + ROW > bottom()) {
      newPage()
      headerRow()
    }
    const y = doc.y
    let x = MARGIN
    doc.font('Helvetica').fontSize(SIZE)
    rowCells(r).forEach((cell, i) => {
      // One line per cell: a long name is cut with an ellipsis, an amount never wraps.
      doc.text(winAnsi(cell), x + 1, y, { width: WIDTHS[i]! - 2, align: i >= FIRST_NUMBER ? 'right' : 'left', lineBreak: false, ellipsis: true, height: ROW })
      x += WIDTHS[i]!
    })
    doc.x = MARGIN
    doc.y = y + ROW
  }
  for (const s of tailSections(h)) section(s)

  room(40)
  doc.moveDown(0.6).font('Helvetica-Bold').fontSize(11).text('Assinaturas', MARGIN, doc.y, { width })
  const half = (width - 40) / 2
  const lines = signatureLines(h)
  for (let i = 0; i < lines.length; i += 2) {
    room(60)
    const y = doc.y + 34
    for (const [j, who] of lines.slice(i, i + 2).entries()) {
      const x = MARGIN + j * (half + 40)
      doc.moveTo(x, y).lineTo(x + half, y).lineWidth(0.7).stroke()
      doc.font('Helvetica').fontSize(8).text(winAnsi(who), x, y + 3, { width: half, align: 'center' })
    }
    doc.x = MARGIN
    doc.y = y + 26
  }
  room(30)
  doc.moveDown(0.8).font('Helvetica').fontSize(9).text('Local e data: ______________________________________', MARGIN, doc.y, { width })
  doc.moveDown(0.4).fontSize(8).text(winAnsi(issuedAt(now)), MARGIN, doc.y, { width })
  footer()
  doc.end()
  await ended
  return Buffer.concat(chunks)
}

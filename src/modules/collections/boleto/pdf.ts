// The boleto as a PDF (PDFKit, standard Helvetica: no browser and no font file at run time), A4 portrait: the
// payer's receipt, then the ficha de compensação with its boxes as the HTML draws them (ficha.ts), the barcode as
// FEBRABAN sizes it (103 mm at the narrow module of 0.254 mm) and the BR Code's QR code beside the copia e cola.
import { onFirstUse } from '../../../platform/lib/on-first-use.ts'
import { brl, dataBr } from '../../../platform/lib/brl.ts'
import { winAnsi } from '../../../platform/lib/win-ansi.ts'
import { itfWidths } from './itf.ts'
import { qrMatrix } from './qr.ts'
import { BANCO_IMPRESSO, DEDUCOES, linhasDaFicha, pagadorImpresso, sacadorImpresso, tituloDoBoleto, type DadosDoBoleto } from './ficha.ts'

const loadPdfKit = onFirstUse(async () => (await import('pdfkit')).default)

const MM = 72 / 25.4
const MARGIN = 10 * MM
const BOX = 24

type Doc = InstanceType<Awaited<ReturnType<typeof loadPdfKit>>>

function field(doc: Doc, x: number, y: number, w: number, rotulo: string, valor: string, direita = false, h = BOX) {
  doc.rect(x, y, w, h).lineWidth(0.5).stroke()
  doc.font('Helvetica').fontSize(6).fillColor('#333').text(winAnsi(rotulo), x + 2, y + 2, { width: w - 4, lineBreak: false })
  doc.font('Helvetica-Bold').fontSize(8.5).fillColor('black')
    .text(winAnsi(valor), x + 2, y + 11, { width: w - 4, align: direita ? 'right' : 'left', height: h - 12, ellipsis: true })
}

function header(doc: Doc, d: DadosDoBoleto, y: number, width: number) {
  doc.font('Helvetica-Bold').fontSize(11).text(winAnsi(d.bancoNome), MARGIN, y, { width: 150, lineBreak: false })
  doc.fontSize(14).text(BANCO_IMPRESSO[d.banco], MARGIN + 150, y - 2, { width: 60, align: 'center', lineBreak: false })
  doc.fontSize(11).text(d.linhaDigitavel, MARGIN + 210, y, { width: width - 210, align: 'right', lineBreak: false })
  doc.moveTo(MARGIN, y + 15).lineTo(MARGIN + width, y + 15).lineWidth(1).stroke()
}

/** The PDF's bytes. */
export async function boletoPdf(d: DadosDoBoleto, now: Date): Promise<Buffer> {
  const PDFDocument = await loadPdfKit()
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, compress: true, info: { Title: winAnsi(tituloDoBoleto(d)), CreationDate: now } })
  const chunks: Buffer[] = []
  doc.on('data', (c: Buffer) => chunks.push(c))
  const ended = new Promise<void>((resolve, reject) => { doc.on('end', resolve); doc.on('error', reject) })
  const width = doc.page.width - 2 * MARGIN
  const twelfth = width / 12

  // The payer's receipt, under the sandbox's warning where there is one.
  let y = MARGIN
  if (d.aviso) {
    doc.font('Helvetica-Bold').fontSize(10).fillColor('#b00020').text(winAnsi(d.aviso), MARGIN, y, { width, align: 'center' }).fillColor('#000')
    y += 22
  }
  header(doc, d, y, width)
  y += 20
  const receipt: Array<[string, string, number, boolean?]> = [
    ['Beneficiário', d.beneficiario.nome, 6], ['Nosso número', d.nossoNumero, 3, true], ['Vencimento', dataBr(d.vencimento), 3, true],
    ['Pagador', d.pagador.nome, 6], ['Nº do documento', d.numeroDocumento, 3, true], ['Valor do documento', brl(d.valorCentavos), 3, true],
  ]
  let x = MARGIN
  for (const [rotulo, valor, w, direita] of receipt) {
    field(doc, x, y, w * twelfth, rotulo, valor, direita)
    x += w * twelfth
    if (x >= MARGIN + width - 1) { x = MARGIN; y += BOX }
  }
  doc.font('Helvetica').fontSize(7).text('Recibo do pagador — autenticação no verso', MARGIN, y + 4, { width, align: 'right' })
  y += 24
  doc.dash(3, { space: 3 }).moveTo(MARGIN, y).lineTo(MARGIN + width, y).stroke().undash()
  y += 14

  // The ficha de compensação.
  header(doc, d, y, width)
  y += 20
  for (const row of linhasDaFicha(d)) {
    x = MARGIN
    for (const c of row) {
      field(doc, x, y, c.largura * twelfth, c.rotulo, c.valor, c.direita)
      x += c.largura * twelfth
    }
    y += BOX
  }
  const instrH = DEDUCOES.length * BOX
  doc.rect(MARGIN, y, 9 * twelfth, instrH).stroke()
  doc.font('Helvetica').fontSize(6).fillColor('#333').text('Instruções (texto de responsabilidade do beneficiário)', MARGIN + 2, y + 2)
  doc.font('Helvetica').fontSize(8).fillColor('black').text('', MARGIN + 2, y + 11)
  for (const line of d.instrucoes) doc.text(winAnsi(line), MARGIN + 2, doc.y, { width: 9 * twelfth - 4 })
  DEDUCOES.forEach((r, i) => field(doc, MARGIN + 9 * twelfth, y + i * BOX, 3 * twelfth, r, ''))
  y += instrH
  const payer = pagadorImpresso(d)
  field(doc, MARGIN, y, width, 'Pagador', payer.join(' — '), false, BOX + 8)
  y += BOX + 8
  field(doc, MARGIN, y, width, 'Sacador / Avalista', sacadorImpresso(d))
  y += BOX + 10

  // The barcode: FEBRABAN's 103 mm at 0.254 mm a module, 13 mm high, a quiet zone before it.
  const module = 0.254 * MM
  x = MARGIN + 5 * MM
  itfWidths(d.codigoDeBarras).forEach((w, i) => {
    if (i % 2 === 0) doc.rect(x, y, w * module, 13 * MM).fill('black')
    x += w * module
  })
  doc.font('Helvetica').fontSize(7).text('Autenticação mecânica — Ficha de compensação', MARGIN, y + 13 * MM + 4, { width: 110 * MM })

  if (d.pixCopiaECola) {
    const qr = await qrMatrix(d.pixCopiaECola)
    const side = 30 * MM
    const cell = side / qr.size
    const qx = MARGIN + width - side
    for (let r = 0; r < qr.size; r++) for (let c = 0; c < qr.size; c++) if (qr.dark(r, c)) doc.rect(qx + c * cell, y + r * cell, cell, cell).fill('black')
    // Between the barcode (it ends 118 mm from the page's edge) and the QR code.
    doc.font('Helvetica-Bold').fontSize(7).text('Pague com PIX: leia o código ou copie e cole', qx - 48 * MM, y, { width: 46 * MM, align: 'right' })
    doc.font('Helvetica').fontSize(6).text(d.pixCopiaECola, qx - 48 * MM, doc.y + 2, { width: 46 * MM, align: 'right' })
  }
  doc.end()
  await ended
  return Buffer.concat(chunks)
}

// The printed boleto, HTML and PDF, says what the ficha de compensação must: the linha digitável, the beneficiário
// (the buyer) and the sacador/avalista (the cedente), the payer, the nosso número, the amount and the due date in
// Brazilian form; the barcode's bars are the 44 digits' and the QR code reads back, with an independent decoder
// (jsQR, tests only), as the charge's BR Code.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import jsQRPackage from 'jsqr'
import { boletoHtml } from '../../../src/modules/collections/boleto/html.ts'
import { boletoPdf } from '../../../src/modules/collections/boleto/pdf.ts'
import { qrMatrix } from '../../../src/modules/collections/boleto/qr.ts'
import { AVISO_SANDBOX, type DadosDoBoleto } from '../../../src/modules/collections/boleto/ficha.ts'
import { dynamicBrCode } from '../../../src/modules/collections/pix/br-code.ts'
import { isPdf, pdfText } from '../../helpers/pdf-text.ts'

// A CommonJS package whose exports are the function and, as `default`, the function again: typed as the latter.
const jsQR = jsQRPackage.default

const PIX = dynamicBrCode({ location: 'pix.sandbox.exemplo/v2/cobv/7d1e0c4b', nome: 'Factoring Exemplo SA', cidade: 'Sao Paulo' })
const BOLETO: DadosDoBoleto = {
  banco: '341', bancoNome: 'Itaú Unibanco', linhaDigitavel: '34191.10121 34567.880058 71234.570001 6 16670000012345',
  codigoDeBarras: '34196166700000123451101234567880057123457000', vencimento: '2026-12-15', valorCentavos: 1_234_567,
  beneficiario: { nome: 'Factoring Exemplo S.A.', documento: '11444777000161' }, agenciaCodigo: '0057 / 12345-7',
  nossoNumero: '110/12345678-8', numeroDocumento: 'NF 1234/2', especieDocumento: 'DM', dataDocumento: '2026-11-02', dataProcessamento: '2026-11-29',
  carteira: '110', pagador: { nome: 'Comércio São João Ltda.', documento: '11222333000181', endereco: 'Rua das Acácias, 100 — Campinas/SP — 13010-000' },
  sacadorAvalista: { nome: 'Indústria Cedente Ltda.', documento: '60701190000104' },
  instrucoes: ['Após 15/12/2026, multa de 2,00 %.', 'Juros de R$ 4,12 por dia de atraso.'], pixCopiaECola: PIX,
}

/** The code's modules drawn as pixels (4 a module, a quiet zone of 4 modules), RGBA as jsQR reads an image. */
async function rasterised(text: string): Promise<{ data: Uint8ClampedArray, size: number }> {
  const m = await qrMatrix(text)
  const scale = 4
  const size = (m.size + 8) * scale
  const data = new Uint8ClampedArray(size * size * 4).fill(255)
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const r = Math.floor(y / scale) - 4
      const c = Math.floor(x / scale) - 4
      if (r >= 0 && c >= 0 && r < m.size && c < m.size && m.dark(r, c)) data.fill(0, (y * size + x) * 4, (y * size + x) * 4 + 3)
    }
  }
  return { data, size }
}

describe('the printed boleto', () => {
  it('as HTML: the ficha\'s fields, the barcode\'s bars and the QR code with its copia e cola', async () => {
    const page = (await boletoHtml(BOLETO)).toString()
    assert.doesNotMatch(page, /boleto-aviso/, 'a production boleto carries no sandbox warning')
    assert.match((await boletoHtml({ ...BOLETO, aviso: AVISO_SANDBOX })).toString(), /<p class="boleto-aviso" role="note">AMBIENTE DE TESTES/)
    for (const text of ['34191.10121 34567.880058 71234.570001 6 16670000012345', '341-7', 'Factoring Exemplo S.A. — CNPJ 11.444.777/0001-61',
      'Indústria Cedente Ltda. — CNPJ 60.701.190/0001-04', 'Comércio São João Ltda. — CNPJ 11.222.333/0001-81', '110/12345678-8', 'R$ 12.345,67',
      '15/12/2026', 'Juros de R$ 4,12 por dia de atraso.', 'Ficha de compensação', PIX]) {
      assert.ok(page.includes(text), text)
    }
    const barcode = page.match(/<svg[^>]*aria-label="Código de barras: 3419[^"]*"[\s\S]*?<\/svg>/)?.[0]
    assert.ok(barcode, 'the barcode as SVG, named by its digits')
    assert.equal(barcode.match(/<rect x=/g)?.length, 114, 'its 114 bars')
    assert.doesNotMatch(page, /style=/, 'no inline style: the page\'s policy admits none')
  })

  it('its QR code reads back as the charge\'s BR Code', async () => {
    const { data, size } = await rasterised(PIX)
    assert.equal(jsQR(data, size, size)?.data, PIX)
  })

  it('as PDF: the same fields, read back by a PDF reader', async () => {
    const bytes = await boletoPdf(BOLETO, new Date('2026-11-29T12:00:00Z'))
    assert.ok(isPdf(bytes))
    const text = (await pdfText(bytes)).join('\n')
    for (const t of ['34191.10121 34567.880058 71234.570001 6 16670000012345', '341-7', 'Factoring Exemplo S.A. — CNPJ 11.444.777/0001-61',
      'Indústria Cedente Ltda. — CNPJ 60.701.190/0001-04', 'Comércio São João Ltda.', '110/12345678-8', 'R$ 12.345,67', '15/12/2026',
      'Juros de R$ 4,12 por dia de atraso.', 'Ficha de compensação', 'Recibo do pagador']) {
      assert.ok(text.includes(t), `${t} in:\n${text}`)
    }
    assert.ok(text.replace(/\s/g, '').includes(PIX.replace(/\s/g, '')), 'the copia e cola (wrapped over lines)')
  })
})

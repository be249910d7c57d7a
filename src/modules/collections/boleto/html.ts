// The boleto as HTML: the payer's receipt and the ficha de compensação, an article the page shell wraps (site.css
// lays it out, printed on A4 portrait), with the barcode and the BR Code as inline SVG and their text beside them
// for whoever cannot scan (the linha digitável, the copia e cola).
import { html, join, raw, type Html } from '../../../platform/lib/html.ts'
import { brl, dataBr } from '../../../platform/lib/brl.ts'
import { itfSvg } from './itf.ts'
import { qrSvg } from './qr.ts'
import { BANCO_IMPRESSO, DEDUCOES, linhasDaFicha, pagadorImpresso, sacadorImpresso, tituloDoBoleto, type Campo, type DadosDoBoleto } from './ficha.ts'

// Widths are classes (c1…c12, twelfths of the row): the page's policy admits no inline style.
const box = (c: Campo) => html`<div class="${`campo c${c.largura}`}"><span class="rotulo">${c.rotulo}</span>
<span class="${c.direita ? 'valor num' : 'valor'}">${c.valor}</span></div>`

const cabecalho = (d: DadosDoBoleto): Html => html`<div class="boleto-cabecalho"><span class="banco">${d.bancoNome}</span>
<span class="codigo-banco">${BANCO_IMPRESSO[d.banco]}</span><span class="linha-digitavel">${d.linhaDigitavel}</span></div>`

export async function boletoHtml(d: DadosDoBoleto): Promise<Html> {
  const rows = linhasDaFicha(d).map((row) => html`<div class="linha">${join(row.map(box), '')}</div>`)
  const pix = d.pixCopiaECola
  const qr = pix && await qrSvg(pix, 30, 'QR code PIX da cobrança')
  return html`<article class="boleto" aria-label="${tituloDoBoleto(d)}">
${d.aviso && html`<p class="boleto-aviso" role="note">${d.aviso}</p>`}
<section class="recibo" aria-label="Recibo do pagador">
${cabecalho(d)}
<dl>
<dt>Beneficiário</dt><dd>${d.beneficiario.nome}</dd>
<dt>Pagador</dt><dd>${d.pagador.nome}</dd>
<dt>Nosso número</dt><dd>${d.nossoNumero}</dd>
<dt>Nº do documento</dt><dd>${d.numeroDocumento}</dd>
<dt>Vencimento</dt><dd>${dataBr(d.vencimento)}</dd>
<dt>Valor do documento</dt><dd class="num">${brl(d.valorCentavos)}</dd>
</dl>
<p class="corte">Recibo do pagador — autenticação no verso</p>
</section>
<section class="ficha" aria-label="Ficha de compensação">
${cabecalho(d)}
${join(rows, '\n')}
<div class="linha">
<div class="campo c9 instrucoes"><span class="rotulo">Instruções (texto de responsabilidade do beneficiário)</span>
${join(d.instrucoes.map((i) => html`<span class="valor">${i}</span>`), '\n')}</div>
<div class="deducoes c3">${join(DEDUCOES.map((r) => html`<div class="campo"><span class="rotulo">${r}</span><span class="valor num"></span></div>`), '')}</div>
</div>
<div class="campo pagador"><span class="rotulo">Pagador</span>${join(pagadorImpresso(d).map((l) => html`<span class="valor">${l}</span>`), '')}</div>
<div class="campo"><span class="rotulo">Sacador / Avalista</span><span class="valor">${sacadorImpresso(d)}</span></div>
<div class="codigos">
<div class="barras">${raw(itfSvg(d.codigoDeBarras, { label: `Código de barras: ${d.codigoDeBarras}` }))}</div>
${pix && html`<figure class="pix">${raw(qr || '')}<figcaption>Pague com PIX: leia o código ou copie e cole
<code class="copia-e-cola">${pix}</code></figcaption></figure>`}
</div>
<p class="corte">Autenticação mecânica — Ficha de compensação</p>
</section>
</article>`
}

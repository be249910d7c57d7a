// The boleto e-mailed to the sacado (issue 33: "e-mailed to the sacado through the outbox naming the buyer as
// payee"): the message is also the notice of the assignment (Código Civil art. 290), so it says who sold the título to
// whom and that it is paid to the buyer from now on, with what a payer needs without opening the file (the linha
// digitável, the PIX copia e cola, the value and the due date) and the boleto's PDF attached. Every name in it is
// someone's typing: cleaned for a header and escaped in the HTML part. No link and no tracking.
import { html } from '../../../platform/lib/html.ts'
import { brl, dataBr } from '../../../platform/lib/brl.ts'
import { documentoFormatado } from '../../../platform/lib/documento-format.ts'
import type { RenderedMail } from '../../../platform/outbox/enqueue.ts'
import { headerSafe, textSafe } from '../../../platform/outbox/mime-safe.ts'
import { TIPO_TITULO_TEXTO } from '../../operations/index.ts'
import type { DadosDoBoleto } from '../boleto/ficha.ts'

// As the invitation cleans the names it prints (outbox/invitation.ts).
const oneLine = (s: string, max = 120) => headerSafe(textSafe(s), max)

export type BoletoMail = { dados: DadosDoBoleto, tipoTitulo: string, numeroCobranca: number, pdf: Buffer }

export function renderBoletoMail(m: BoletoMail): RenderedMail {
  const d = m.dados
  const comprador = `${oneLine(d.beneficiario.nome)}${d.beneficiario.documento ? ` (CNPJ ${documentoFormatado(d.beneficiario.documento)})` : ''}`
  const cedente = d.sacadorAvalista ? oneLine(d.sacadorAvalista.nome) : ''
  const tipo = (TIPO_TITULO_TEXTO as Record<string, string>)[m.tipoTitulo] ?? m.tipoTitulo
  const numero = oneLine(d.numeroDocumento, 60)
  const valor = brl(d.valorCentavos)
  const vencimento = dataBr(d.vencimento)
  const aviso = `${cedente ? `${cedente} cedeu` : 'Foi cedido'} à ${comprador} o título nº ${numero} (${tipo}), de ${valor}, com vencimento em `
    + `${vencimento}. A partir deste aviso, pague-o somente à ${oneLine(d.beneficiario.nome)}, pelo boleto anexo ou pelos dados abaixo `
    + '(Código Civil, art. 290).'
  const dados: [string, string][] = [
    ['Beneficiário', comprador], ['Valor', valor], ['Vencimento', vencimento], ['Linha digitável', d.linhaDigitavel],
    ...(d.pixCopiaECola ? [['PIX copia e cola', d.pixCopiaECola] as [string, string]] : []),
    ['Nosso número', d.nossoNumero], ['Banco', `${d.banco} — ${d.bancoNome}`],
  ]
  const text = [
    ...(d.aviso ? [d.aviso, ''] : []),
    `Prezado(a) ${oneLine(d.pagador.nome)},`, '', aviso, '',
    ...dados.map(([k, v]) => `${k}: ${v}`),
    ...(d.instrucoes.length ? ['', 'Instruções:', ...d.instrucoes.map((i) => `- ${i}`)] : []),
    '', `Em caso de dúvida sobre este título, fale com ${oneLine(d.beneficiario.nome)}; esta mensagem não pede nenhum dado seu.`,
  ].join('\n')
  const markup = html`<!doctype html><html lang="pt-BR"><body>
${d.aviso ? html`<p><strong>${d.aviso}</strong></p>` : ''}
<p>Prezado(a) ${oneLine(d.pagador.nome)},</p>
<p>${aviso}</p>
<table>${dados.map(([k, v]) => html`<tr><th scope="row" style="text-align:left">${k}</th><td>${v}</td></tr>`)}</table>
${d.instrucoes.length ? html`<p>Instruções:</p><ul>${d.instrucoes.map((i) => html`<li>${i}</li>`)}</ul>` : ''}
<p>Em caso de dúvida sobre este título, fale com ${oneLine(d.beneficiario.nome)}; esta mensagem não pede nenhum dado seu.</p>
</body></html>`
  return {
    subject: `${d.aviso ? '[SANDBOX] ' : ''}Boleto do título nº ${numero}: ${valor}, vencimento em ${vencimento}`,
    text, html: markup.toString(),
    attachments: [{ filename: `boleto-cobranca-${m.numeroCobranca}.pdf`, contentType: 'application/pdf', content: m.pdf }],
  }
}

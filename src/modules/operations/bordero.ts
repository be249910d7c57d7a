// The borderô as a document (GET /api/operacoes/{id}/bordero): the operation, its cedente and terms, each título
// with its price, the totals and the formalization, in Portuguese for the people who sign and file it. One
// content, two forms: Markdown (Accept: text/markdown) and HTML to print. Every value from the customer's data is
// escaped in both.
import { brl, dataBr } from '../../platform/lib/brl.ts'
import { dec, fixed } from '../pricing/index.ts'
import { html, join, type Html } from '../../platform/lib/html.ts'
import { escapeMarkdown as md } from '../../platform/lib/markdown-escape.ts'
import type { OperationFull } from './store.ts'

export type BorderoData = {
  op: OperationFull
  cedente: { razaoSocial: string, documento: string }
  produto: { nome: string }
  sacados: ReadonlyMap<string, { razaoSocial: string, documento: string }>
}

type Line = Record<string, number | string | undefined>
type Quote = { versao: number, valida_ate: string, produto: { versao: number }, linhas: Line[], totais: Record<string, number>,
  prazo_medio_dias: string, taxa_efetiva_mensal: string | null }

const TIPOS: Record<string, string> = {
  duplicata_mercantil: 'Duplicata mercantil', duplicata_servico: 'Duplicata de serviço', cheque: 'Cheque', nota_promissoria: 'Nota promissória',
  ccb: 'CCB', cte: 'CT-e',
}

const ESTADOS: Record<string, string> = {
  rascunho: 'Rascunho', cotada: 'Cotada', aceita: 'Aceita', formalizada: 'Formalizada', em_desembolso: 'Em desembolso', desembolsada: 'Desembolsada',
  cancelada: 'Cancelada',
}

/** A CPF (11 digits) or CNPJ (14 characters) with its punctuation. */
export function documentoFormatado(d: string): string {
  if (d.length === 11) return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`
  return `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`
}

function rows(d: BorderoData) {
  const quote = d.op.cotacao?.calculo as Quote | undefined
  const lines = new Map((quote?.linhas ?? []).map((l) => [l.titulo_id as string, l]))
  return d.op.titulos.map((t) => {
    const l = lines.get(t.id)
    const s = d.sacados.get(t.sacadoId)
    return {
      numero: t.numero, tipo: TIPOS[t.tipo] ?? t.tipo, sacado: s ? `${s.razaoSocial} (${documentoFormatado(s.documento)})` : t.sacadoId,
      vencimento: dataBr(t.vencimento), util: l ? dataBr(String(l.vencimento_util)) : '', dias: l ? String(l.dias_desconto) : '',
      face: brl(t.valorFaceCentavos), desagio: l ? brl(Number(l.desagio_centavos)) : '', adValorem: l ? brl(Number(l.ad_valorem_centavos)) : '',
      tarifa: l ? brl(Number(l.tarifa_centavos)) : '', iof: l ? brl(Number(l.iof_centavos)) : '', preco: l ? brl(Number(l.preco_compra_centavos)) : '',
    }
  })
}

const HEAD = ['Nº', 'Tipo', 'Sacado', 'Vencimento', 'Venc. útil', 'Dias', 'Valor de face', 'Deságio', 'Ad valorem', 'Tarifa', 'IOF', 'Preço de compra']

function facts(d: BorderoData): [string, string][] {
  const quote = d.op.cotacao?.calculo as Quote | undefined
  const out: [string, string][] = [
    ['Cedente', `${d.cedente.razaoSocial} (${documentoFormatado(d.cedente.documento)})`],
    ['Data da operação', dataBr(d.op.dataOperacao)],
    ['Produto', quote ? `${d.produto.nome}, versão ${quote.produto.versao}` : d.produto.nome],
    ['Estado', ESTADOS[d.op.estado] ?? d.op.estado],
  ]
  if (quote) out.push(['Cotação', `versão ${quote.versao}, válida até o fim de ${dataBr(d.op.dataOperacao)}`])
  return out
}

function totals(d: BorderoData): [string, string][] {
  const quote = d.op.cotacao?.calculo as Quote | undefined
  if (!quote) return []
  const t = quote.totais
  return [
    ['Valor de face', brl(t.valor_face_centavos!)], ['Deságio', brl(t.desagio_centavos!)], ['Ad valorem', brl(t.ad_valorem_centavos!)],
    ['Tarifas', brl(t.tarifas_centavos!)], ['Tarifa de cadastro', brl(t.tac_centavos!)], ['IOF', brl(t.iof_centavos!)],
    ['Valor líquido', brl(t.valor_liquido_centavos!)],
    ['Prazo médio', `${quote.prazo_medio_dias.replace('.', ',')} dias`],
    ['Taxa efetiva mensal', quote.taxa_efetiva_mensal === null ? '—' : `${percent(quote.taxa_efetiva_mensal)} % a.m.`],
  ]
}

/** "0.045860" → "4,5860": a fraction as a percentage, in decimal arithmetic (no float). */
const percent = (fraction: string): string => fixed(dec(fraction).times(100), 4).replace('.', ',')

function signing(d: BorderoData): string[] {
  if (!d.op.termoSha256) return []
  return [
    `Termo de cessão assinado em ${d.op.assinadoEm!.toISOString()} (SHA-256 ${d.op.termoSha256})`,
    ...(d.op.signatarios ?? []).map((s) => `Signatário: ${s.nome} (${documentoFormatado(s.documento)})`),
  ]
}

export function borderoMarkdown(d: BorderoData): string {
  const r = rows(d)
  const out = [`# Borderô da operação nº ${d.op.numero}`, '', ...facts(d).map(([k, v]) => `- **${k}:** ${md(v)}`), '']
  out.push(`| ${HEAD.join(' | ')} |`, `|${HEAD.map((_, i) => (i >= 5 ? ' ---: ' : ' --- ')).join('|')}|`)
  for (const x of r) {
    out.push(`| ${[x.numero, x.tipo, x.sacado, x.vencimento, x.util, x.dias, x.face, x.desagio, x.adValorem, x.tarifa, x.iof, x.preco].map(md).join(' | ')} |`)
  }
  const t = totals(d)
  if (t.length) out.push('', '## Totais', '', ...t.map(([k, v]) => `- **${k}:** ${md(v)}`))
  const s = signing(d)
  if (s.length) out.push('', '## Formalização', '', ...s.map((x) => `- ${md(x)}`))
  return `${out.join('\n')}\n`
}

export function borderoHtml(d: BorderoData): Html {
  const r = rows(d)
  const t = totals(d)
  const s = signing(d)
  return html`<article class="bordero">
<h1>Borderô da operação nº ${d.op.numero}</h1>
<dl>${join(facts(d).map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`), '\n')}</dl>
<table>
<thead><tr>${join(HEAD.map((h) => html`<th scope="col">${h}</th>`), '')}</tr></thead>
<tbody>
${join(r.map((x) => html`<tr><td>${x.numero}</td><td>${x.tipo}</td><td>${x.sacado}</td><td>${x.vencimento}</td><td>${x.util}</td>${
    join([x.dias, x.face, x.desagio, x.adValorem, x.tarifa, x.iof, x.preco].map((v) => html`<td class="num">${v}</td>`), '')}</tr>`), '\n')}
</tbody>
</table>
${t.length ? html`<h2>Totais</h2><dl>${join(t.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`), '\n')}</dl>` : ''}
${s.length ? html`<h2>Formalização</h2><ul>${join(s.map((x) => html`<li>${x}</li>`), '\n')}</ul>` : ''}
</article>`
}

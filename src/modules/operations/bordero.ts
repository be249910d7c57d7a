// The borderô as a document (GET /api/operacoes/{id}/bordero), in Portuguese for the people who sign and file it:
// the parties (the cessionária, the cedente), the operation and the product's terms, each título with its price,
// the totals, the account to be paid, the formalization and the signature lines. One content (this file), three
// forms: Markdown (Accept: text/markdown), HTML to print, and PDF (bordero-pdf.ts). Instants in Brasília time,
// never UTC. Every value from the customer's data is escaped in Markdown and HTML.
import { documentoFormatado } from '../../platform/lib/documento-format.ts'
import { brl, dataBr } from '../../platform/lib/brl.ts'
import { instantLabel, TIME_ZONE_NOTE } from '../../platform/lib/brasilia-time.ts'
import { html, join, type Html } from '../../platform/lib/html.ts'
import { escapeMarkdown as md } from '../../platform/lib/markdown-escape.ts'
import { dec, fixed } from '../pricing/index.ts'
import type { BorderoHead, BorderoRow, Conta } from './bordero-data.ts'
import { capitalized, ESTADO_OPERACAO_TEXTO, inWords, TIPO_TITULO_TEXTO } from './labels.ts'

/** A code's words as a document's field starts: "Duplicata de serviço". */
const told = (texts: Record<string, string>, code: string): string => capitalized(inWords(texts, code))

const BASES: Record<string, string> = { simples_30: 'juros simples, mês de 30 dias', composta_30: 'juros compostos, mês de 30 dias' }

const docLabel = (d: string) => `${d.length === 11 ? 'CPF' : 'CNPJ'} ${documentoFormatado(d)}`

/** An instant as the document prints it: "04/10/2026, 21:30:00 (horário de Brasília)". */
export const instantBr = (d: Date | string): string => `${instantLabel(d)} (${TIME_ZONE_NOTE})`

/** "0.045860" → "4,5860": a fraction as a percentage, in decimal arithmetic (no float). */
const percent = (fraction: string): string => fixed(dec(fraction).times(100), 4).replace('.', ',')

export const operationTitle = (h: BorderoHead) => `Borderô da operação nº ${h.op.numero}`

export type Facts = [string, string][]
export type Section = { title: string, facts: Facts }

const conta = (c: Conta) => `Banco ${c.banco}, agência ${c.agencia}, conta ${c.conta}-${c.digito} (titular ${docLabel(c.titularDocumento)})`

/** The sections above the títulos: the parties, the operation, the product's terms. */
export function headSections(h: BorderoHead): Section[] {
  const c = h.cedente
  const where = c.municipioIbge || c.uf ? `município ${c.municipioIbge ?? 'não informado'} (código IBGE)${c.uf ? `, ${c.uf}` : ''}` : 'não cadastrado'
  const parties: Facts = [
    ['Cessionária', h.cessionaria.nome],
    ['CNPJ da cessionária', h.cessionaria.documento ? documentoFormatado(h.cessionaria.documento) : 'não cadastrado'],
    ['Cedente', c.razaoSocial],
    [c.documento.length === 11 ? 'CPF do cedente' : 'CNPJ do cedente', documentoFormatado(c.documento)],
    ['Endereço do cedente', where],
  ]
  const q = h.quote
  const operation: Facts = [
    ['Data da operação', dataBr(h.op.dataOperacao)],
    ['Estado', told(ESTADO_OPERACAO_TEXTO, h.op.estado)],
    ['Títulos', String(h.quantidadeTitulos)],
  ]
  if (q) operation.push(['Cotação', `versão ${q.versao}, válida até ${instantBr(q.valida_ate)}`])
  if (h.op.aceitaEm) operation.push(['Aceita em', instantBr(h.op.aceitaEm)])
  const v = h.produto.versao
  const terms: Facts = [['Produto', v ? `${h.produto.nome}, versão ${v.versao}` : h.produto.nome]]
  if (v) {
    terms.push(
      ['Base de cálculo', BASES[v.base] ?? v.base], ['Taxa de desconto', `${percent(v.taxaMensal)} % ao mês`],
      ['Ad valorem', `${percent(v.taxaAdValorem)} % do valor de face`], ['Tarifa por título', brl(v.tarifaPorTituloCentavos)],
      ['Tarifa de cadastro', `${brl(v.tacCentavos)} por operação`],
      ['IOF', v.iof === 'isento' ? `isento${v.motivoIsencao ? ` (${v.motivoIsencao})` : ''}` : `calculado${q?.iof?.perfil ? ` (perfil ${q.iof.perfil})` : ''}`],
    )
    const float = Object.keys(TIPO_TITULO_TEXTO).map((t) => [t, v.diasFloat[t as keyof typeof v.diasFloat]] as const).filter(([, d]) => d)
    terms.push(['Dias de compensação', float.length ? float.map(([t, d]) => `${told(TIPO_TITULO_TEXTO, t)}: ${d}`).join('; ') : 'nenhum'])
  }
  return [{ title: 'Partes', facts: parties }, { title: 'Operação', facts: operation }, { title: 'Condições do produto', facts: terms }]
}

export const HEAD = ['Nº', 'Tipo', 'Sacado', 'Vencimento', 'Venc. útil', 'Dias', 'Valor de face', 'Deságio', 'Ad valorem', 'Tarifa', 'IOF', 'Preço de compra']
/** The columns from this one on are numbers, aligned right. */
export const FIRST_NUMBER = 5

export function rowCells(r: BorderoRow): string[] {
  const t = r.titulo
  const l = r.linha
  const money = (k: string) => (l ? brl(Number(l[k])) : '')
  return [
    t.numero, told(TIPO_TITULO_TEXTO, t.tipo), r.sacado ? `${r.sacado.razaoSocial} (${docLabel(r.sacado.documento)})` : '',
    dataBr(t.vencimento), l ? dataBr(String(l.vencimento_util)) : '', l ? String(l.dias_desconto) : '',
    brl(t.valorFaceCentavos), money('desagio_centavos'), money('ad_valorem_centavos'), money('tarifa_centavos'), money('iof_centavos'),
    money('preco_compra_centavos'),
  ]
}

/** The sections below the títulos: the totals, the account to be paid, the formalization. */
export function tailSections(h: BorderoHead): Section[] {
  const out: Section[] = []
  const q = h.quote
  if (q) {
    const t = q.totais
    out.push({ title: 'Totais', facts: [
      ['Valor de face', brl(t.valor_face_centavos!)], ['Deságio', brl(t.desagio_centavos!)], ['Ad valorem', brl(t.ad_valorem_centavos!)],
      ['Tarifas', brl(t.tarifas_centavos!)], ['Tarifa de cadastro', brl(t.tac_centavos!)], ['IOF', brl(t.iof_centavos!)],
      ...(t.compensacoes_centavos ? [['Compensações', brl(t.compensacoes_centavos)] as [string, string]] : []),
      ['Valor líquido', brl(t.valor_liquido_centavos!)],
      ['Prazo médio', `${q.prazo_medio_dias.replace('.', ',')} dias`],
      ['Taxa efetiva mensal', q.taxa_efetiva_mensal === null ? '—' : `${percent(q.taxa_efetiva_mensal)} % a.m.`],
    ] })
  }
  const contas = h.contas
  const pay: Facts = contas.contas.length === 0 ? [['Conta', 'o cedente não tem conta bancária cadastrada']]
    : contas.contas.length === 1 || contas.pedido ? [['Conta', conta(contas.contas[0]!)]]
      : contas.contas.map((c, i) => [`Conta ${i + 1}`, conta(c)] as [string, string]).concat([['Escolha', 'a conta é escolhida no pedido de desembolso']])
  out.push({ title: contas.pedido ? 'Conta do pagamento' : 'Conta a ser paga', facts: pay })
  const op = h.op
  if (op.termoSha256) {
    out.push({ title: 'Formalização', facts: [
      ['Termo de cessão assinado em', instantBr(op.assinadoEm!)], ['SHA-256 do termo', op.termoSha256],
      ...(op.signatarios ?? []).map((s) => ['Signatário', `${s.nome} (${docLabel(s.documento)})`] as [string, string]),
    ] })
  }
  return out
}

/** Who signs: the cedente's signatories when known (else the cedente itself), and the cessionária. */
export function signatureLines(h: BorderoHead): string[] {
  const cedente = h.op.signatarios?.length
    ? h.op.signatarios.map((s) => `${s.nome} (${docLabel(s.documento)}), pelo cedente ${h.cedente.razaoSocial}`)
    : [`Cedente: ${h.cedente.razaoSocial} (${docLabel(h.cedente.documento)})`]
  const cessionaria = `Cessionária: ${h.cessionaria.nome}${h.cessionaria.documento ? ` (CNPJ ${documentoFormatado(h.cessionaria.documento)})` : ''}`
  return [...cedente, cessionaria]
}

export const issuedAt = (now: Date) => `Emitido em ${instantBr(now)}.`

/** The Markdown. */
export function borderoMarkdown(h: BorderoHead, rows: readonly BorderoRow[], now: Date): string {
  const facts = (s: Section) => ['', `## ${s.title}`, '', ...s.facts.map(([k, v]) => `- **${k}:** ${md(v)}`)]
  const out = [`# ${operationTitle(h)}`, ...headSections(h).flatMap(facts), '', '## Títulos', '']
  out.push(`| ${HEAD.join(' | ')} |`, `|${HEAD.map((_, i) => (i >= FIRST_NUMBER ? ' ---: ' : ' --- ')).join('|')}|`)
  for (const r of rows) out.push(`| ${rowCells(r).map(md).join(' | ')} |`)
  out.push(...tailSections(h).flatMap(facts), '', '## Assinaturas', '')
  for (const who of signatureLines(h)) out.push('', '\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_', md(who), '')
  out.push('Local e data: \\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_', '', md(issuedAt(now)))
  return `${out.join('\n')}\n`
}

/**
 * On the page, what a line break would garble stays whole: an amount ("R$ 1.234,56"), a CPF or CNPJ (the
 * alphanumeric one too), each in a span the stylesheet keeps on one line; the rest of the text wraps as usual.
 */
const WHOLE = /−?R\$ [\d.]+,\d{2}|\b[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}\b|\b\d{3}\.\d{3}\.\d{3}-\d{2}\b/g
function keptWhole(text: string): Html {
  const parts: Html[] = []
  let at = 0
  for (const m of text.matchAll(WHOLE)) {
    parts.push(html`${text.slice(at, m.index)}<span class="inteiro">${m[0]}</span>`)
    at = m.index + m[0].length
  }
  parts.push(html`${text.slice(at)}`)
  return join(parts, '')
}

/** Each column's cell: the título's number and the dates on one line, the sacado's document whole, figures right-aligned. */
function cellHtml(v: string, i: number): Html {
  if (i >= FIRST_NUMBER) return html`<td class="num">${v}</td>`
  if (i === 0) return html`<td class="inteiro">${v}</td>`
  if (i === 2) return html`<td class="sacado">${keptWhole(v)}</td>`
  if (i === 3 || i === 4) return html`<td class="inteiro">${v}</td>`
  return html`<td>${v}</td>`
}

/**
 * The HTML. On a narrow screen the table of títulos scrolls sideways in a region
 * a keyboard can reach (tabindex, named), never the whole page; printed, it is an A4 page in landscape (site.css).
 */
export function borderoHtml(h: BorderoHead, titles: readonly BorderoRow[], now: Date): Html {
  const facts = (s: Section) => html`<h2>${s.title}</h2>
<dl>${join(s.facts.map(([k, v]) => html`<dt>${k}</dt><dd>${keptWhole(v)}</dd>`), '\n')}</dl>`
  const rows = titles.map((r) => html`<tr>${join(rowCells(r).map(cellHtml), '')}</tr>`)
  return html`<article class="bordero">
<h1>${operationTitle(h)}</h1>
${join(headSections(h).map(facts), '\n')}
<h2>Títulos</h2>
<div class="bordero-titulos" role="region" aria-label="Títulos da operação" tabindex="0">
<table>
<thead><tr>${join(HEAD.map((x, i) => (i >= FIRST_NUMBER ? html`<th scope="col" class="num">${x}</th>` : html`<th scope="col">${x}</th>`)), '')}</tr></thead>
<tbody>
${join(rows, '\n')}
</tbody>
</table>
</div>
${join(tailSections(h).map(facts), '\n')}
<h2>Assinaturas</h2>
${join(signatureLines(h).map((who) => html`<p class="assinatura">______________________________<br>${keptWhole(who)}</p>`), '\n')}
<p>Local e data: ____________________</p>
<p>${issuedAt(now)}</p>
</article>`
}

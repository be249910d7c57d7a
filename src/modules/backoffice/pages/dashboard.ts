// The dashboard at /conta: the day's numbers from one API read (GET /api/painel). Each chart is an SVG drawn
// here (bars, no library, no script) with a title and a description for screen readers, and its numbers in a
// table beside it: the table is the record, the chart the glance.
import { html, type Html } from '../../../platform/lib/html.ts'
import { brl } from '../../../platform/lib/brl.ts'
import { ACCOUNT_PATHS, type Page } from '../../account/index.ts'
import { boPage, cell, numCell } from '../layout.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import { data, documentoFormatado, estadoOperacao } from '../labels.ts'
import type { ViewContext } from '../view-context.ts'

type Amount = { quantidade: number, valor_centavos: number }
type Exposure = { id: string, razao_social: string, documento: string, exposicao_centavos: number, limite_centavos: number | null }

/** GET /api/painel's answer, as the page reads it. */
export type Painel = {
  hoje: string
  exposicao_cedentes: Exposure[]
  exposicao_sacados: Exposure[]
  vencimentos: (Amount & { dias: number })[]
  vencidos: Amount
  desembolsos_aguardando_aprovacao: Amount
  desembolsos_aprovados: Amount
  desembolsos_pagos_hoje: Amount
  operacoes_por_estado: { estado: string, quantidade: number }[]
}

type Bar = { label: string, value: number, shown: string, marker?: number | null }

const WIDTH = 480
const ROW = 46

/**
 * Horizontal bars, one a row, each labelled with its name and its figure; `marker` (a limit) a line across its
 * row, at the same scale, so a bar past its line is an exposure past its limit.
 */
function barChart(id: string, title: string, description: string, bars: Bar[]): Html {
  const max = Math.max(1, ...bars.flatMap((b) => [b.value, b.marker ?? 0]))
  const x = (v: number) => Math.round((v / max) * (WIDTH - 2) * 10) / 10
  const height = Math.max(1, bars.length) * ROW
  const rows = bars.map((b, i) => {
    const y = i * ROW
    const limit = b.marker ?? null
    return html`<g>
<text x="0" y="${String(y + 15)}" class="grafico-rotulo">${b.label}: ${b.shown}</text>
<rect x="0" y="${String(y + 22)}" width="${String(Math.max(b.value > 0 ? 2 : 0, x(b.value)))}" height="14" rx="2" \
class="grafico-barra${limit !== null && b.value > limit ? ' grafico-acima' : ''}"></rect>\
${limit !== null && html`\n<line x1="${String(x(limit))}" x2="${String(x(limit))}" y1="${String(y + 19)}" y2="${String(y + 40)}" \
class="grafico-limite"></line>`}
</g>`
  })
  return html`<figure class="grafico" id="${id}-grafico">
<svg viewBox="0 0 ${String(WIDTH)} ${String(height)}" width="100%" role="img" aria-labelledby="${id}-svg-titulo ${id}-svg-desc" \
preserveAspectRatio="xMinYMin meet">
<title id="${id}-svg-titulo">${title}</title>
<desc id="${id}-svg-desc">${description}</desc>
${bars.length ? rows : html`<text x="0" y="24" class="grafico-rotulo">Nada a mostrar.</text>`}
</svg>
</figure>`
}

/** A chart and its table side by side (one above the other on a phone; a `wide` table, below 90 rem too). */
const pair = (id: string, heading: string, chart: Html, tableHtml: Html, wide = false): Html => html`<section class="painel-bloco" \
aria-labelledby="${id}-titulo">
<h2 id="${id}-titulo">${heading}</h2>
<div class="painel-par${wide ? ' painel-par-largo' : ''}">
${chart}
${tableHtml}
</div>
</section>`

function numbersTable(id: string, caption: string, heads: readonly { text: string, num?: boolean }[], rows: Html[], empty: string): Html {
  if (!rows.length) return html`<p id="${id}-vazio">${empty}</p>`
  return html`<table id="${id}" class="empilhavel">
<caption>${caption}</caption>
<thead><tr>${heads.map((h) => html`<th scope="col"${h.num && html` class="num"`}>${h.text}</th>`)}</tr></thead>
<tbody>
${rows}
</tbody>
</table>`
}

function exposureBlock(id: string, heading: string, kind: 'cedente' | 'sacado', list: Exposure[]): Html {
  const bars = list.map((e) => ({ label: e.razao_social, value: e.exposicao_centavos, shown: brl(e.exposicao_centavos), marker: e.limite_centavos }))
  const over = list.filter((e) => e.limite_centavos !== null && e.exposicao_centavos > e.limite_centavos).length
  const description = list.length
    ? `${list.length} maiores exposições por ${kind}, da maior para a menor; a linha vertical marca o limite de cada um`
      + `${over ? `; ${over} acima do limite` : ''}.`
    : `Nenhum ${kind} com títulos em aberto.`
  const rows = list.map((e) => html`<tr data-id="${e.id}">\
<th scope="row"><a href="${kind === 'cedente' ? P.cedente(e.id) : `${P.titulos}?sacado_id=${e.id}`}">${e.razao_social}</a></th>\
${cell('Documento', documentoFormatado(e.documento))}${numCell('Exposição', brl(e.exposicao_centavos))}\
${numCell('Limite', e.limite_centavos === null ? 'sem limite' : brl(e.limite_centavos))}\
${numCell('Uso do limite', e.limite_centavos ? `${((e.exposicao_centavos * 100) / e.limite_centavos).toFixed(0)}%` : '—')}</tr>`)
  const heads = [{ text: kind === 'cedente' ? 'Cedente' : 'Sacado' }, { text: 'Documento' }, { text: 'Exposição', num: true }, { text: 'Limite', num: true },
    { text: 'Uso do limite', num: true }]
  return pair(id, heading, barChart(id, heading, description, bars),
    numbersTable(id, `${heading}, da maior para a menor`, heads, rows, `Nenhum ${kind} com títulos em aberto.`), true)
}

function dueBlock(p: Painel): Html {
  const lines = [
    ...p.vencimentos.map((v) => ({ key: `${v.dias}`, label: `Nos próximos ${v.dias} dias`, ...v })),
    { key: 'vencidos', label: 'Vencidos, em aberto', ...p.vencidos },
  ]
  const bars = lines.map((l) => ({ label: `${l.label} (${l.quantidade} ${l.quantidade === 1 ? 'título' : 'títulos'})`, value: l.valor_centavos,
    shown: brl(l.valor_centavos) }))
  const rows = lines.map((l) => html`<tr data-prazo="${l.key}"><th scope="row">${l.label}</th>\
${numCell('Títulos', String(l.quantidade))}${numCell('Valor em aberto', brl(l.valor_centavos))}</tr>`)
  const description = `Títulos adquiridos e não liquidados: a vencer de hoje (${data(p.hoje)}) até 7 e até 30 dias, e os já vencidos, pelo saldo em aberto.`
  return pair('painel-vencimentos', 'Títulos a vencer', barChart('painel-vencimentos', 'Títulos a vencer', description, bars),
    numbersTable('painel-vencimentos', 'Títulos a vencer, pelo saldo em aberto', [{ text: 'Prazo' }, { text: 'Títulos', num: true },
      { text: 'Valor em aberto', num: true }], rows, ''))
}

function paymentsBlock(p: Painel): Html {
  const lines = [
    { key: 'aguardando', estado: 'aguardando_aprovacao', label: 'Aguardando aprovação', ...p.desembolsos_aguardando_aprovacao },
    { key: 'aprovados', estado: 'aprovado', label: 'Aprovados, a transferir', ...p.desembolsos_aprovados },
    { key: 'pagos-hoje', estado: 'pago', label: `Pagos hoje (${data(p.hoje)})`, ...p.desembolsos_pagos_hoje },
  ]
  const bars = lines.map((l) => ({ label: `${l.label} (${l.quantidade})`, value: l.valor_centavos, shown: brl(l.valor_centavos) }))
  const rows = lines.map((l) => html`<tr data-desembolsos="${l.key}"><th scope="row"><a href="${P.desembolsos}?estado=${l.estado}">${l.label}</a></th>\
${numCell('Desembolsos', String(l.quantidade))}${numCell('Valor', brl(l.valor_centavos))}</tr>`)
  return pair('painel-desembolsos', 'Desembolsos', barChart('painel-desembolsos', 'Desembolsos',
    'Desembolsos aguardando a aprovação de uma segunda pessoa, aprovados ainda por transferir, e pagos hoje, pelo valor.', bars),
  numbersTable('painel-desembolsos', 'Desembolsos', [{ text: 'Situação' }, { text: 'Desembolsos', num: true }, { text: 'Valor', num: true }], rows, ''))
}

function statesBlock(p: Painel): Html {
  const total = p.operacoes_por_estado.reduce((s, e) => s + e.quantidade, 0)
  const bars = p.operacoes_por_estado.map((e) => ({ label: estadoOperacao(e.estado), value: e.quantidade, shown: String(e.quantidade) }))
  const rows = p.operacoes_por_estado.map((e) => html`<tr data-estado="${e.estado}"><th scope="row">\
<a href="${P.operacoes}?estado=${e.estado}">${estadoOperacao(e.estado)}</a></th>${numCell('Operações', String(e.quantidade))}</tr>`)
  return pair('painel-estados', 'Operações por estado', barChart('painel-estados', 'Operações por estado',
    `${total} ${total === 1 ? 'operação' : 'operações'}, contadas pelo estado em que estão, na ordem do fluxo: de rascunho a desembolsada, `
      + 'e canceladas.', bars),
  numbersTable('painel-estados', 'Operações por estado', [{ text: 'Estado' }, { text: 'Operações', num: true }], rows, ''))
}

/** GET /api/cobrancas/painel's answer, as the page reads it. */
export type PainelCobranca = {
  a_registrar: Amount, registradas: Amount, vencidas: Amount, liquidadas_hoje: Amount, instrucoes_em_andamento: number, retornos_aplicando: number,
  linhas_ignoradas: number, valores_a_identificar_centavos: number
}

function collectionsBlock(p: Painel, c: PainelCobranca): Html {
  const lines = [
    // A line links to the list only where the list's filter gives the same rows.
    { key: 'a-registrar', label: 'A registrar no banco', href: `${P.cobrancas}?estado=a_registrar`, ...c.a_registrar },
    { key: 'registradas', label: 'Registradas, em aberto', href: `${P.cobrancas}?estado=registrada`, ...c.registradas },
    { key: 'vencidas', label: 'Registradas e vencidas', href: undefined, ...c.vencidas },
    { key: 'liquidadas-hoje', label: `Pagas hoje (${data(p.hoje)}), pelo valor recebido`, href: P.retornos, ...c.liquidadas_hoje },
  ]
  const bars = lines.map((l) => ({ label: `${l.label} (${l.quantidade})`, value: l.valor_centavos, shown: brl(l.valor_centavos) }))
  const rows = lines.map((l) => html`<tr data-cobrancas="${l.key}"><th scope="row">${l.href ? html`<a href="${l.href}">${l.label}</a>` : l.label}</th>\
${numCell('Cobranças', String(l.quantidade))}${numCell('Valor', brl(l.valor_centavos))}</tr>`)
  const pending = html`<dl class="dados" id="painel-cobranca-pendencias">
<dt>Instruções a caminho do banco</dt><dd id="painel-instrucoes">${c.instrucoes_em_andamento}</dd>
<dt>Retornos em aplicação</dt><dd id="painel-retornos-aplicando"><a href="${P.retornos}">${c.retornos_aplicando}</a></dd>
<dt>Linhas de retorno ignoradas (30 dias)</dt><dd id="painel-linhas-ignoradas"><a href="${P.retornos}">${c.linhas_ignoradas}</a></dd>
<dt>Valores a identificar</dt><dd id="painel-valores-a-identificar"><a href="${P.razao}">${brl(c.valores_a_identificar_centavos)}</a></dd>
</dl>`
  return pair('painel-cobranca', 'Cobrança', barChart('painel-cobranca', 'Cobrança',
    'Cobranças a registrar no banco, registradas em aberto e as vencidas entre elas, pelo valor; e os pagamentos aplicados hoje, pelo valor recebido.', bars),
  html`${numbersTable('painel-cobranca', 'Cobranças', [{ text: 'Situação' }, { text: 'Cobranças', num: true }, { text: 'Valor', num: true }], rows, '')}
${pending}`)
}

export function dashboardPage(v: ViewContext, p: Painel, cobranca?: PainelCobranca): Page {
  return boPage(ACCOUNT_PATHS.painel, 'Painel', 'Os números do dia da empresa: exposição, vencimentos, desembolsos, cobrança e operações.', v.shown, html`\
<p id="painel-hoje">Hoje, ${data(p.hoje)} (horário de Brasília).</p>
<div class="painel">
${paymentsBlock(p)}
${dueBlock(p)}
${cobranca && collectionsBlock(p, cobranca)}
${exposureBlock('painel-cedentes', 'Exposição por cedente', 'cedente', p.exposicao_cedentes)}
${exposureBlock('painel-sacados', 'Exposição por sacado', 'sacado', p.exposicao_sacados)}
${statesBlock(p)}
</div>`)
}

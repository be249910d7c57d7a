// One retorno file (issue 33: "the answer … and a page in the back office lists applied, ignored and refused
// lines"): what it is and how far its application got, then its títulos' lines in the file's order, each with the
// occurrence in words, its amounts and what became of it (an ignored line with why). Filtered by result and paged
// by the API's cursor (`depois`). A large file is applied by a job: while it is, the page says how far it got, and a
// reload shows more (no script).
import { html, type Html } from '../../../platform/lib/html.ts'
import { brl } from '../../../platform/lib/brl.ts'
import type { Page } from '../../account/index.ts'
import { RESULTADO_LINHA_TEXTO } from '../../collections/index.ts'
import type { CollectionAccount, List, RetornoAnswer, RetornoLine } from '../answers.ts'
import { data, estadoRetorno, instante, motivoIgnorada, ocorrencia, opcoes, resultadoLinha } from '../labels.ts'
import { amountHead, boPage, cell, numCell, table } from '../layout.ts'
import { cursorPager, filterSelect } from '../list-controls.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import type { ViewContext } from '../view-context.ts'
import { accountName } from './charges.ts'

export const LINES = 100

export type LinesQuery = { resultado?: string, depois?: string }

export function linesQueryOf(query: Record<string, string | undefined>): LinesQuery {
  const { resultado, depois } = query
  return {
    ...(resultado && Object.hasOwn(RESULTADO_LINHA_TEXTO, resultado) ? { resultado } : {}),
    ...(depois && /^[1-9][0-9]{0,8}$/.test(depois) ? { depois } : {}),
  }
}

const searchOf = (q: LinesQuery) => new URLSearchParams(Object.entries(q) as [string, string][])

export const linesApiUrl = (id: string, q: LinesQuery): string => `/api/cnab/retornos/${id}/linhas?limite=${LINES}&${searchOf(q)}`

/** Every line the filter gives, as the API's CSV (the page's "Exportar CSV"). */
export const linesExportUrl = (id: string, q: LinesQuery): string =>
  `/api/cnab/retornos/${id}/linhas${q.resultado ? `?${searchOf({ resultado: q.resultado })}` : ''}`

const amount = (c: number) => (c ? brl(c) : '')

/** What became of the line: applied (and undone, when a cheque bounced), pending, or ignored with why and the detail. */
function result(l: RetornoLine): Html {
  if (l.resultado === 'ignorada') {
    return html`ignorada: ${motivoIgnorada(l.motivo)}${l.detalhe && html` <small class="detalhe">(${l.detalhe})</small>`}`
  }
  return html`${resultadoLinha(l.resultado)}${l.detalhe && html` <small class="detalhe">(${l.detalhe})</small>`}\
${l.estornada_em && html`; estornada em ${instante(l.estornada_em)}`}`
}

function progress(r: RetornoAnswer): Html | false {
  if (r.estado !== 'aplicando') return false
  const done = r.aplicadas + r.ignoradas
  return html`<div class="aviso" id="aplicando" role="status">
<p>Este arquivo está sendo aplicado: <span id="aplicando-feitas">${done}</span> de ${r.titulos} títulos até agora \
(${r.aplicadas} aplicados, ${r.ignoradas} ignorados). Nenhuma linha é lançada duas vezes, mesmo se o serviço reiniciar.</p>
<p><label for="progresso">Progresso</label> <progress id="progresso" max="${r.titulos}" value="${done}">${done} de ${r.titulos}</progress></p>
<p><a href="${P.retorno(r.id)}" id="recarregar">Recarregar</a> para ver o progresso.</p>
</div>`
}

export function retornoPage(v: ViewContext, r: RetornoAnswer, conta: CollectionAccount, lines: List<RetornoLine>, q: LinesQuery): Page {
  const rows = lines.itens.map((l) => html`<tr data-linha="${l.linha}" data-resultado="${l.resultado}"><th scope="row">${l.linha}</th>\
${cell('Nosso número', l.nosso_numero)}${cell('Ocorrência', `${ocorrencia(l.ocorrencia)} (${l.codigo})`)}${cell('Data', data(l.data_ocorrencia) || '—')}\
${numCell('Pago', amount(l.pago_centavos))}${numCell('Juros e multa', amount(l.juros_multa_centavos))}${numCell('Desconto', amount(l.desconto_centavos))}\
${numCell('Abatimento', amount(l.abatimento_centavos))}${numCell('Tarifa', amount(l.tarifa_centavos))}${cell('Resultado', result(l))}</tr>`)
  const filter = html`<form method="get" action="${P.retorno(r.id)}" class="filtros" role="search" aria-label="Filtrar as linhas">
${filterSelect('resultado', 'Resultado', opcoes(RESULTADO_LINHA_TEXTO), q.resultado)}
<div class="filtro-acoes"><button type="submit" id="filtrar">Filtrar</button> <a href="${P.retorno(r.id)}" id="limpar-filtros">Limpar</a></div>
</form>`
  const first = q.depois !== undefined ? `${P.retorno(r.id)}${q.resultado ? `?resultado=${q.resultado}` : ''}` : undefined
  const next = lines.proximo === null ? undefined : `${P.retorno(r.id)}?${searchOf({ ...q, depois: String(lines.proximo) })}`
  return boPage(P.cobrancas, `Retorno ${r.nsa || 'sem NSA'} de ${conta.nome}`, 'Um arquivo de retorno do banco: o que cada linha moveu.', v.shown, html`
<p><a href="${P.retornos}">← Retornos do banco</a></p>
${progress(r)}
<dl class="dados" id="resumo">
<dt>Conta de cobrança</dt><dd>${accountName(conta)}</dd>
<dt>Enviado em</dt><dd>${instante(r.criado_em)}</dd>
<dt>Gerado pelo banco em</dt><dd>${data(r.data_geracao) || '—'}</dd>
<dt>Layout</dt><dd>CNAB ${r.layout}</dd>
<dt>Ocorrências no arquivo</dt><dd id="resumo-titulos">${r.titulos}</dd>
<dt>Aplicadas</dt><dd id="resumo-aplicadas">${r.aplicadas}</dd>
<dt>Ignoradas</dt><dd id="resumo-ignoradas">${r.ignoradas}</dd>
<dt>Pendentes</dt><dd id="resumo-pendentes">${r.pendentes}</dd>
<dt>Estado</dt><dd id="estado">${estadoRetorno(r.estado)}${r.concluido_em && html` em ${instante(r.concluido_em)}`}</dd>
</dl>
<h2 id="titulo-linhas">Linhas</h2>
${filter}
<p class="exportar"><a href="${P.retorno(r.id)}?${searchOf({ ...(q.resultado ? { resultado: q.resultado } : {}), formato: 'csv' } as LinesQuery).toString()}" \
id="linhas-exportar" download>Exportar CSV</a> <small>(para o Excel e a conciliação: todas as linhas do filtro, com o que foi pago e o que \
aconteceu com cada uma)</small></p>
${table('linhas', 'Linhas do arquivo, na ordem dele',
    ['Linha', 'Nosso número', 'Ocorrência', 'Data', ...['Pago', 'Juros e multa', 'Desconto', 'Abatimento', 'Tarifa'].map(amountHead), 'Resultado'], rows,
    q.resultado ? 'Nenhuma linha com este resultado.' : 'Nenhuma linha.')}
${cursorPager('linhas', first, next, ['← Primeiras linhas', 'Próximas linhas →'])}`)
}

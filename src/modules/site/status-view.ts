// The live status as a page component: the snapshot behind GET /api/status, as HTML (which the browser
// code refreshes from that endpoint every few seconds) and as Markdown with the same values.
import type { StatusOutT } from '../status/index.ts'
import type { Block } from './content.ts'
import {
  STATUS_COLUMNS, instantLabel, latencyLabel, maintenanceText, modeLabel, okLabel, serviceLabel, statusLabel, TIME_ZONE_NOTE,
} from './format.ts'
import { html, join, type Html } from '../../platform/lib/html.ts'
import { cell, code, escapeMarkdown } from './markdown.ts'

export const STATUS_API = '/api/status'
export const REFRESH_SECONDS = 5

export function statusMarkdown(s: StatusOutT): string {
  const out: string[] = []
  const banner = maintenanceText(s.manutencao)
  if (banner) out.push(`> **${escapeMarkdown(banner)}**`, '')
  out.push(`**Estado geral: ${statusLabel(s.status)}** (${code(s.status)}) · ambiente ${code(s.ambiente)}${s.versao ? ` · versão ${code(s.versao)}` : ''}`, '')
  out.push('| Serviço | Situação | Latência | Modo |', '|---|---|---|---|')
  for (const sv of s.servicos) {
    out.push(`| ${cell(serviceLabel(sv.nome))} (${code(sv.nome)}) | ${sv.ok ? 'ok' : '**com falha**'} | `
      + `${latencyLabel(sv.latencia_ms)} | ${cell(modeLabel(sv.modo))} |`)
  }
  out.push('', `Verificado em ${instantLabel(s.verificado_em)} (${TIME_ZONE_NOTE}) — ${code(s.verificado_em)}.`)
  return out.join('\n') + '\n'
}

export function servicesRowsHtml(s: StatusOutT): Html {
  return join(s.servicos.map((sv) => html`<tr data-servico="${sv.nome}"><th scope="row">${serviceLabel(sv.nome)}</th>\
<td data-rotulo="${STATUS_COLUMNS[1]}"><span class="selo ${sv.ok ? 'selo-ok' : 'selo-falha'}">${okLabel(sv.ok)}</span></td>\
<td data-rotulo="${STATUS_COLUMNS[2]}">${latencyLabel(sv.latencia_ms)}</td><td data-rotulo="${STATUS_COLUMNS[3]}">${modeLabel(sv.modo)}</td></tr>`), '\n')
}

export function statusHtml(s: StatusOutT): Html {
  const banner = maintenanceText(s.manutencao)
  return html`<section id="status-ao-vivo" class="status" data-fonte="${STATUS_API}" data-intervalo="${REFRESH_SECONDS * 1000}" aria-label="Status ao vivo">
<div id="manutencao" class="aviso aviso-manutencao"${!banner && html` hidden`}>\
<p><strong id="manutencao-texto">${banner}</strong></p></div>
<p class="estado-geral">Estado geral: <strong id="estado-geral" class="selo selo-${s.status}" data-status="${s.status}">\
${statusLabel(s.status)}</strong></p>
<table id="servicos" class="empilhavel">
<caption>Serviços</caption>
<thead><tr>${STATUS_COLUMNS.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
<tbody>
${servicesRowsHtml(s)}
</tbody>
</table>
<p class="verificacao">Verificado em <time id="verificado-em" datetime="${s.verificado_em}">${instantLabel(s.verificado_em)}</time> \
(${TIME_ZONE_NOTE}). Ambiente: <span id="ambiente">${s.ambiente}</span>.
<span id="atualizacao" class="js-somente" hidden></span></p>
<p id="anuncio-status" class="visualmente-oculto" role="status"></p>
<noscript><p><a href="/status">Atualizar agora</a> (com JavaScript, esta página se atualiza sozinha a cada ${REFRESH_SECONDS} segundos).</p></noscript>
</section>`
}

export function statusBlock(s: StatusOutT): Block {
  return { markdown: statusMarkdown(s), html: statusHtml(s) }
}

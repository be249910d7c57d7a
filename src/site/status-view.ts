// The live status as a page component: the snapshot behind GET /api/status, as HTML (which the browser
// code refreshes from that endpoint every few seconds) and as Markdown with the same values.
import type { StatusOutT } from '../status/schemas.ts'
import type { Block } from './content.ts'
import {
  STATUS_COLUMNS, instantLabel, latencyLabel, maintenanceText, modeLabel, okLabel, serviceLabel, statusLabel, TIME_ZONE_NOTE,
} from './format.ts'
import { escapeHtml } from '../markup-escape.ts'
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

export function servicesRowsHtml(s: StatusOutT): string {
  return s.servicos.map((sv) => `<tr data-servico="${escapeHtml(sv.nome)}">`
    + `<th scope="row">${escapeHtml(serviceLabel(sv.nome))}</th>`
    + `<td data-rotulo="${STATUS_COLUMNS[1]}"><span class="selo ${sv.ok ? 'selo-ok' : 'selo-falha'}">${okLabel(sv.ok)}</span></td>`
    + `<td data-rotulo="${STATUS_COLUMNS[2]}">${escapeHtml(latencyLabel(sv.latencia_ms))}</td>`
    + `<td data-rotulo="${STATUS_COLUMNS[3]}">${escapeHtml(modeLabel(sv.modo))}</td></tr>`).join('\n')
}

export function statusHtml(s: StatusOutT): string {
  const banner = maintenanceText(s.manutencao)
  return `<section id="status-ao-vivo" class="status" data-fonte="${STATUS_API}" data-intervalo="${REFRESH_SECONDS * 1000}" aria-label="Status ao vivo">
<div id="manutencao" class="aviso aviso-manutencao"${banner ? '' : ' hidden'}>`
    + `<p><strong id="manutencao-texto">${banner ? escapeHtml(banner) : ''}</strong></p></div>
<p class="estado-geral">Estado geral: <strong id="estado-geral" class="selo selo-${escapeHtml(s.status)}" data-status="${escapeHtml(s.status)}">`
    + `${escapeHtml(statusLabel(s.status))}</strong></p>
<table id="servicos" class="empilhavel">
<caption>Serviços</caption>
<thead><tr>${STATUS_COLUMNS.map((c) => `<th scope="col">${c}</th>`).join('')}</tr></thead>
<tbody>
${servicesRowsHtml(s)}
</tbody>
</table>
<p class="verificacao">Verificado em <time id="verificado-em" datetime="${escapeHtml(s.verificado_em)}">${escapeHtml(instantLabel(s.verificado_em))}</time> `
    + `(${TIME_ZONE_NOTE}). Ambiente: <span id="ambiente">${escapeHtml(s.ambiente)}</span>.
<span id="atualizacao" class="js-somente" hidden></span></p>
<p id="anuncio-status" class="visualmente-oculto" role="status"></p>
<noscript><p><a href="/status">Atualizar agora</a> (com JavaScript, esta página se atualiza sozinha a cada ${REFRESH_SECONDS} segundos).</p></noscript>
</section>`
}

export function statusBlock(s: StatusOutT): Block {
  return { markdown: statusMarkdown(s), html: statusHtml(s) }
}

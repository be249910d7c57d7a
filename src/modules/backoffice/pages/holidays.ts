// The holidays that move due dates: the national ones (computed) and the company's own, for a year; the form that
// adds one for a municipality or a state, and removing one of the company's.
import { html } from '../../../platform/lib/html.ts'
import { dataBr } from '../../../platform/lib/brl.ts'
import { hidden, type Page } from '../../account/index.ts'
import type { Holiday } from '../answers.ts'
import { form, input } from '../forms.ts'
import { abrangenciaFeriado } from '../labels.ts'
import { boPage, cell, table } from '../layout.ts'
import { BACKOFFICE_PATHS } from '../paths.ts'
import { mayChange, type ViewContext } from '../view-context.ts'

export function holidaysPage(v: ViewContext, year: number, feriados: Holiday[]): Page {
  const changes = mayChange(v, 'cadastro')
  const rows = feriados.map((f) => html`<tr${f.id && html` data-feriado="${f.id}"`}><th scope="row">${dataBr(f.data)}</th>${cell('Descrição', f.descricao)}\
${cell('Abrangência', abrangenciaFeriado(f.abrangencia))}${cell('Lugar', f.municipio_ibge ?? f.uf ?? 'Brasil')}\
${changes && cell('Ação', f.id ? form({
    id: `remover-${f.id}`, action: BACKOFFICE_PATHS.removerFeriado, csrf: v.csrf, inline: true,
    button: html`Remover<span class="visualmente-oculto"> o feriado de ${dataBr(f.data)}</span>`,
  }, hidden('feriado_id', f.id)) : '—')}</tr>`)
  const id = 'form-feriado'
  return boPage(BACKOFFICE_PATHS.feriados, 'Feriados', 'Os feriados que movem os vencimentos: os nacionais, calculados, e os da empresa.', v.shown, html`
<p><a href="${BACKOFFICE_PATHS.feriados}?ano=${year - 1}">${year - 1}</a> · <strong>${year}</strong> · \
<a href="${BACKOFFICE_PATHS.feriados}?ano=${year + 1}">${year + 1}</a></p>
${table('feriados', `Feriados de ${year} (${feriados.length})`, ['Data', 'Descrição', 'Abrangência', 'Lugar', ...(changes ? ['Ação'] : [])], rows,
    'Nenhum feriado.')}
${changes && html`<h2 id="titulo-novo">Incluir um feriado da empresa</h2>
${form({ id, action: BACKOFFICE_PATHS.feriados, csrf: v.csrf, button: 'Incluir feriado', buttonId: 'incluir-feriado' }, html`
${input(v.posted, id, { name: 'data', label: 'Data', type: 'date', required: true })}
${input(v.posted, id, { name: 'descricao', label: 'Descrição', required: true })}
${input(v.posted, id, { name: 'municipio_ibge', label: 'Município (código IBGE)', hint: 'Ou a UF: um dos dois.', extra: html` inputmode="numeric"` })}
${input(v.posted, id, { name: 'uf', label: 'UF', extra: html` maxlength="2"` })}
`)}`}`)
}

// Lançamentos manuais, under the razão: what waits for a second person (each entry's lines and amounts, read before
// the confirm button), the form an administrador proposes one with, and the latest decided. The proposer never sees
// the confirm button on their own entry; they may withdraw it.
import { html, type Html } from '../../../platform/lib/html.ts'
import { brl, dataBr } from '../../../platform/lib/brl.ts'
import { instantLabel } from '../../../platform/lib/brasilia-time.ts'
import type { Page } from '../../account/index.ts'
import { CONTAS_MANUAIS } from '../../ledger/index.ts'
import type { List, TrialBalance } from '../answers.ts'
import { form, input, type Posted } from '../forms.ts'
import { maisRecentes } from '../labels.ts'
import { boPage, cell, table } from '../layout.ts'
import { FORM_LINES, lineKey, MOTIVO_TEXTO } from '../manual-entry-form.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import { mayChange, type ViewContext } from '../view-context.ts'

/** A manual entry as GET /api/lancamentos-manuais answers it (the fields this page shows). */
export type ManualEntry = {
  id: string, data: string, historico: string, motivo: string, justificativa: string, estado: string, total_centavos: number,
  linhas: { conta: string, debito_centavos: number, credito_centavos: number }[],
  solicitante_usuario_id: string, solicitado_em: string, confirmado_por_usuario_id: string | null, confirmado_em: string | null,
  recusado_em: string | null, motivo_recusa: string | null,
}

const ESTADO_TEXTO: Record<string, string> = {
  aguardando_confirmacao: 'aguardando confirmação', confirmado: 'confirmado e lançado', recusado: 'recusado',
}

const FORM = 'form-lancamento-manual'

/** An amount's cell: right-aligned, never wrapped (td.num). */
const amountCell = (label: string, centavos: number) => html`<td data-rotulo="${label}" class="num">${centavos ? brl(centavos) : ''}</td>`

/** The page's reads, through the API as the session's person. */
export async function readManualEntries(get: (url: string) => Promise<unknown>, v: ViewContext, today: string): Promise<Page> {
  const [pending, latest, balancete] = await Promise.all([
    get('/api/lancamentos-manuais?estado=aguardando_confirmacao&limite=200'), get('/api/lancamentos-manuais?limite=50'), get('/api/contabil/balancete'),
  ]) as [List<ManualEntry>, List<ManualEntry>, TrialBalance]
  const names = new Map(balancete.contas.map((c) => [c.conta, c.nome]))
  return manualEntriesPage(v, today, pending.itens, latest.itens.filter((m) => m.estado !== 'aguardando_confirmacao'), names)
}

export function manualEntriesPage(v: ViewContext, today: string, pending: ManualEntry[], decided: ManualEntry[], names: Map<string, string>): Page {
  const name = (conta: string) => names.get(conta) ?? conta
  const rows = decided.map((m) => html`<tr data-lancamento-manual="${m.id}"><th scope="row">${dataBr(m.data)}</th>${cell('Histórico', m.historico)}\
${cell('Motivo', MOTIVO_TEXTO[m.motivo] ?? m.motivo)}${amountCell('Total', m.total_centavos)}\
${cell('Situação', `${ESTADO_TEXTO[m.estado] ?? m.estado}${m.motivo_recusa ? `: ${m.motivo_recusa}` : ''}`)}</tr>`)
  return boPage(P.razao, 'Lançamentos manuais', 'Aportes de capital, funding, tarifas bancárias e ajustes: propostos por um administrador, '
    + 'confirmados por outra pessoa antes de entrar no razão.', v.shown, html`
<p><a href="${P.razao}" id="voltar-razao">Voltar ao razão</a></p>
<h2 id="titulo-pendentes">Aguardando confirmação (${pending.length})</h2>
${pending.length ? html`<ul class="lancamentos-manuais" id="pendentes">${pending.map((m) => pendingCard(v, m, name))}</ul>`
    : html`<p id="sem-pendentes">Nenhum lançamento aguardando confirmação.</p>`}
${v.papel === 'administrador' && proposalForm(v, today, name)}
<h2 id="titulo-decididos">Os mais recentes</h2>
${table('decididos', `${maisRecentes(decided.length, { inicio: true })}, ${decided.length === 1 ? 'confirmado ou recusado' : 'confirmados ou recusados'}`,
    ['Data', 'Histórico', 'Motivo', 'Total', 'Situação'], rows,
    'Nenhum lançamento manual decidido ainda.')}`)
}

function pendingCard(v: ViewContext, m: ManualEntry, name: (conta: string) => string): Html {
  const mine = m.solicitante_usuario_id === v.usuarioId
  const refuse = `recusar-${m.id}`
  const lines = m.linhas.map((l) => html`<tr><th scope="row">${name(l.conta)}</th>\
${amountCell('Débito', l.debito_centavos)}${amountCell('Crédito', l.credito_centavos)}</tr>`)
  return html`<li data-lancamento-manual="${m.id}">
<h3>${dataBr(m.data)}: ${m.historico}</h3>
<dl class="dados">
<dt>Motivo</dt><dd>${MOTIVO_TEXTO[m.motivo] ?? m.motivo}: ${m.justificativa}</dd>
<dt>Proposto em</dt><dd>${instantLabel(m.solicitado_em)}${mine && ' (por você)'}</dd>
<dt>Total</dt><dd>${brl(m.total_centavos)}</dd>
</dl>
${table(`linhas-${m.id}`, `Linhas do lançamento de ${dataBr(m.data)}`, ['Conta', 'Débito', 'Crédito'], lines, '')}
${mine && html`<p class="aguarda-outra-pessoa">Aguardando a confirmação de outra pessoa da empresa: quem propõe não confirma.</p>`}
${!mine && mayChange(v, 'aprovacao') && form({
    id: `confirmar-${m.id}`, action: P.acaoLancamentoManual(m.id, 'confirmacao'), csrf: v.csrf, buttonId: `botao-confirmar-${m.id}`,
    // A no-break space: the amount never wraps between "R$" and its figures.
    button: `Confirmar o lançamento de ${brl(m.total_centavos).replace(' ', '\u00a0')}`,
  })}
${mayChange(v, 'aprovacao') && form({
    id: refuse, action: P.acaoLancamentoManual(m.id, 'recusa'), csrf: v.csrf, buttonId: `botao-recusar-${m.id}`,
    button: mine ? 'Retirar a proposta' : 'Recusar o lançamento',
  }, input(v.posted, refuse, { name: 'motivo', idSuffix: `-${m.id}`, label: mine ? 'Por que retirar' : 'Motivo da recusa', required: true }))}
</li>`
}

function proposalForm(v: ViewContext, today: string, name: (conta: string) => string): Html {
  const mine = v.posted?.form === FORM ? v.posted : undefined
  const accounts = CONTAS_MANUAIS.map((c) => ({ value: c, label: name(c) }))
  const lines = Array.from({ length: FORM_LINES }, (_, i) => i + 1).map((n) => html`<div class="linha-lancamento" data-linha="${n}">
${choice(mine, `conta_${n}`, `Conta da linha ${n}`, [{ value: '', label: '—' }, ...accounts], lineKey(n, 'conta'))}
${input(v.posted, FORM, { name: `debito_${n}`, label: `Débito da linha ${n} (R$)`, errorKey: lineKey(n, 'débito'), extra: html` inputmode="decimal"` })}
${input(v.posted, FORM, { name: `credito_${n}`, label: `Crédito da linha ${n} (R$)`, errorKey: lineKey(n, 'crédito'), extra: html` inputmode="decimal"` })}
<p class="erro" id="erro-linha-${n}">${mine?.errors[lineKey(n, 'linha')]}</p>
</div>`)
  return html`<h2 id="titulo-propor">Propor um lançamento</h2>
<p>Cada linha leva uma conta e um débito ou um crédito, em reais; linhas vazias são ignoradas. Os débitos e os créditos fecham.</p>
${form({ id: FORM, action: P.lancamentosManuais, csrf: v.csrf, button: 'Propor o lançamento', buttonId: 'propor-lancamento' }, html`
${input(v.posted, FORM, { name: 'data', label: 'Data', type: 'date', required: true, value: today })}
${choice(mine, 'motivo', 'Motivo', Object.entries(MOTIVO_TEXTO).map(([value, label]) => ({ value, label })))}
${input(v.posted, FORM, { name: 'historico', label: 'Histórico', required: true, hint: 'Como o razão o mostra: "Aporte de capital dos sócios".' })}
${input(v.posted, FORM, { name: 'justificativa', label: 'Justificativa', required: true, hint: 'Para quem confirma e para a auditoria.' })}
<fieldset><legend>Linhas</legend>
<p class="erro" id="erro-linhas">${mine?.errors.linhas}</p>
${lines}
</fieldset>`)}`
}

/** A select whose error is under `errorKey` (a line's field, as the summary names it). */
function choice(posted: Posted | undefined, name: string, label: string, options: { value: string, label: string }[], errorKey = name): Html {
  const chosen = posted?.values.get(name) ?? undefined
  const error = posted?.errors[errorKey]
  return html`<div class="campo">
<label for="campo-${name}">${label}</label>
<select id="campo-${name}" name="${name}" aria-describedby="erro-${name}"${error && html` aria-invalid="true"`}>
${options.map((o) => html`<option value="${o.value}"${o.value === chosen && html` selected`}>${o.label}</option>`)}
</select>
<p class="erro" id="erro-${name}">${error}</p>
</div>`
}


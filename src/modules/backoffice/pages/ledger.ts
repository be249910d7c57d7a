// The ledger as a back office reads it: a cedente's conta gráfica (opening balance, each movement with the running
// balance, closing balance) and the trial balance with the latest entries.
import { html, type Html } from '../../../platform/lib/html.ts'
import { brl, dataBr } from '../../../platform/lib/brl.ts'
import type { Page } from '../../account/index.ts'
import type { Entry, Party, Statement, TrialBalance } from '../answers.ts'
import { documentoFormatado } from '../labels.ts'
import { boPage, cell, numCell, table } from '../layout.ts'
import { listBlock } from '../list-controls.ts'
import type { Listed, ListState } from '../list-query.ts'
import { LIST_SPECS } from '../list-specs.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import type { ViewContext } from '../view-context.ts'

const amount = (c: number) => (c ? brl(c) : '')
/** An entry's line by its account's name ("Capital social", not `capital_social`; a code the balancete does not name, as it came). */
const line = (names: ReadonlyMap<string, string>) => (l: Entry['linhas'][number]): Html => html`<li>${names.get(l.conta) ?? l.conta}: \
${l.debito_centavos ? `D ${brl(l.debito_centavos)}` : `C ${brl(l.credito_centavos)}`}</li>`

export function cedentePage(v: ViewContext, cedente: Party, extrato: Statement): Page {
  const rows = extrato.movimentos.map((m) => html`<tr data-lancamento="${m.lancamento_id}"><th scope="row">${dataBr(m.data)}</th>\
${cell('Histórico', m.historico)}${cell('Débito', amount(m.debito_centavos))}${cell('Crédito', amount(m.credito_centavos))}\
${cell('Saldo', brl(m.saldo_centavos))}</tr>`)
  return boPage(P.cedentes, `Conta gráfica: ${cedente.razao_social}`, 'O extrato do cedente: cada movimento com o saldo.', v.shown, html`
<dl class="dados"><dt>Documento</dt><dd>${documentoFormatado(cedente.documento)}</dd>
<dt>Limite</dt><dd>${cedente.limite_centavos === null ? 'sem limite' : brl(cedente.limite_centavos)}</dd>
<dt>Exposição</dt><dd>${brl(cedente.exposicao_centavos)}</dd></dl>
<form method="get" action="${P.cedente(cedente.id)}" class="periodo">
<label for="campo-de">De</label> <input id="campo-de" name="de" type="date" value="${extrato.de}">
<label for="campo-ate">Até</label> <input id="campo-ate" name="ate" type="date" value="${extrato.ate}">
<button type="submit">Ver o período</button>
</form>
<dl class="dados" id="saldos"><dt>Saldo inicial</dt><dd id="saldo-inicial">${brl(extrato.saldo_inicial_centavos)}</dd>
<dt>Saldo final</dt><dd id="saldo-final">${brl(extrato.saldo_final_centavos)}</dd></dl>
<p>Um saldo positivo é o que a empresa deve ao cedente (o valor líquido de uma operação aceita, até o desembolso); um negativo (−), \
o que o cedente deve à empresa (uma recompra, o IOF complementar de uma prorrogação, um abatimento concedido ao sacado), até ser pago \
ou compensado na próxima operação.</p>
${table('extrato', `Movimentos de ${dataBr(extrato.de)} a ${dataBr(extrato.ate)}`, ['Data', 'Histórico', 'Débito', 'Crédito', 'Saldo'], rows,
    'Nenhum movimento no período.')}`)
}

export function ledgerPage(v: ViewContext, balancete: TrialBalance, lancamentos: Listed<Entry & { numero: number }>, state: ListState): Page {
  const names = new Map(balancete.contas.map((c) => [c.conta, c.nome]))
  const accounts = balancete.contas.map((c) => html`<tr data-conta="${c.conta}"><th scope="row">${c.nome}</th>\
${numCell('Débitos', brl(c.debitos_centavos))}${numCell('Créditos', brl(c.creditos_centavos))}${numCell('Saldo devedor', amount(c.saldo_devedor_centavos))}\
${numCell('Saldo credor', amount(c.saldo_credor_centavos))}</tr>`)
  const t = balancete.totais
  const entries = lancamentos.itens.map((e) => html`<tr data-lancamento="${e.id}"><th scope="row">nº ${e.numero}</th>${cell('Data', dataBr(e.data))}\
${cell('Histórico', e.historico)}${cell('Linhas', html`<ul>${e.linhas.map(line(names))}</ul>`)}</tr>`)
  return boPage(P.razao, 'Razão', 'O balancete e os lançamentos da empresa.', v.shown, html`
<p><a href="${P.lancamentosManuais}" id="link-lancamentos-manuais">Lançamentos manuais</a>: aportes, funding, tarifas e ajustes.</p>
<h2 id="titulo-balancete">Balancete em ${dataBr(balancete.data)}</h2>
${table('balancete', 'Contas', ['Conta', 'Débitos', 'Créditos', 'Saldo devedor', 'Saldo credor'], accounts, 'Nenhum lançamento ainda.')}
<dl class="dados" id="balancete-totais"><dt>Débitos</dt><dd>${brl(t.debitos_centavos)}</dd><dt>Créditos</dt><dd>${brl(t.creditos_centavos)}</dd></dl>
<h2 id="titulo-lancamentos">Lançamentos</h2>
${listBlock({
    path: P.razao, spec: LIST_SPECS.lancamentos, state, id: 'lancamentos', caption: `Lançamentos (${lancamentos.total})`, rows: entries,
    total: lancamentos.total,
    columns: [{ label: 'Lançamento', ordem: 'numero' }, { label: 'Data', ordem: 'data' }, { label: 'Histórico' }, { label: 'Linhas' }],
    empty: state.busca || state.values.size ? 'Nenhum lançamento com estes filtros.' : 'Nenhum lançamento ainda.',
    options: { conta: balancete.contas.map((c) => ({ value: c.conta, label: c.nome })) },
    searchHint: 'Número do lançamento ou uma palavra do histórico, como "operação nº 12".',
  })}`)
}

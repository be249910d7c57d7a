// The ledger as a back office reads it: a cedente's conta gráfica (opening balance, each movement with the running
// balance, closing balance) and the trial balance with the latest entries.
import { html } from '../../../platform/lib/html.ts'
import { brl, dataBr } from '../../../platform/lib/brl.ts'
import type { Page } from '../../account/index.ts'
import type { Entry, Party, Statement, TrialBalance } from '../answers.ts'
import { boPage, cell, table } from '../layout.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import type { ViewContext } from '../view-context.ts'

const amount = (c: number) => (c ? brl(c) : '')
const line = (l: Entry['linhas'][number]) => html`<li>${l.conta}: ${l.debito_centavos ? `D ${brl(l.debito_centavos)}` : `C ${brl(l.credito_centavos)}`}</li>`

export function cedentePage(v: ViewContext, cedente: Party, extrato: Statement): Page {
  const rows = extrato.movimentos.map((m) => html`<tr data-lancamento="${m.lancamento_id}"><th scope="row">${dataBr(m.data)}</th>\
${cell('Histórico', m.historico)}${cell('Débito', amount(m.debito_centavos))}${cell('Crédito', amount(m.credito_centavos))}\
${cell('Saldo', brl(m.saldo_centavos))}</tr>`)
  return boPage(P.cedentes, `Conta gráfica: ${cedente.razao_social}`, 'O extrato do cedente: cada movimento com o saldo.', v.shown, html`
<dl class="dados"><dt>Documento</dt><dd>${cedente.documento}</dd>
<dt>Limite</dt><dd>${cedente.limite_centavos === null ? 'sem limite' : brl(cedente.limite_centavos)}</dd>
<dt>Exposição</dt><dd>${brl(cedente.exposicao_centavos)}</dd></dl>
<form method="get" action="${P.cedente(cedente.id)}" class="periodo">
<label for="campo-de">De</label> <input id="campo-de" name="de" type="date" value="${extrato.de}">
<label for="campo-ate">Até</label> <input id="campo-ate" name="ate" type="date" value="${extrato.ate}">
<button type="submit">Ver o período</button>
</form>
<dl class="dados" id="saldos"><dt>Saldo inicial</dt><dd id="saldo-inicial">${brl(extrato.saldo_inicial_centavos)}</dd>
<dt>Saldo final</dt><dd id="saldo-final">${brl(extrato.saldo_final_centavos)}</dd></dl>
<p>O saldo é o que a empresa deve ao cedente: o valor líquido de uma operação aceita, até o desembolso.</p>
${table('extrato', `Movimentos de ${dataBr(extrato.de)} a ${dataBr(extrato.ate)}`, ['Data', 'Histórico', 'Débito', 'Crédito', 'Saldo'], rows,
    'Nenhum movimento no período.')}`)
}

export function ledgerPage(v: ViewContext, balancete: TrialBalance, lancamentos: Entry[]): Page {
  const accounts = balancete.contas.map((c) => html`<tr data-conta="${c.conta}"><th scope="row">${c.conta}</th>${cell('Nome', c.nome)}\
${cell('Débitos', brl(c.debitos_centavos))}${cell('Créditos', brl(c.creditos_centavos))}${cell('Saldo devedor', amount(c.saldo_devedor_centavos))}\
${cell('Saldo credor', amount(c.saldo_credor_centavos))}</tr>`)
  const t = balancete.totais
  const entries = lancamentos.map((e) => html`<tr data-lancamento="${e.id}"><th scope="row">${dataBr(e.data)}</th>${cell('Histórico', e.historico)}\
${cell('Linhas', html`<ul>${e.linhas.map(line)}</ul>`)}</tr>`)
  return boPage(P.razao, 'Razão', 'O balancete e os lançamentos da empresa.', v.shown, html`
<h2 id="titulo-balancete">Balancete em ${dataBr(balancete.data)}</h2>
${table('balancete', 'Contas', ['Conta', 'Nome', 'Débitos', 'Créditos', 'Saldo devedor', 'Saldo credor'], accounts, 'Nenhum lançamento ainda.')}
<dl class="dados" id="balancete-totais"><dt>Débitos</dt><dd>${brl(t.debitos_centavos)}</dd><dt>Créditos</dt><dd>${brl(t.creditos_centavos)}</dd></dl>
<h2 id="titulo-lancamentos">Lançamentos recentes</h2>
${table('lancamentos', `Os ${lancamentos.length} mais recentes`, ['Data', 'Histórico', 'Linhas'], entries, 'Nenhum lançamento ainda.')}`)
}

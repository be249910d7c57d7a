// The company's charges (issue 33): each título charged by boleto, with its nosso número, due date, amount and
// state in words, and its boleto to print (the API's own page, which opens with the session); filtered by state and
// collection account, newest first, a page at a time by the API's cursor.
import { html } from '../../../platform/lib/html.ts'
import { brl, dataBr } from '../../../platform/lib/brl.ts'
import { UNSAFE_NAME_CHARACTER } from '../../../platform/lib/chosen-name.ts'
import { isUuid } from '../../../platform/lib/uuid.ts'
import type { Page } from '../../account/index.ts'
import { ESTADO_COBRANCA_TEXTO, INSTRUCAO_TEXTO } from '../../collections/index.ts'
import type { Charge, CollectionAccount, List } from '../answers.ts'
import { estadoCobranca, opcoes } from '../labels.ts'
import { amountHead, boPage, cell, numCell, table } from '../layout.ts'
import { cursorPager, filterSelect } from '../list-controls.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import { form, input, select } from '../forms.ts'
import { mayChange, type ViewContext } from '../view-context.ts'

export const PAGE = 50

/** What the page's query asks, of the names it knows and the values the API takes (anything else dropped, not refused). */
export type ChargeQuery = { estado?: string, conta?: string, antes?: string, busca?: string }

export function chargeQueryOf(query: Record<string, string | undefined>): ChargeQuery {
  const { estado, conta_cobranca_id: conta, antes } = query
  // As the API takes it: some text besides blanks, no control character, up to 100 characters.
  const busca = query.busca?.trim()
  return {
    ...(busca && busca.length <= 100 && !UNSAFE_NAME_CHARACTER.test(busca) ? { busca } : {}),
    ...(estado && Object.hasOwn(ESTADO_COBRANCA_TEXTO, estado) ? { estado } : {}),
    ...(conta && isUuid(conta) ? { conta } : {}),
    ...(antes && /^[1-9][0-9]{0,14}$/.test(antes) ? { antes } : {}),
  }
}

const searchOf = (q: ChargeQuery, antes?: string | number) => {
  const s = new URLSearchParams()
  if (q.estado) s.set('estado', q.estado)
  if (q.conta) s.set('conta_cobranca_id', q.conta)
  if (q.busca) s.set('busca', q.busca)
  if (antes !== undefined) s.set('antes', String(antes))
  return s
}

export const chargesApiUrl = (q: ChargeQuery): string => `/api/cobrancas?limite=${PAGE}&${searchOf(q, q.antes)}`

/** The API's CSV of every charge the filters give (the export streams all pages, from the newest). */
export const chargesExportUrl = (q: ChargeQuery): string => `/api/cobrancas?${searchOf(q)}`.replace(/\?$/, '')

/** A collection account as a person tells it from the others: its name, bank, agency and account. */
export const accountName = (c: CollectionAccount): string => `${c.nome} (${c.banco_nome}, ag. ${c.agencia}, conta ${c.conta}-${c.conta_digito})`

/** An acquired título the form offers to charge, with its sacado's name when the page read it. */
export type TitleToCharge = { id: string, numero: string, vencimento: string, saldo_centavos: number, operacao_numero?: number, sacado?: string }

const JUROS_TEXTO = { isento: 'sem juros', valor_dia: 'valor por dia (R$)', taxa_mensal: 'taxa ao mês (%)' }

/**
 * The page to charge a título (its own page: what it offers takes five reads the list does not need): the acquired
 * títulos without a live charge, the confirmed and active accounts, the late charges' terms.
 */
export function newChargePage(v: ViewContext, titulos: readonly TitleToCharge[], contas: readonly CollectionAccount[]): Page {
  return boPage(P.cobrancas, 'Nova cobrança', 'Emitir o boleto de um título adquirido, na conta de cobrança escolhida.', v.shown, html`
<p><a href="${P.cobrancas}">← Cobranças</a></p>
${chargeForm(v, titulos, contas)}`)
}

function chargeForm(v: ViewContext, titulos: readonly TitleToCharge[], contas: readonly CollectionAccount[]) {
  if (!mayChange(v, 'cobranca')) return html`<p id="cobrar-sem-permissao">O seu papel não emite cobranças.</p>`
  const usable = contas.filter((c) => c.confirmada && c.ativa)
  if (usable.length === 0) {
    return html`<p id="cobrar-sem-conta">Para emitir boletos, cadastre uma conta de cobrança e peça a outra pessoa que a confirme \
(<a href="${P.contasCobranca}">Contas de cobrança</a>).</p>`
  }
  if (titulos.length === 0) return html`<p id="cobrar-nada">Nenhum título adquirido sem cobrança.</p>`
  const fid = 'form-cobranca'
  return html`
${form({ id: fid, action: P.cobrancas, csrf: v.csrf, button: 'Emitir o boleto', buttonId: 'emitir-cobranca' }, html`
${select(v.posted, fid, { name: 'titulo_id', label: 'Título', options: titulos.map((t) => ({ value: t.id,
    label: `${t.numero}${t.operacao_numero ? ` (operação nº ${t.operacao_numero})` : ''}${t.sacado ? `, ${t.sacado}` : ''}, `
      + `saldo ${brl(t.saldo_centavos)}, vence ${dataBr(t.vencimento)}` })) })}
${select(v.posted, fid, { name: 'conta_cobranca_id', label: 'Conta de cobrança', options: usable.map((c) => ({ value: c.id, label: accountName(c) })) })}
${select(v.posted, fid, { name: 'juros_tipo', label: 'Juros', options: opcoes(JUROS_TEXTO) })}
${input(v.posted, fid, { name: 'juros_valor', label: 'Juros por dia (R$)', hint: 'Se os juros forem um valor por dia de atraso.',
    extra: html` inputmode="decimal"` })}
${input(v.posted, fid, { name: 'juros_taxa', label: 'Juros ao mês (%)', hint: 'Se os juros forem uma taxa: cobrados por dia, 1/30 da taxa.',
    extra: html` inputmode="decimal"` })}
${input(v.posted, fid, { name: 'multa', label: 'Multa (%)', hint: 'Uma vez, após o vencimento: no máximo 2 % de um sacado pessoa física.',
    extra: html` inputmode="decimal"` })}
${input(v.posted, fid, { name: 'protesto_dias', label: 'Protestar após (dias)', hint: 'Dias corridos depois do vencimento; vazio, não protestar.',
    extra: html` inputmode="numeric"` })}`)}`
}

export function chargesPage(v: ViewContext, list: List<Charge>, contas: CollectionAccount[], q: ChargeQuery): Page {
  const conta = new Map(contas.map((c) => [c.id, c]))
  // A registered boleto can be e-mailed to its sacado (the bank holds it: it can be paid).
  const send = (c: Charge) => (c.estado === 'registrada' && mayChange(v, 'cobranca')
    ? html` · ${form({ id: `enviar-${c.id}`, action: P.acaoCobranca(c.id, 'email'), csrf: v.csrf, inline: true,
      button: html`Enviar por e-mail<span class="visualmente-oculto"> o boleto da cobrança nº ${c.numero} ao sacado</span>` })}`
    : '')
  const rows = list.itens.map((c) => html`<tr data-cobranca="${c.id}"><th scope="row">nº ${c.numero}</th>${cell('Título', c.titulo_numero)}\
${cell('Sacado', c.sacado.razao_social)}${cell('Conta', conta.get(c.conta_cobranca_id)?.nome ?? '—')}${cell('Nosso número', c.nosso_numero)}\
${cell('Vencimento', dataBr(c.vencimento))}${numCell('Valor', brl(c.valor_centavos))}${cell('Estado', estadoCobranca(c.estado))}\
${cell('Boleto', html`<a href="/api/cobrancas/${c.id}/boleto">Imprimir<span class="visualmente-oculto"> o boleto da cobrança nº ${c.numero}</span></a> · \
<a href="/api/cobrancas/${c.id}/boleto?formato=pdf" type="application/pdf">PDF<span class="visualmente-oculto"> da cobrança nº ${c.numero}</span></a>\
${send(c)}`)}</tr>`)
  const filtered = Boolean(q.estado || q.conta || q.busca)
  // Instructions go to a charge the bank holds: the form offers this page's registered ones.
  const registered = list.itens.filter((c) => c.estado === 'registrada')
  const fid = 'form-instrucao'
  const instructions = mayChange(v, 'cobranca') && registered.length > 0 && html`
<h2>Instrução ao banco</h2>
${form({ id: fid, action: P.instrucoes, csrf: v.csrf, button: 'Pedir instrução', buttonId: 'pedir-instrucao' }, html`
${select(v.posted, fid, { name: 'cobranca_id', label: 'Cobrança', options: registered.map((c) => ({ value: c.id,
    label: `nº ${c.numero}: título ${c.titulo_numero}, ${c.sacado.razao_social}, ${brl(c.valor_centavos)}, vence ${dataBr(c.vencimento)}` })) })}
${select(v.posted, fid, { name: 'instrucao', label: 'Instrução', options: opcoes(INSTRUCAO_TEXTO) })}
${input(v.posted, fid, { name: 'vencimento', label: 'Novo vencimento', type: 'date', hint: 'Só na prorrogação: o IOF complementar dos dias '
    + 'acrescentados é lançado na conta gráfica do cedente quando o banco confirmar.' })}
${input(v.posted, fid, { name: 'abatimento', label: 'Abatimento (R$)', hint: 'Só no abatimento: o valor que o sacado deixa de pagar.',
    extra: html` inputmode="decimal"` })}`)}`
  const exporting = searchOf({ ...(q.estado ? { estado: q.estado } : {}), ...(q.conta ? { conta: q.conta } : {}), ...(q.busca ? { busca: q.busca } : {}) })
  exporting.set('formato', 'csv')
  const exportHref = `${P.cobrancas}?${exporting.toString()}`
  return boPage(P.cobrancas, 'Cobrança', 'As cobranças dos títulos por boleto, e os retornos do banco.', v.shown, html`
<p><a href="${P.retornos}" id="link-retornos">Retornos do banco</a>: envie o arquivo de retorno e veja o que cada linha moveu.</p>
<p><a href="${P.remessas}" id="link-remessas">Remessas CNAB</a>: gere o arquivo de uma conta com as cobranças a registrar e as instruções, e baixe-o.</p>
<p><a href="${P.recompras}" id="link-recompras">Recompras</a>: os títulos que os cedentes recompraram, e como foram liquidados.</p>
${mayChange(v, 'cobranca') && html`<p><a href="${P.novaCobranca}" id="link-nova-cobranca">Nova cobrança</a>: emitir o boleto de um título \
adquirido.</p>`}
<p><a href="${P.contasCobranca}" id="link-contas-cobranca">Contas de cobrança</a>: as contas em que os boletos são registrados, incluídas e \
confirmadas por duas pessoas.</p>
<form method="get" action="${P.cobrancas}" class="filtros" role="search" aria-label="Filtrar as cobranças">
<div class="filtro"><label for="filtro-busca">Buscar</label><input id="filtro-busca" name="busca" type="search" value="${q.busca ?? ''}" \
maxlength="100" aria-describedby="filtro-busca-dica"><small id="filtro-busca-dica">Nosso número, número do título, nome ou documento do sacado.\
</small></div>
${filterSelect('estado', 'Estado', opcoes(ESTADO_COBRANCA_TEXTO), q.estado)}
${filterSelect('conta_cobranca_id', 'Conta de cobrança', contas.map((c) => ({ value: c.id, label: accountName(c) })), q.conta, 'Todas')}
<div class="filtro-acoes"><button type="submit" id="filtrar">Filtrar</button> <a href="${P.cobrancas}" id="limpar-filtros">Limpar</a></div>
</form>
<p class="exportar"><a href="${exportHref}" id="cobrancas-exportar" \
download>Exportar CSV</a> <small>(para o Excel: separado por ponto e vírgula, com todas as páginas)</small></p>
${table('cobrancas', q.antes ? 'Cobranças (as mais antigas)' : 'Cobranças, das mais recentes',
    ['Cobrança', 'Título', 'Sacado', 'Conta', 'Nosso número', 'Vencimento', amountHead('Valor'), 'Estado', 'Boleto'], rows,
    filtered ? 'Nenhuma cobrança com estes filtros.' : 'Nenhuma cobrança ainda: as cobranças são feitas pela API (POST /api/cobrancas).')}
${instructions}
${cursorPager('cobrancas', q.antes ? `${P.cobrancas}?${searchOf(q)}`.replace(/\?$/, '') : undefined,
    list.proximo === null ? undefined : `${P.cobrancas}?${searchOf(q, list.proximo)}`)}`)
}

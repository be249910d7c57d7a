// The buy-backs (issue 33): each, newest first, with its cedente, why, how it is settled, what it costs the cedente
// (balance and late charges) and whether it is paid or compensated, and by which operation. A form makes one (a título
// at a time: the API takes several), and a buy-back the cedente pays has its payment recorded on its row.
import { html } from '../../../platform/lib/html.ts'
import { brl } from '../../../platform/lib/brl.ts'
import type { Page } from '../../account/index.ts'
import type { List, Party } from '../answers.ts'
import { dataBr } from '../../../platform/lib/brl.ts'
import { estadoRecompra, formaRecompra, motivoRecompra } from '../labels.ts'
import { boPage, cell, numCell, table } from '../layout.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import { form, input, select } from '../forms.ts'
import { mayChange, type ViewContext } from '../view-context.ts'
import { FORMA_RECOMPRA_TEXTO, MOTIVO_RECOMPRA_TEXTO } from '../../collections/index.ts'
import { opcoes } from '../labels.ts'

/** An acquired título, as the buy-back form offers it. */
export type OpenTitle = { id: string, numero: string, vencimento: string, saldo_centavos: number, cedente_id: string, operacao_numero?: number }

export type RecompraAnswer = {
  id: string, cedente_id: string, motivo: string, descricao: string, forma: string, data: string, principal_centavos: number, encargos_centavos: number,
  valor_centavos: number, estado: string, operacao_id: string | null, titulos: { titulo_id: string }[],
}

export function recomprasPage(v: ViewContext, recompras: List<RecompraAnswer>, cedentes: Party[], titulos: OpenTitle[] = []): Page {
  const nome = new Map(cedentes.map((c) => [c.id, c.razao_social]))
  const changes = mayChange(v, 'cobranca')
  const pay = (r: RecompraAnswer) => {
    if (!changes || r.estado !== 'aberta' || r.forma !== 'pagamento') return ''
    const id = `pagar-${r.id}`
    // Folded until asked: two forms open in a row would widen the table past a laptop's screen.
    const opts = { id, action: P.acaoRecompra(r.id, 'pagamento'), csrf: v.csrf, button: 'Registrar o pagamento', buttonId: `botao-${id}` }
    return html`<details class="acao-linha"${v.posted?.form === id && html` open`}><summary>Registrar o pagamento</summary>${form(opts, html`
${input(v.posted, id, { name: 'id_transacao', idSuffix: `-${r.id}`, label: 'Identificador da transferência', required: true,
    hint: 'O end-to-end do PIX ou o número da TED do cedente.' })}
${input(v.posted, id, { name: 'pago_em', idSuffix: `-${r.id}`, label: 'Paga em (horário de Brasília)', type: 'datetime-local', required: true,
    extra: html` step="1"` })}`)}</details>`
  }
  // An open buy-back made by mistake is cancelled, with why (the API reverses its entry and gives its títulos back).
  const cancel = (r: RecompraAnswer) => {
    if (!changes || r.estado !== 'aberta') return ''
    const id = `cancelar-${r.id}`
    const opts = { id, action: P.acaoRecompra(r.id, 'cancelamento'), csrf: v.csrf, button: 'Cancelar a recompra', buttonId: `botao-${id}` }
    return html`<details class="acao-linha"${v.posted?.form === id && html` open`}><summary>Cancelar</summary>${form(opts, html`
${input(v.posted, id, { name: 'motivo_cancelamento', idSuffix: `-${r.id}`, label: 'Motivo do cancelamento', required: true,
    hint: 'Por que ela não vale: fica no registro.' })}`)}</details>`
  }
  const fid = 'form-recompra'
  const made = changes && titulos.length > 0 && html`
<h2>Nova recompra</h2>
${form({ id: fid, action: P.recompras, csrf: v.csrf, button: 'Registrar a recompra', buttonId: 'registrar-recompra' }, html`
${select(v.posted, fid, { name: 'titulo_id', label: 'Título', options: titulos.map((t) => ({ value: t.id,
    label: `${t.numero}${t.operacao_numero ? ` (operação nº ${t.operacao_numero})` : ''}, ${nome.get(t.cedente_id) ?? 'cedente'}, `
      + `saldo ${brl(t.saldo_centavos)}, vence ${dataBr(t.vencimento)}` })) })}
${select(v.posted, fid, { name: 'motivo', label: 'Motivo', options: opcoes(MOTIVO_RECOMPRA_TEXTO) })}
${select(v.posted, fid, { name: 'forma', label: 'Forma', options: opcoes(FORMA_RECOMPRA_TEXTO) })}
${input(v.posted, fid, { name: 'descricao', label: 'Descrição', required: true, hint: 'O que aconteceu: fica no registro da recompra.' })}`)}`
  const rows = recompras.itens.map((r) => html`<tr data-recompra="${r.id}"><th scope="row">${dataBr(r.data)}</th>\
${cell('Cedente', html`<a href="${P.cedente(r.cedente_id)}">${nome.get(r.cedente_id) ?? r.cedente_id}</a>`)}${cell('Motivo', motivoRecompra(r.motivo))}\
${cell('Descrição', r.descricao)}${numCell('Títulos', r.titulos.length)}${numCell('Saldo', brl(r.principal_centavos))}\
${numCell('Juros e multa', brl(r.encargos_centavos))}${numCell('Valor', brl(r.valor_centavos))}${cell('Forma', formaRecompra(r.forma))}\
${cell('Estado', r.operacao_id ? html`${estadoRecompra(r.estado)} na <a href="${P.operacao(r.operacao_id)}">operação</a>`
    : html`${estadoRecompra(r.estado)}${pay(r)}${cancel(r)}`)}</tr>`)
  return boPage(P.recompras, 'Recompras', 'Os títulos que os cedentes recompraram: por quê, o que custaram a eles e como foram liquidados.', v.shown, html`
<p><a href="${P.cobrancas}" id="link-cobrancas">Cobranças</a> · <a href="${P.retornos}" id="link-retornos">Retornos do banco</a> · \
<a href="${P.remessas}" id="link-remessas">Remessas</a></p>
${table('recompras', `Recompras (${recompras.itens.length}${recompras.proximo === null ? '' : '+'})`,
    ['Data', 'Cedente', 'Motivo', 'Descrição', 'Títulos', 'Saldo', 'Juros e multa', 'Valor', 'Forma', 'Estado'], rows, 'Nenhuma recompra ainda.')}
${made}`)
}

// One operation, as its state allows: its títulos (added and removed while a draft), the quote line by line with
// its totals, and the next step's form — accept, formalize, ask for the payment, approve it (never shown to the
// person who asked), record the transfer — and cancelling while it may be.
import { html, type Html } from '../../../platform/lib/html.ts'
import { brl, dataBr } from '../../../platform/lib/brl.ts'
import { instantLabel } from '../../../platform/lib/brasilia-time.ts'
import { hidden, NO_AUTOCORRECT, type Page } from '../../account/index.ts'
import { CANCELLABLE } from '../../operations/index.ts'
import { TIPOS_TITULO } from '../../pricing/index.ts'
import type { Operation, Party, PaymentAnswer, Quote } from '../answers.ts'
import { form, input, select } from '../forms.ts'
import { ate, documentoFormatado, estadoConfirmacao, estadoOperacao, estadoRegistro, estadoTitulo, perfilIof, porNome, tipoTitulo } from '../labels.ts'
import { amountHead, boPage, cell, numCell, table, type Head } from '../layout.ts'
import { BACKOFFICE_PATHS as P } from '../paths.ts'
import { mayChange, type ViewContext } from '../view-context.ts'
import { approvalCard } from './approval-card.ts'
import { operationName } from './operations.ts'
import { percent } from './products.ts'


/** `after`: the page of títulos shown starts after this one (the API's `titulos_apos`), when the operation has more than a page. */
/** Where the page of títulos shown sits among all of them, with the links to the first and the next page. */
function titlePages(op: Operation, after: string | undefined): Html {
  const first = after !== undefined && html` <a href="${P.operacao(op.id)}" id="titulos-inicio">Primeiros títulos</a>`
  const next = op.titulos_proximo !== null
    && html` <a href="${P.operacao(op.id)}?titulos_apos=${String(op.titulos_proximo)}" id="titulos-proximos">Próximos títulos</a>`
  return html`<p id="paginas-titulos">Mostrando ${String(op.titulos.length)} de ${String(op.quantidade_titulos)} títulos.${first}${next}</p>`
}

export function operationPage(v: ViewContext, op: Operation, cedente: Party, sacados: Party[], after?: string, payment?: PaymentAnswer): Page {
  const sacadoName = new Map(sacados.map((s) => [s.id, s.razao_social]))
  const changes = mayChange(v, 'operacoes')
  const action = (acao: string) => P.acaoOperacao(op.id, acao)
  // An approved payment may be at the bank: it must fail before the operation is cancelled (the API refuses otherwise).
  const cancellable = CANCELLABLE.has(op.estado) && op.desembolso?.estado !== 'aprovado'
  // A título being bought or owned may be confirmed with its sacado and, a duplicata, queried at the registry.
  const checks = changes && op.estado !== 'cancelada'
  const titleChecks = (t: Operation['titulos'][number]) => html`${form({
    id: `link-${t.id}`, action: action('confirmacao-link'), csrf: v.csrf, inline: true,
    button: html`Enviar link de confirmação<span class="visualmente-oculto"> do título ${t.numero}</span>`,
  }, hidden('titulo_id', t.id))}${t.tipo.startsWith('duplicata_') && html` ${form({
    id: `registro-${t.id}`, action: action('consulta-registro'), csrf: v.csrf, inline: true,
    button: html`Consultar o registro<span class="visualmente-oculto"> do título ${t.numero}</span>`,
  }, hidden('titulo_id', t.id))}`}`
  const titleRows = op.titulos.map((t) => html`<tr data-titulo="${t.id}"><th scope="row">${t.numero}</th>${cell('Tipo', tipoTitulo(t.tipo))}\
${cell('Sacado', sacadoName.get(t.sacado_id) ?? t.sacado_id)}${cell('Vencimento', dataBr(t.vencimento))}${numCell('Valor de face', brl(t.valor_face_centavos))}\
${cell('Estado', estadoTitulo(t.estado))}${cell('Confirmação', estadoConfirmacao(t.confirmacao_estado))}\
${cell('Registro', estadoRegistro(t.registro_estado, t.registro_situacao))}${checks && cell('Verificações', titleChecks(t))}\
${op.estado === 'rascunho' && changes && cell('Ação', form({
    id: `remover-${t.id}`, action: action('remover-titulo'), csrf: v.csrf, inline: true,
    button: html`Remover<span class="visualmente-oculto"> o título ${t.numero}</span>`,
  }, hidden('titulo_id', t.id)))}</tr>`)
  const heads: Head[] = ['Número', 'Tipo', 'Sacado', 'Vencimento', amountHead('Valor de face'), 'Estado', 'Confirmação', 'Registro',
    ...(checks ? ['Verificações'] : []),
    ...(op.estado === 'rascunho' && changes ? ['Ação'] : [])]
  return boPage(P.operacoes, `Operação ${operationName(op)}`, 'Uma operação: títulos, cotação, aceite, formalização e desembolso.', v.shown, html`
<dl class="dados" id="resumo">
<dt>Cedente</dt><dd><a href="${P.cedente(cedente.id)}">${cedente.razao_social}</a> (${documentoFormatado(cedente.documento)})</dd>
<dt>Data da operação</dt><dd>${dataBr(op.data_operacao)}</dd>
<dt>Estado</dt><dd id="estado">${estadoOperacao(op.estado)}</dd>
${op.cancelamento && html`<dt>Cancelada</dt><dd>${instantLabel(op.cancelamento.em)}: ${op.cancelamento.motivo}</dd>`}
</dl>
<p><a href="/api/operacoes/${op.id}/bordero" id="bordero">Borderô para imprimir</a> · \
<a href="/api/operacoes/${op.id}/bordero?formato=pdf" id="bordero-pdf" type="application/pdf">Borderô em PDF, para assinar</a>\
${op.termo && html` · <a href="/api/operacoes/${op.id}/termo" id="termo-download">Termo assinado (${op.termo.nome_arquivo ?? 'arquivo'})</a>`}</p>
<section aria-labelledby="titulo-titulos">
<h2 id="titulo-titulos">Títulos</h2>
${table('titulos', `Títulos da operação (${op.quantidade_titulos})`, heads, titleRows, 'Nenhum título ainda.')}
${(after !== undefined || op.titulos_proximo !== null) && titlePages(op, after)}
${op.estado === 'rascunho' && changes && titleForm(v, op, sacados)}
</section>
<section aria-labelledby="titulo-cotacao">
<h2 id="titulo-cotacao">Cotação</h2>
${op.cotacao ? quoteTable(op.cotacao, op.titulos.map((t) => t.numero)) : html`<p id="sem-cotacao">Ainda não cotada.</p>`}
${changes && (op.estado === 'rascunho' || op.estado === 'cotada') && op.titulos.length > 0
  && form({ id: 'form-cotar', action: action('cotacao'), csrf: v.csrf, button: op.cotacao ? 'Cotar de novo' : 'Cotar', buttonId: 'cotar' })}
${changes && op.estado === 'cotada' && op.cotacao && form({
    id: 'form-aceite', action: action('aceite'), csrf: v.csrf, button: `Aceitar a cotação ${op.cotacao.versao}`, buttonId: 'aceitar',
  }, hidden('cotacao_versao', String(op.cotacao.versao)))}
</section>
${(op.formalizacao || (changes && op.estado === 'aceita')) && html`<section aria-labelledby="titulo-formalizacao">
<h2 id="titulo-formalizacao">Formalização</h2>
${op.formalizacao ? html`<dl class="dados" id="formalizacao"><dt>Termo (SHA-256)</dt><dd><code id="termo-sha256">${op.formalizacao.termo_sha256}</code></dd>
${op.termo && html`<dt>Arquivo do termo</dt><dd><a href="/api/operacoes/${op.id}/termo">${op.termo.nome_arquivo ?? 'baixar'}</a> \
(${sizeLabel(op.termo.tamanho_bytes)}, enviado em ${instantLabel(op.termo.enviado_em)})</dd>`}
<dt>Assinado em</dt><dd>${instantLabel(op.formalizacao.assinado_em)}</dd>
<dt>Signatários</dt><dd>${op.formalizacao.signatarios.map((s) => `${s.nome} (${documentoFormatado(s.documento)})`).join('; ')}</dd></dl>`
    : formalizeForm(v, op)}
</section>`}
${paymentSection(v, op, cedente, payment)}
${changes && cancellable && html`<section aria-labelledby="titulo-cancelar">
<h2 id="titulo-cancelar">Cancelar a operação</h2>
<p>Os títulos ficam livres; depois do aceite, o estorno exato da aquisição é lançado no razão.</p>
${form({ id: 'form-cancelar', action: action('cancelamento'), csrf: v.csrf, button: 'Cancelar a operação', buttonId: 'cancelar' },
    input(v.posted, 'form-cancelar', { name: 'motivo', label: 'Motivo', required: true }))}
</section>`}`)
}

function titleForm(v: ViewContext, op: Operation, sacados: Party[]): Html {
  const id = 'form-titulo'
  if (!sacados.length) return html`<p>Para incluir títulos, cadastre antes um <a href="${P.sacados}">sacado</a>.</p>`
  return html`<h3 id="titulo-incluir">Incluir um título</h3>
${form({ id, action: P.acaoOperacao(op.id, 'titulos'), csrf: v.csrf, button: 'Incluir título', buttonId: 'incluir-titulo' }, html`
${select(v.posted, id, { name: 'tipo', label: 'Tipo', options: TIPOS_TITULO.map((t) => ({ value: t, label: tipoTitulo(t) })) })}
${input(v.posted, id, { name: 'numero', label: 'Número', required: true })}
${select(v.posted, id, { name: 'sacado_id', label: 'Sacado', options: porNome(sacados, (s) => s.razao_social)
  .map((s) => ({ value: s.id, label: `${s.razao_social} (${documentoFormatado(s.documento)})` })) })}
${input(v.posted, id, { name: 'emissao', label: 'Emissão', type: 'date', required: true })}
${input(v.posted, id, { name: 'vencimento', label: 'Vencimento', type: 'date', required: true })}
${input(v.posted, id, { name: 'valor_face', label: 'Valor de face (R$)', required: true, hint: 'Em reais, como 10.000,00.', errorKey: 'valor_face_centavos',
    extra: html` inputmode="decimal"` })}
${input(v.posted, id, { name: 'chave_nfe', label: 'Chave da NF-e', hint: '44 dígitos; uma chave nunca é financiada duas vezes.', extra: NO_AUTOCORRECT })}
`)}`
}

function quoteTable(q: Quote, numbers: string[]): Html {
  const rows = q.linhas.map((l, i) => html`<tr data-linha="${i}"><th scope="row">${numbers[i] ?? String(i + 1)}</th>\
${cell('Vencimento útil', dataBr(l.vencimento_util))}${numCell('Dias', l.dias_desconto)}${numCell('Valor de face', brl(l.valor_face_centavos))}\
${numCell('Deságio', brl(l.desagio_centavos))}${numCell('Ad valorem', brl(l.ad_valorem_centavos))}${numCell('Tarifa', brl(l.tarifa_centavos))}\
${numCell('IOF', brl(l.iof_centavos))}${numCell('Preço de compra', brl(l.preco_compra_centavos))}</tr>`)
  const t = q.totais
  return html`<p>Versão ${q.versao}, válida ${ate(q.valida_ate)}; perfil de IOF: ${perfilIof(q.perfil_iof)}.</p>
${table('cotacao-linhas', `Linhas da cotação ${q.versao}`, ['Título', 'Vencimento útil', ...['Dias', 'Valor de face', 'Deságio', 'Ad valorem', 'Tarifa', 'IOF',
    'Preço de compra'].map(amountHead)], rows, 'Sem linhas.')}
<dl class="dados" id="totais">
<dt>Valor de face</dt><dd class="num" data-total="valor_face">${brl(t.valor_face_centavos)}</dd>
<dt>Deságio</dt><dd class="num" data-total="desagio">${brl(t.desagio_centavos)}</dd>
<dt>Ad valorem</dt><dd class="num" data-total="ad_valorem">${brl(t.ad_valorem_centavos)}</dd>
<dt>Tarifas</dt><dd class="num" data-total="tarifas">${brl(t.tarifas_centavos)}</dd>
<dt>Tarifa de cadastro</dt><dd class="num" data-total="tac">${brl(t.tac_centavos)}</dd>
<dt>IOF</dt><dd class="num" data-total="iof">${brl(t.iof_centavos)}</dd>
<dt>Compensações</dt><dd class="num" data-total="compensacoes">${brl(t.compensacoes_centavos)}</dd>
<dt>Valor líquido</dt><dd class="num" data-total="valor_liquido"><strong>${brl(t.valor_liquido_centavos)}</strong></dd>
<dt>Prazo médio</dt><dd>${q.prazo_medio_dias.replace('.', ',')} dias</dd>
<dt>Taxa efetiva mensal</dt><dd>${q.taxa_efetiva_mensal === null ? '—' : percent(q.taxa_efetiva_mensal)}</dd>
</dl>`
}

function formalizeForm(v: ViewContext, op: Operation): Html {
  const id = 'form-formalizacao'
  return form({ id, action: P.acaoOperacao(op.id, 'formalizacao'), csrf: v.csrf, button: 'Registrar o termo assinado', buttonId: 'formalizar',
    multipart: true }, html`
${input(undefined, id, { name: 'termo_arquivo', label: 'Termo de cessão assinado (arquivo)', type: 'file',
  hint: 'PDF ou imagem. O serviço calcula o SHA-256 do arquivo e o guarda com a operação. Depois de uma recusa, escolha o arquivo de novo.',
  extra: html` accept="application/pdf,image/png,image/jpeg"` })}
${input(v.posted, id, { name: 'termo_sha256', label: 'Ou o SHA-256 do termo, se o arquivo fica guardado em outro lugar',
  hint: '64 caracteres hexadecimais; com o arquivo enviado, deixe em branco.', extra: NO_AUTOCORRECT })}
${input(v.posted, id, { name: 'assinado_em', label: 'Assinado em (horário de Brasília)', type: 'datetime-local', required: true })}
${input(v.posted, id, { name: 'signatario_nome', label: 'Signatário', required: true })}
${input(v.posted, id, { name: 'signatario_documento', label: 'CPF do signatário', required: true, extra: NO_AUTOCORRECT })}
`)
}

/** `p`: the operation's latest payment as its own route answers it (with the names an approver reads). */
function paymentSection(v: ViewContext, op: Operation, cedente: Party, p: PaymentAnswer | undefined): Html | false {
  const canAsk = mayChange(v, 'operacoes') && op.estado === 'formalizada'
  if (!p && !canAsk) return false
  const accounts = cedente.contas_bancarias ?? []
  return html`<section aria-labelledby="titulo-desembolso">
<h2 id="titulo-desembolso">Desembolso</h2>
${p && approvalCard(v, p, P.operacao(op.id))}
${canAsk && !accounts.length && html`<p id="sem-conta">O cedente não tem conta bancária cadastrada: cadastre uma antes de pedir o desembolso.</p>`}
${canAsk && accounts.length > 0 && form({
    id: 'form-desembolso', action: P.acaoOperacao(op.id, 'desembolso'), csrf: v.csrf, button: 'Pedir o desembolso', buttonId: 'pedir-desembolso',
  },
    accounts.length > 1 && select(v.posted, 'form-desembolso', {
      name: 'conta_bancaria', label: 'Conta do cedente',
      options: accounts.map((c) => ({
        value: `${c.banco}|${c.agencia}|${c.conta}|${c.digito}`,
        label: `Banco ${c.banco}, agência ${c.agencia}, conta ${c.conta}-${c.digito}${c.confirmada ? '' : ' (aguardando confirmação)'}`,
      })),
    }))}
</section>`
}

/** A file's size for people: "1,2 MB", "340 KB". */
function sizeLabel(bytes: number): string {
  const tenths = Math.round((bytes * 10) / (1024 * 1024))
  if (bytes >= 1024 * 1024) return `${Math.floor(tenths / 10)},${tenths % 10} MB`
  return `${Math.max(1, Math.round(bytes / 1024))} KB`
}

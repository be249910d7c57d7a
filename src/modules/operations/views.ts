// Operations, títulos, quotes and payments as the API answers them: snake_case, centavos as safe integers,
// instants in UTC. A quote is answered as it was stored: recomputing it never changes it.
import { termView } from './termo-store.ts'
import type { StoredConta } from '../origination/index.ts'
import { sameAccount } from './flow/payment.ts'
import type { OperationPage, Operation, Payment, Quote, SavedQuote, Title } from './store.ts'

export function titleView(t: Title) {
  return {
    id: t.id, id_externo: t.idExterno, operacao_id: t.operacaoId, cedente_id: t.cedenteId, tipo: t.tipo, numero: t.numero, sacado_id: t.sacadoId,
    emissao: t.emissao, vencimento: t.vencimento, valor_face_centavos: Number(t.valorFaceCentavos), chave_nfe: t.chaveNfe, estado: t.estado,
    saldo_centavos: Number(t.saldoCentavos), confirmacao_estado: t.confirmacaoEstado,
    registro_estado: t.registroEstado, registro_situacao: t.registroSituacao, criado_em: t.criadoEm.toISOString(),
  }
}

export function quoteView(q: Quote) {
  return { ...q.calculo, criado_em: q.criadoEm.toISOString() }
}

/** quoteView's JSON, from the calculation's text as stored: the largest answer of the API is not serialized twice. */
export function quoteViewJson(q: SavedQuote): string {
  return `${q.calculoJson.slice(0, -1)},"criado_em":${JSON.stringify(q.criadoEm.toISOString())}}`
}

/** What a payment's own answers name besides ids (payment-answers.ts): people's and tokens' names, its operation's number, its cedente. */
export type PaymentAbout = { names: ReadonlyMap<string, string>, numero: number, cedente: { razao_social: string, documento: string } }

/** A payment; with `contas` (its cedente's accounts now), its account's history too; with `about`, the names beside the ids; in an operation, its number. */
export function paymentView(p: Payment, contas?: readonly StoredConta[], about?: PaymentAbout, operacaoNumero?: number) {
  const conta = contas?.find((c) => sameAccount(c, p))
  const nameOf = (id: string | null) => (id === null ? null : about?.names.get(id) ?? null)
  const named = <T extends object>(o: T, extra: object): T => (about ? { ...o, ...extra } : o)
  const historico = conta && named({
    confirmada: conta.confirmadaEm !== null, incluida_em: conta.incluidaEm.toISOString(), incluida_por_usuario_id: conta.incluidaPorUsuarioId,
    confirmada_em: conta.confirmadaEm?.toISOString() ?? null, confirmada_por_usuario_id: conta.confirmadaPorUsuarioId,
  }, { incluida_por_nome: nameOf(conta.incluidaPorUsuarioId), confirmada_por_nome: nameOf(conta.confirmadaPorUsuarioId) })
  const recusa = p.motivoRecusa === null ? null
    : named({ motivo: p.motivoRecusa, por_usuario_id: p.recusadoPorUsuarioId!, em: p.recusadoEm!.toISOString() }, { por_nome: nameOf(p.recusadoPorUsuarioId) })
  return {
    id: p.id, operacao_id: p.operacaoId, ...(operacaoNumero !== undefined ? { operacao_numero: operacaoNumero } : {}),
    ...(about ? { operacao_numero: about.numero, cedente: about.cedente } : {}),
    cedente_id: p.cedenteId, valor_centavos: Number(p.valorCentavos),
    conta_bancaria: {
      banco: p.banco, agencia: p.agencia, conta: p.conta, digito: p.digito, titular_documento: p.titularDocumento,
      ...(contas ? { historico: historico ?? null } : {}),
    },
    estado: p.estado, solicitado_por: named({ tipo: p.solicitadoPorTipo, id: p.solicitadoPor }, { nome: nameOf(p.solicitadoPor) }),
    solicitante_usuario_id: p.solicitanteUsuarioId, ...(about ? { solicitante_nome: nameOf(p.solicitanteUsuarioId) } : {}),
    aprovado_por_usuario_id: p.aprovadoPorUsuarioId, aprovado_em: p.aprovadoEm?.toISOString() ?? null,
    ...(about ? { aprovado_por_nome: nameOf(p.aprovadoPorUsuarioId) } : {}),
    id_transacao: p.idTransacao, pago_em: p.pagoEm?.toISOString() ?? null, motivo_falha: p.motivoFalha,
    criado_em: p.criadoEm.toISOString(), atualizado_em: p.atualizadoEm.toISOString(), recusa,
  }
}

function summary(o: Operation) {
  return {
    id: o.id, numero: o.numero, id_externo: o.idExterno, cedente_id: o.cedenteId, produto_id: o.produtoId, data_operacao: o.dataOperacao, estado: o.estado,
    cotacao_versao: o.cotacaoVersao || null, cotacao_aceita: o.cotacaoAceita, aceita_em: o.aceitaEm?.toISOString() ?? null,
    formalizacao: o.termoSha256 ? { termo_sha256: o.termoSha256, assinado_em: o.assinadoEm!.toISOString(), signatarios: o.signatarios ?? [] } : null,
    cancelamento: o.motivoCancelamento ? { motivo: o.motivoCancelamento, em: o.canceladaEm!.toISOString() } : null,
    criado_em: o.criadoEm.toISOString(), atualizado_em: o.atualizadoEm.toISOString(),
  }
}

export function operationView(o: OperationPage) {
  return {
    ...summary(o),
    quantidade_titulos: o.totais.n, valor_face_centavos: Number(o.totais.face),
    titulos: o.titulos.map(titleView), titulos_proximo: o.proximo,
    cotacao: o.cotacao ? quoteView(o.cotacao) : null,
    desembolso: o.desembolso ? paymentView(o.desembolso, undefined, undefined, o.numero) : null,
    termo: o.termo ? termView(o.termo) : null,
  }
}

export function operationListView(o: Operation, totals: { n: number, face: bigint } | undefined) {
  return { ...summary(o), quantidade_titulos: totals?.n ?? 0, valor_face_centavos: Number(totals?.face ?? 0n) }
}

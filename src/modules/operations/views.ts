// Operations, títulos, quotes and payments as the API answers them: snake_case, centavos as safe integers,
// instants in UTC. A quote is answered as it was stored: recomputing it never changes it.
import type { StoredConta } from '../origination/index.ts'
import { sameAccount } from './flow/payment.ts'
import type { OperationPage, Operation, Payment, Quote, SavedQuote, Title } from './store.ts'

export function titleView(t: Title) {
  return {
    id: t.id, id_externo: t.idExterno, operacao_id: t.operacaoId, cedente_id: t.cedenteId, tipo: t.tipo, numero: t.numero, sacado_id: t.sacadoId,
    emissao: t.emissao, vencimento: t.vencimento, valor_face_centavos: Number(t.valorFaceCentavos), chave_nfe: t.chaveNfe, estado: t.estado,
    saldo_centavos: Number(t.saldoCentavos), criado_em: t.criadoEm.toISOString(),
  }
}

export function quoteView(q: Quote) {
  return { ...q.calculo, criado_em: q.criadoEm.toISOString() }
}

/** quoteView's JSON, from the calculation's text as stored: the largest answer of the API is not serialized twice. */
export function quoteViewJson(q: SavedQuote): string {
  return `${q.calculoJson.slice(0, -1)},"criado_em":${JSON.stringify(q.criadoEm.toISOString())}}`
}

/** A payment; with `contas` (its cedente's accounts now), its account's history too. */
export function paymentView(p: Payment, contas?: readonly StoredConta[]) {
  const conta = contas?.find((c) => sameAccount(c, p))
  const historico = conta && {
    confirmada: conta.confirmadaEm !== null, incluida_em: conta.incluidaEm.toISOString(), incluida_por_usuario_id: conta.incluidaPorUsuarioId,
    confirmada_em: conta.confirmadaEm?.toISOString() ?? null, confirmada_por_usuario_id: conta.confirmadaPorUsuarioId,
  }
  return {
    id: p.id, operacao_id: p.operacaoId, cedente_id: p.cedenteId, valor_centavos: Number(p.valorCentavos),
    conta_bancaria: {
      banco: p.banco, agencia: p.agencia, conta: p.conta, digito: p.digito, titular_documento: p.titularDocumento,
      ...(contas ? { historico: historico ?? null } : {}),
    },
    estado: p.estado, solicitado_por: { tipo: p.solicitadoPorTipo, id: p.solicitadoPor }, solicitante_usuario_id: p.solicitanteUsuarioId,
    aprovado_por_usuario_id: p.aprovadoPorUsuarioId, aprovado_em: p.aprovadoEm?.toISOString() ?? null,
    id_transacao: p.idTransacao, pago_em: p.pagoEm?.toISOString() ?? null, motivo_falha: p.motivoFalha,
    criado_em: p.criadoEm.toISOString(), atualizado_em: p.atualizadoEm.toISOString(),
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
    desembolso: o.desembolso ? paymentView(o.desembolso) : null,
  }
}

export function operationListView(o: Operation, totals: { n: number, face: bigint } | undefined) {
  return { ...summary(o), quantidade_titulos: totals?.n ?? 0, valor_face_centavos: Number(totals?.face ?? 0n) }
}

// The API's answers as the back office's pages read them: the fields they show, named as the API names them
// (the customers' OpenAPI document is the contract; these are a reader's subset of it).

export type List<T> = { itens: T[], proximo: number | null }

export type Party = {
  id: string, documento: string, tipo_pessoa: string, razao_social: string, limite_centavos: number | null, exposicao_centavos: number,
  estado: string, municipio_ibge: string | null, uf: string | null,
  perfil_iof?: string, contas_bancarias?: ContaBancaria[],
}

export type Product = {
  id: string, nome: string, versao: number,
  versoes: {
    versao: number, base: string, taxa_mensal: string, taxa_ad_valorem: string, tarifa_por_titulo_centavos: number, tac_centavos: number, iof: string,
  }[],
}

export type Holiday = { id: string | null, data: string, descricao: string, abrangencia: string, uf: string | null, municipio_ibge: string | null }

export type OperationSummary = {
  id: string, numero: number, id_externo: string | null, cedente_id: string, data_operacao: string, estado: string, quantidade_titulos: number,
  valor_face_centavos: number,
}

export type Title = {
  id: string, tipo: string, numero: string, sacado_id: string, emissao: string, vencimento: string, valor_face_centavos: number,
  chave_nfe: string | null, estado: string, confirmacao_estado: string, registro_estado: string, registro_situacao: string | null,
}

export type QuoteLine = {
  titulo_id?: string, vencimento: string, vencimento_util: string, dias_desconto: number, dias_iof: number, valor_face_centavos: number,
  desagio_centavos: number, ad_valorem_centavos: number, tarifa_centavos: number, iof_centavos: number, preco_compra_centavos: number,
}

export type Totals = {
  valor_face_centavos: number, desagio_centavos: number, ad_valorem_centavos: number, tarifas_centavos: number, tac_centavos: number,
  iof_centavos: number, compensacoes_centavos: number, valor_liquido_centavos: number,
}

export type Quote = {
  versao: number, valida_ate: string, perfil_iof: string, linhas: QuoteLine[], totais: Totals, prazo_medio_dias: string, taxa_efetiva_mensal: string | null,
}

export type Payment = {
  id: string, operacao_id: string, operacao_numero: number, cedente_id: string, valor_centavos: number, estado: string, solicitante_usuario_id: string | null,
  aprovado_por_usuario_id: string | null, id_transacao: string | null, pago_em: string | null, motivo_falha: string | null, criado_em: string,
  conta_bancaria: { banco: string, agencia: string, conta: string, digito: string, historico?: AccountHistory | null },
}

export type Operation = {
  id: string, numero: number, id_externo: string | null, quantidade_titulos: number, titulos_proximo: number | null, cedente_id: string,
  produto_id: string, data_operacao: string, estado: string,
  cotacao_versao: number | null, cotacao_aceita: number | null, titulos: Title[], cotacao: Quote | null, desembolso: Payment | null,
  formalizacao: { termo_sha256: string, assinado_em: string, signatarios: { nome: string, documento: string }[] } | null,
  cancelamento: { motivo: string, em: string } | null,
  termo?: { sha256: string, tipo: string, nome_arquivo: string | null, tamanho_bytes: number, enviado_em: string } | null,
}

export type Statement = {
  de: string, ate: string, saldo_inicial_centavos: number, saldo_final_centavos: number,
  movimentos: { lancamento_id: string, data: string, historico: string, debito_centavos: number, credito_centavos: number, saldo_centavos: number }[],
}

export type AuditRow = {
  id: number, em: string, ator_tipo: string, ator_id: string | null, acao: string, request_id: string | null, request_id_cliente: string | null,
}

export type Entry = {
  id: string, data: string, historico: string,
  linhas: { conta: string, cedente_id: string | null, debito_centavos: number, credito_centavos: number }[],
}

export type TrialBalance = {
  data: string,
  contas: { conta: string, nome: string, debitos_centavos: number, creditos_centavos: number, saldo_devedor_centavos: number, saldo_credor_centavos: number }[],
  totais: { debitos_centavos: number, creditos_centavos: number, saldo_devedor_centavos: number, saldo_credor_centavos: number },
}

/** Who added a cedente's bank account and when, and its confirmation by a second person. */
export type AccountHistory = {
  confirmada: boolean, incluida_em: string, incluida_por_usuario_id: string | null, confirmada_em: string | null, confirmada_por_usuario_id: string | null,
}

/** A cedente's bank account as the API answers it. */
export type ContaBancaria = AccountHistory & { id: string, banco: string, agencia: string, conta: string, digito: string }

/** A payment as its own routes answer it (GET /api/desembolsos, /api/desembolsos/{id}): names beside the ids. */
export type PaymentAnswer = Payment & {
  operacao_numero: number, cedente: { razao_social: string, documento: string }, solicitante_nome: string | null, aprovado_por_nome: string | null,
  aprovado_em: string | null, solicitado_por: { tipo: 'usuario' | 'token', id: string, nome: string | null },
  conta_bancaria: Payment['conta_bancaria'] & {
    historico?: (AccountHistory & { incluida_por_nome: string | null, confirmada_por_nome: string | null }) | null,
  },
  recusa: { motivo: string, por_usuario_id: string, por_nome: string | null, em: string } | null,
}

/** An audit row with its names (GET /api/conta/auditoria): who by name, what was acted on by name, what changed. */
export type AuditRowNamed = AuditRow & {
  ator_nome: string | null, alvo_id: string | null, alvo_nome: string | null, alvo_operacao_id: string | null, motivo: string | null,
  alteracoes: Record<string, { antes: unknown, depois: unknown }> | null,
}

/** A collection account (GET /api/contas-cobranca): what names it on a page. */
export type CollectionAccount = {
  id: string, nome: string, banco: string, banco_nome: string, agencia: string, conta: string, conta_digito: string, carteira: string,
  layout_cnab: string, transporte: string, ativa: boolean, confirmada: boolean,
}

/** A charge as GET /api/cobrancas lists it: its título's number and its sacado beside the ids. */
export type Charge = {
  id: string, numero: number, titulo_id: string, conta_cobranca_id: string, banco: string, nosso_numero: string, valor_centavos: number,
  vencimento: string, estado: string, titulo_numero: string, sacado: { id: string, razao_social: string },
}

/** A retorno file and its progress (GET /api/cnab/retornos/{id}). */
export type RetornoAnswer = {
  id: string, conta_cobranca_id: string, layout: string, nsa: string, data_geracao: string | null, bytes: number, registros: number, titulos: number,
  estado: string, aplicadas: number, ignoradas: number, pendentes: number, criado_em: string, concluido_em: string | null,
}

/** A retorno's line (GET /api/cnab/retornos/{id}/linhas). */
export type RetornoLine = {
  linha: number, codigo: string, ocorrencia: string, nosso_numero: string, data_ocorrencia: string | null, data_credito: string | null,
  pago_centavos: number, juros_multa_centavos: number, desconto_centavos: number, abatimento_centavos: number, tarifa_centavos: number,
  resultado: string, motivo: string | null, detalhe: string | null, estornada_em: string | null,
}

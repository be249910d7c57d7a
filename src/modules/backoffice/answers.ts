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
  chave_nfe: string | null, estado: string,
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
  id: string, operacao_id: string, cedente_id: string, valor_centavos: number, estado: string, solicitante_usuario_id: string | null,
  aprovado_por_usuario_id: string | null, id_transacao: string | null, pago_em: string | null, motivo_falha: string | null, criado_em: string,
  conta_bancaria: { banco: string, agencia: string, conta: string, digito: string, historico?: AccountHistory | null },
}

export type Operation = {
  id: string, numero: number, id_externo: string | null, quantidade_titulos: number, titulos_proximo: number | null, cedente_id: string,
  produto_id: string, data_operacao: string, estado: string,
  cotacao_versao: number | null, cotacao_aceita: number | null, titulos: Title[], cotacao: Quote | null, desembolso: Payment | null,
  formalizacao: { termo_sha256: string, assinado_em: string, signatarios: { nome: string, documento: string }[] } | null,
  cancelamento: { motivo: string, em: string } | null,
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

// Each field a back office form posts, by the key a refusal names it with (the API body's field, as the form's
// action maps it), with the label the form shows: a refusal's summary reads "CPF ou CNPJ: dígito verificador
// inválido", not "documento: …". A key in a form whose label differs from the others' is given as "action:key".

const LABELS: Record<string, string> = {
  'documento': 'CPF ou CNPJ', 'razao_social': 'Razão social ou nome', 'limite_centavos': 'Limite (R$)', 'municipio_ibge': 'Município (código IBGE)',
  'uf': 'UF', 'perfil_iof': 'Perfil de IOF', 'motivo_isencao': 'Motivo da isenção de IOF', 'declaracao_simples': 'Declaração do Simples Nacional',
  'declaracao_simples.data': 'Data da declaração', 'declaracao_simples.sha256': 'SHA-256 da declaração assinada',
  'contas_bancarias': 'Conta para o desembolso', 'contas_bancarias.0': 'Conta para o desembolso', 'contas_bancarias.0.banco': 'Banco (código COMPE)',
  'contas_bancarias.0.agencia': 'Agência', 'contas_bancarias.0.conta': 'Conta', 'contas_bancarias.0.digito': 'Dígito',
  'contas_bancarias.0.titular_documento': 'Titular da conta',
  'nome': 'Nome', 'base': 'Base de cálculo', 'taxa_mensal': 'Taxa mensal (%)', 'taxa_ad_valorem': 'Ad valorem (%)',
  'tarifa_por_titulo_centavos': 'Tarifa por título (R$)',
  'tac_centavos': 'Tarifa de cadastro (R$)', 'dias_float': 'Dias de float', 'iof': 'IOF',
  'data': 'Data', 'descricao': 'Descrição',
  'cedente_id': 'Cedente', 'produto_id': 'Produto', 'data_operacao': 'Data da operação', 'titulos': 'Títulos',
  'tipo': 'Tipo', 'numero': 'Número', 'sacado_id': 'Sacado', 'emissao': 'Emissão', 'vencimento': 'Vencimento',
  'valor_face_centavos': 'Valor de face (R$)',
  'chave_nfe': 'Chave da NF-e', 'cotacao_versao': 'Versão da cotação',
  'termo_sha256': 'SHA-256 do termo de cessão assinado', 'assinado_em': 'Assinado em (horário de Brasília)', 'signatarios': 'Signatários',
  'signatario_nome': 'Signatário',
  'signatario_documento': 'CPF do signatário',
  'conta_bancaria': 'Conta do cedente', 'motivo': 'Motivo', 'id_transacao': 'Identificador da transferência', 'pago_em': 'Paga em (horário de Brasília)',
  'conta_cobranca_id': 'Conta de cobrança', 'arquivo': 'Arquivo de retorno do banco',
  'desembolso/recusa:motivo': 'Motivo da recusa', 'desembolso/falha:motivo': 'Motivo da falha',
  'titulo_id': 'Título', 'forma': 'Forma',
  'cobranca_id': 'Cobrança', 'instrucao': 'Instrução', 'instrucoes:vencimento': 'Novo vencimento', 'abatimento': 'Abatimento (R$)',
  'contas-cobranca:banco': 'Banco', 'contas-cobranca:agencia': 'Agência', 'contas-cobranca:conta': 'Conta', 'conta_digito': 'Dígito da conta',
  'carteira': 'Carteira', 'convenio': 'Convênio (código do beneficiário)', 'layout_cnab': 'Layout CNAB', 'transporte': 'Transporte',
  'chave_pix': 'Chave PIX',
  'motivo_cancelamento': 'Motivo do cancelamento',
  'juros_tipo': 'Juros', 'juros_valor': 'Juros por dia (R$)', 'juros_taxa': 'Juros ao mês (%)', 'multa': 'Multa (%)', 'protesto_dias': 'Protestar após (dias)',
  'cobrancas:vencimento': 'Vencimento', 'nosso_numero': 'Nosso número',
  'logradouro': 'Logradouro', 'sacados:numero': 'Número', 'complemento': 'Complemento', 'bairro': 'Bairro', 'cep': 'CEP', 'cidade': 'Cidade',
}

/** The label of field `key` of action `action`'s form; the key itself for one no form names (never hidden). */
export function labelOf(action: string, key: string): string {
  return LABELS[`${action}:${key}`] ?? LABELS[key] ?? key
}

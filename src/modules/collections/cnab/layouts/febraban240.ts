// FEBRABAN's CNAB 240 for cobrança ("Layout Padrão de Arquivos — Padrão FEBRABAN 240 posições", the cobrança
// records of §3.2.2), as the banks' own 240 manuals reproduce it. Each record names its page; the positions below
// were read against version 10.6 (16/03/2020; 10.11 moved no cobrança position, only added codes and optional
// segments). The banks' departures (where each puts its nosso número, which codes it uses) are in their own files.
import { brancos, c, type Registro } from '../layout.ts'

const FONTE = 'FEBRABAN, Padrão 240 posições v10.6 (16/03/2020)'

/** Positions 1–17 of every detail record: bank, lote, type 3, sequence, segment, blank, movement code. */
const detalhe = (segmento: string) => [
  c('banco', 1, 3, '9'), c('lote', 4, 7, '9'), c('registro', 8, 8, '9', '3'), c('sequencial', 9, 13, '9'), c('segmento', 14, 14, 'X', segmento),
  brancos(15, 15), c('movimento', 16, 17, '9'),
]

export const HEADER_ARQUIVO: Registro = {
  nome: 'header_arquivo', tamanho: 240, fonte: `${FONTE}, p. 17 (registro 0)`,
  campos: [
    c('banco', 1, 3, '9'), c('lote', 4, 7, '9', '0000'), c('registro', 8, 8, '9', '0'), brancos(9, 17), c('tipo_inscricao', 18, 18, '9'),
    c('inscricao', 19, 32, '9'), c('convenio', 33, 52, 'X'), c('agencia', 53, 57, '9'), c('agencia_dv', 58, 58, 'X'), c('conta', 59, 70, '9'),
    c('conta_dv', 71, 71, 'X'), c('agencia_conta_dv', 72, 72, 'X'), c('empresa', 73, 102, 'X'), c('banco_nome', 103, 132, 'X'), brancos(133, 142),
    c('remessa_retorno', 143, 143, '9'), c('data_geracao', 144, 151, '9'), c('hora_geracao', 152, 157, '9'), c('nsa', 158, 163, '9'),
    c('versao', 164, 166, '9'), c('densidade', 167, 171, '9'), c('reservado_banco', 172, 191, 'X'), c('reservado_empresa', 192, 211, 'X'),
    brancos(212, 240),
  ],
}

export const HEADER_LOTE: Registro = {
  nome: 'header_lote', tamanho: 240, fonte: `${FONTE}, p. 54 (registro 1)`,
  campos: [
    c('banco', 1, 3, '9'), c('lote', 4, 7, '9'), c('registro', 8, 8, '9', '1'), c('operacao', 9, 9, 'X'), c('servico', 10, 11, '9', '01'), brancos(12, 13),
    c('versao', 14, 16, '9'), brancos(17, 17), c('tipo_inscricao', 18, 18, '9'), c('inscricao', 19, 33, '9'), c('convenio', 34, 53, 'X'),
    c('agencia', 54, 58, '9'), c('agencia_dv', 59, 59, 'X'), c('conta', 60, 71, '9'), c('conta_dv', 72, 72, 'X'), c('agencia_conta_dv', 73, 73, 'X'),
    c('empresa', 74, 103, 'X'), c('mensagem_1', 104, 143, 'X'), c('mensagem_2', 144, 183, 'X'), c('numero_remessa', 184, 191, '9'),
    c('data_gravacao', 192, 199, '9'), c('data_credito', 200, 207, '9'), brancos(208, 240),
  ],
}

export const SEGMENTO_P: Registro = {
  nome: 'segmento_p', tamanho: 240, fonte: `${FONTE}, p. 55 (segmento P, remessa)`,
  campos: [
    ...detalhe('P'), c('agencia', 18, 22, '9'), c('agencia_dv', 23, 23, 'X'), c('conta', 24, 35, '9'), c('conta_dv', 36, 36, 'X'),
    c('agencia_conta_dv', 37, 37, 'X'), c('nosso_numero', 38, 57, 'X'), c('carteira', 58, 58, '9'), c('cadastramento', 59, 59, '9'),
    c('tipo_documento', 60, 60, 'X'), c('emissao_boleto', 61, 61, '9'), c('distribuicao', 62, 62, 'X'), c('seu_numero', 63, 77, 'X'),
    c('vencimento', 78, 85, '9'), c('valor', 86, 100, 'V2'), c('agencia_cobradora', 101, 105, '9'), c('agencia_cobradora_dv', 106, 106, 'X'),
    c('especie', 107, 108, '9'), c('aceite', 109, 109, 'X'), c('emissao', 110, 117, '9'), c('juros_codigo', 118, 118, '9'),
    c('juros_data', 119, 126, '9'), c('juros_valor', 127, 141, 'V2'), c('desconto_codigo', 142, 142, '9'), c('desconto_data', 143, 150, '9'),
    c('desconto_valor', 151, 165, 'V2'), c('iof', 166, 180, 'V2'), c('abatimento', 181, 195, 'V2'), c('uso_empresa', 196, 220, 'X'),
    c('protesto_codigo', 221, 221, '9'), c('protesto_dias', 222, 223, '9'), c('baixa_codigo', 224, 224, '9'), c('baixa_dias', 225, 227, 'X'),
    c('moeda', 228, 229, '9'), c('contrato', 230, 239, '9'), c('pagamento_parcial', 240, 240, 'X'),
  ],
}

export const SEGMENTO_Q: Registro = {
  nome: 'segmento_q', tamanho: 240, fonte: `${FONTE}, p. 56 (segmento Q, remessa)`,
  campos: [
    ...detalhe('Q'), c('pagador_tipo', 18, 18, '9'), c('pagador_inscricao', 19, 33, '9'), c('pagador_nome', 34, 73, 'X'),
    c('pagador_endereco', 74, 113, 'X'), c('pagador_bairro', 114, 128, 'X'), c('pagador_cep', 129, 133, '9'), c('pagador_cep_sufixo', 134, 136, '9'),
    c('pagador_cidade', 137, 151, 'X'), c('pagador_uf', 152, 153, 'X'), c('avalista_tipo', 154, 154, '9'), c('avalista_inscricao', 155, 169, '9'),
    c('avalista_nome', 170, 209, 'X'), c('banco_correspondente', 210, 212, '9'), c('nosso_numero_correspondente', 213, 232, 'X'), brancos(233, 240),
  ],
}

export const SEGMENTO_R: Registro = {
  nome: 'segmento_r', tamanho: 240, fonte: `${FONTE}, p. 57 (segmento R, remessa)`,
  campos: [
    ...detalhe('R'), c('desconto_2_codigo', 18, 18, '9'), c('desconto_2_data', 19, 26, '9'), c('desconto_2_valor', 27, 41, 'V2'),
    c('desconto_3_codigo', 42, 42, '9'), c('desconto_3_data', 43, 50, '9'), c('desconto_3_valor', 51, 65, 'V2'), c('multa_codigo', 66, 66, 'X'),
    c('multa_data', 67, 74, '9'), c('multa_valor', 75, 89, 'V2'), c('informacao_pagador', 90, 99, 'X'), c('mensagem_3', 100, 139, 'X'),
    c('mensagem_4', 140, 179, 'X'), brancos(180, 199), c('ocorrencia_pagador', 200, 207, '9'), c('debito_banco', 208, 210, '9'),
    c('debito_agencia', 211, 215, '9'), c('debito_agencia_dv', 216, 216, 'X'), c('debito_conta', 217, 228, '9'), c('debito_conta_dv', 229, 229, 'X'),
    c('debito_agencia_conta_dv', 230, 230, 'X'), c('aviso_debito', 231, 231, '9'), brancos(232, 240),
  ],
}

export const SEGMENTO_T: Registro = {
  nome: 'segmento_t', tamanho: 240, fonte: `${FONTE}, p. 66 (segmento T, retorno)`,
  campos: [
    ...detalhe('T'), c('agencia', 18, 22, '9'), c('agencia_dv', 23, 23, 'X'), c('conta', 24, 35, '9'), c('conta_dv', 36, 36, 'X'),
    c('agencia_conta_dv', 37, 37, 'X'), c('nosso_numero', 38, 57, 'X'), c('carteira', 58, 58, '9'), c('seu_numero', 59, 73, 'X'),
    c('vencimento', 74, 81, '9'), c('valor', 82, 96, 'V2'), c('banco_cobrador', 97, 99, '9'), c('agencia_cobradora', 100, 104, '9'),
    c('agencia_cobradora_dv', 105, 105, 'X'), c('uso_empresa', 106, 130, 'X'), c('moeda', 131, 132, '9'), c('pagador_tipo', 133, 133, '9'),
    c('pagador_inscricao', 134, 148, '9'), c('pagador_nome', 149, 188, 'X'), c('contrato', 189, 198, '9'), c('tarifa', 199, 213, 'V2'),
    c('motivos', 214, 223, 'X'), brancos(224, 240),
  ],
}

export const SEGMENTO_U: Registro = {
  nome: 'segmento_u', tamanho: 240, fonte: `${FONTE}, p. 67 (segmento U, retorno)`,
  campos: [
    ...detalhe('U'), c('juros_multa', 18, 32, 'V2'), c('desconto', 33, 47, 'V2'), c('abatimento', 48, 62, 'V2'), c('iof', 63, 77, 'V2'),
    c('valor_pago', 78, 92, 'V2'), c('valor_liquido', 93, 107, 'V2'), c('outras_despesas', 108, 122, 'V2'), c('outros_creditos', 123, 137, 'V2'),
    c('data_ocorrencia', 138, 145, '9'), c('data_credito', 146, 153, '9'), c('ocorrencia_pagador', 154, 157, 'X'),
    c('ocorrencia_pagador_data', 158, 165, 'X'), c('ocorrencia_pagador_valor', 166, 180, 'V2'), c('ocorrencia_pagador_complemento', 181, 210, 'X'),
    c('banco_correspondente', 211, 213, '9'), c('nosso_numero_correspondente', 214, 233, 'X'), brancos(234, 240),
  ],
}

export const TRAILER_LOTE: Registro = {
  nome: 'trailer_lote', tamanho: 240, fonte: `${FONTE}, p. 68 (registro 5)`,
  campos: [
    c('banco', 1, 3, '9'), c('lote', 4, 7, '9'), c('registro', 8, 8, '9', '5'), brancos(9, 17), c('registros', 18, 23, '9'),
    c('simples_quantidade', 24, 29, '9'), c('simples_valor', 30, 46, 'V2'), c('vinculada_quantidade', 47, 52, '9'), c('vinculada_valor', 53, 69, 'V2'),
    c('caucionada_quantidade', 70, 75, '9'), c('caucionada_valor', 76, 92, 'V2'), c('descontada_quantidade', 93, 98, '9'),
    c('descontada_valor', 99, 115, 'V2'), c('aviso', 116, 123, 'X'), brancos(124, 240),
  ],
}

export const TRAILER_ARQUIVO: Registro = {
  nome: 'trailer_arquivo', tamanho: 240, fonte: `${FONTE}, p. 18 (registro 9)`,
  campos: [
    c('banco', 1, 3, '9'), c('lote', 4, 7, '9', '9999'), c('registro', 8, 8, '9', '9'), brancos(9, 17), c('lotes', 18, 23, '9'),
    c('registros', 24, 29, '9'), c('contas_conciliacao', 30, 35, '9'), brancos(36, 240),
  ],
}

export const FEBRABAN_240 = [HEADER_ARQUIVO, HEADER_LOTE, SEGMENTO_P, SEGMENTO_Q, SEGMENTO_R, SEGMENTO_T, SEGMENTO_U, TRAILER_LOTE, TRAILER_ARQUIVO] as const

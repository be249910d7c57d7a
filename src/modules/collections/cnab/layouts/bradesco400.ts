// Bradesco's CNAB 400 for cobrança: "Manual de Procedimentos Operacionais para Troca de Arquivos — Cobrança
// Bradesco", nº 4008.524.0121, versão 11 (docs/research/cnab-layouts.md §3.1). Each record names its page; the
// positions were read again against the manual's own tables (pp. 9-10, 16, 38-43) when they were written here.
import { brancos, c, type Registro } from '../layout.ts'
import type { Layout400 } from './bancos400.ts'

const FONTE = 'Bradesco, Troca de Arquivos — Cobrança 400 posições 4008.524.0121 v11'

const LITERAL_COBRANCA = 'COBRANCA'.padEnd(15, ' ')

export const REMESSA_HEADER: Registro = {
  nome: 'bradesco400_remessa_header', tamanho: 400, fonte: `${FONTE}, p. 9 (header label)`,
  campos: [
    c('registro', 1, 1, '9', '0'), c('operacao', 2, 2, '9', '1'), c('literal_remessa', 3, 9, 'X', 'REMESSA'), c('servico', 10, 11, '9', '01'),
    c('literal_servico', 12, 26, 'X', LITERAL_COBRANCA), c('codigo_empresa', 27, 46, '9'), c('empresa', 47, 76, 'X'), c('banco', 77, 79, '9', '237'),
    c('banco_nome', 80, 94, 'X'), c('data_geracao', 95, 100, '9'), brancos(101, 108), c('sistema', 109, 110, 'X', 'MX'), c('nsa', 111, 117, '9'),
    brancos(118, 394), c('sequencial', 395, 400, '9'),
  ],
}

// 21-37 is one field in the table ("Identificação da Empresa Beneficiária no Banco") that the notes of p. 17 break
// down: a zero, the carteira (3), the agência without its digit (5), the conta (7) and its digit.
export const REMESSA_DETALHE: Registro = {
  nome: 'bradesco400_remessa_detalhe', tamanho: 400, fonte: `${FONTE}, pp. 10-11 (transação tipo 1), notes pp. 17-22`,
  campos: [
    c('registro', 1, 1, '9', '1'), c('debito_agencia', 2, 6, '9'), c('debito_agencia_dv', 7, 7, 'X'), c('debito_razao', 8, 12, '9'),
    c('debito_conta', 13, 19, '9'), c('debito_conta_dv', 20, 20, 'X'), c('zero_empresa', 21, 21, '9', '0'), c('carteira', 22, 24, '9'),
    c('agencia', 25, 29, '9'), c('conta', 30, 36, '9'), c('conta_dv', 37, 37, 'X'), c('uso_empresa', 38, 62, 'X'), c('banco_debito', 63, 65, '9'),
    c('multa_codigo', 66, 66, '9'), c('multa_percentual', 67, 70, 'V2'), c('nosso_numero', 71, 81, '9'), c('nosso_numero_dv', 82, 82, 'X'),
    c('desconto_dia', 83, 92, 'V2'), c('emissao_papeleta', 93, 93, '9'), c('debito_automatico', 94, 94, 'X'), c('operacao_banco', 95, 104, 'X'),
    c('rateio', 105, 105, 'X'), c('aviso_debito', 106, 106, '9'), c('pagamentos_parciais', 107, 108, '9'), c('ocorrencia', 109, 110, '9'),
    c('seu_numero', 111, 120, 'X'), c('vencimento', 121, 126, '9'), c('valor', 127, 139, 'V2'), c('banco_cobranca', 140, 142, '9'),
    c('agencia_depositaria', 143, 147, '9'), c('especie', 148, 149, '9'), c('aceite', 150, 150, 'X', 'N'), c('emissao', 151, 156, '9'),
    c('instrucao_1', 157, 158, '9'), c('instrucao_2', 159, 160, '9'), c('juros_dia', 161, 173, 'V2'), c('desconto_data', 174, 179, '9'),
    c('desconto_valor', 180, 192, 'V2'), c('iof', 193, 205, 'V2'), c('abatimento', 206, 218, 'V2'), c('pagador_tipo', 219, 220, '9'),
    c('pagador_inscricao', 221, 234, '9'), c('pagador_nome', 235, 274, 'X'), c('pagador_endereco', 275, 314, 'X'), c('mensagem_1', 315, 326, 'X'),
    c('pagador_cep', 327, 331, '9'), c('pagador_cep_sufixo', 332, 334, '9'), c('avalista', 335, 394, 'X'), c('sequencial', 395, 400, '9'),
  ],
}

export const REMESSA_TRAILER: Registro = {
  nome: 'bradesco400_remessa_trailer', tamanho: 400, fonte: `${FONTE}, p. 16 (trailler)`,
  campos: [c('registro', 1, 1, '9', '9'), brancos(2, 394), c('sequencial', 395, 400, '9')],
}

// The retorno's literals are not fixed here: the manual prints them in mixed case with accents ("Retorno",
// "Cobrança") and what the bank writes is checked by the reader where it matters (2 at position 2).
export const RETORNO_HEADER: Registro = {
  nome: 'bradesco400_retorno_header', tamanho: 400, fonte: `${FONTE}, pp. 38-39 (header label, retorno)`,
  campos: [
    c('registro', 1, 1, '9', '0'), c('operacao', 2, 2, '9'), c('literal_retorno', 3, 9, 'X'), c('servico', 10, 11, '9'), c('literal_servico', 12, 26, 'X'),
    c('codigo_empresa', 27, 46, '9'), c('empresa', 47, 76, 'X'), c('banco', 77, 79, '9'), c('banco_nome', 80, 94, 'X'), c('data_geracao', 95, 100, '9'),
    c('densidade', 101, 108, '9'), c('aviso', 109, 113, '9'), brancos(114, 379), c('data_credito', 380, 385, '9'), brancos(386, 394),
    c('sequencial', 395, 400, '9'),
  ],
}

// 71-82 is the nosso número (11) and its digit, which may be P; 21-37 as in the remessa ("confirmação idêntica", p. 44).
export const RETORNO_DETALHE: Registro = {
  nome: 'bradesco400_retorno_detalhe', tamanho: 400, fonte: `${FONTE}, pp. 39-41 (transação tipo 1, retorno), notes pp. 44-47`,
  campos: [
    c('registro', 1, 1, '9', '1'), c('empresa_tipo', 2, 3, '9'), c('empresa_inscricao', 4, 17, '9'), c('zeros_18', 18, 20, '9'),
    c('zero_empresa', 21, 21, '9'), c('carteira', 22, 24, '9'), c('agencia', 25, 29, '9'), c('conta', 30, 36, '9'), c('conta_dv', 37, 37, 'X'),
    c('uso_empresa', 38, 62, 'X'), c('zeros_63', 63, 70, '9'), c('nosso_numero', 71, 81, '9'), c('nosso_numero_dv', 82, 82, 'X'),
    c('uso_banco', 83, 92, '9'), c('uso_banco_2', 93, 104, 'X'), c('rateio', 105, 105, 'X'), c('pagamento_parcial', 106, 107, '9'),
    c('carteira_codigo', 108, 108, 'X'), c('ocorrencia', 109, 110, '9'), c('data_ocorrencia', 111, 116, '9'), c('seu_numero', 117, 126, 'X'),
    c('nosso_numero_confirmacao', 127, 146, 'X'), c('vencimento', 147, 152, '9'), c('valor', 153, 165, 'V2'), c('banco_cobrador', 166, 168, '9'),
    c('agencia_cobradora', 169, 173, '9'), c('especie', 174, 175, 'X'), c('tarifa', 176, 188, 'V2'), c('outras_despesas', 189, 201, 'V2'),
    c('juros_atraso', 202, 214, 'V2'), c('iof', 215, 227, 'V2'), c('abatimento', 228, 240, 'V2'), c('desconto', 241, 253, 'V2'),
    c('valor_pago', 254, 266, 'V2'), c('juros_mora', 267, 279, 'V2'), c('outros_creditos', 280, 292, 'V2'), brancos(293, 294),
    c('motivo_protesto', 295, 295, 'X'), c('data_credito', 296, 301, '9'), c('origem_pagamento', 302, 304, '9'), brancos(305, 314),
    c('banco_cheque', 315, 318, '9'), c('motivos', 319, 328, 'X'), brancos(329, 368), c('cartorio', 369, 370, '9'), c('protocolo', 371, 380, 'X'),
    brancos(381, 394), c('sequencial', 395, 400, '9'),
  ],
}

// Pages 43-44. The manual prints 75-86 as "Valor dos Registros – Ocorrência 06", then 87-91 as the quantity of 06
// and 92-103 as its value again: one of the two values is a typo (likely 75-86, where a quantity-value pair would
// put nothing). Laid out as printed, and as text (X) so that whatever a bank writes there never refuses the file:
// the reader takes nothing from 58-188 (these are the account's totals per occurrence, not checked against the file).
export const RETORNO_TRAILER: Registro = {
  nome: 'bradesco400_retorno_trailer', tamanho: 400, fonte: `${FONTE}, pp. 43-44 (trailler, retorno; 75-103 as printed, see the note)`,
  campos: [
    c('registro', 1, 1, '9', '9'), c('operacao', 2, 2, '9'), c('tipo_registro', 3, 4, '9'), c('banco', 5, 7, '9'), brancos(8, 17),
    c('titulos_quantidade', 18, 25, '9'), c('titulos_valor', 26, 39, 'V2'), c('aviso', 40, 47, '9'), brancos(48, 57),
    c('ocorrencia_02_quantidade', 58, 62, '9'), c('ocorrencia_02_valor', 63, 74, 'V2'), c('ocorrencia_06_valor_impresso', 75, 86, 'X'),
    c('ocorrencia_06_quantidade', 87, 91, 'X'), c('ocorrencia_06_valor', 92, 103, 'X'), c('ocorrencia_09_10_quantidade', 104, 108, '9'),
    c('ocorrencia_09_10_valor', 109, 120, 'V2'), c('ocorrencia_13_quantidade', 121, 125, '9'), c('ocorrencia_13_valor', 126, 137, 'V2'),
    c('ocorrencia_14_quantidade', 138, 142, '9'), c('ocorrencia_14_valor', 143, 154, 'V2'), c('ocorrencia_12_quantidade', 155, 159, '9'),
    c('ocorrencia_12_valor', 160, 171, 'V2'), c('ocorrencia_19_quantidade', 172, 176, '9'), c('ocorrencia_19_valor', 177, 188, 'V2'),
    brancos(189, 362), c('rateios_valor', 363, 377, 'V2'), c('rateios_quantidade', 378, 385, '9'), brancos(386, 394), c('sequencial', 395, 400, '9'),
  ],
}

export const BRADESCO_400: Layout400 = {
  banco: '237', fonte: FONTE, remessaHeader: REMESSA_HEADER, remessaDetalhe: REMESSA_DETALHE, remessaTrailer: REMESSA_TRAILER,
  retornoHeader: RETORNO_HEADER, retornoDetalhe: RETORNO_DETALHE, retornoTrailer: RETORNO_TRAILER,
}

// Itaú's CNAB 400 for cobrança: "Cobrança Bancária — Intercâmbio Eletrônico de Arquivos — Layout de Arquivos CNAB
// 400" (docs/research/cnab-layouts.md §3.2 transcribed the edition of jul/2021). Each record names its pages in
// that edition and in the edition of fev/2016, against whose tables the positions were read again here; the two
// editions print the same positions for these records.
import { brancos, c, type Registro } from '../layout.ts'
import type { Layout400 } from './bancos400.ts'

const FONTE = 'Itaú, Layout de Arquivos CNAB 400 — Cobrança (jul/2021; positions as in fev/2016)'

const LITERAL_COBRANCA = 'COBRANCA'.padEnd(15, ' ')

export const REMESSA_HEADER: Registro = {
  nome: 'itau400_remessa_header', tamanho: 400, fonte: `${FONTE}, jul/2021 p. 9, fev/2016 p. 7 (header de arquivo, remessa)`,
  campos: [
    c('registro', 1, 1, '9', '0'), c('operacao', 2, 2, '9', '1'), c('literal_remessa', 3, 9, 'X', 'REMESSA'), c('servico', 10, 11, '9', '01'),
    c('literal_servico', 12, 26, 'X', LITERAL_COBRANCA), c('agencia', 27, 30, '9'), c('zeros_agencia', 31, 32, '9', '00'), c('conta', 33, 37, '9'),
    c('conta_dv', 38, 38, '9'), brancos(39, 46), c('empresa', 47, 76, 'X'), c('banco', 77, 79, '9', '341'), c('banco_nome', 80, 94, 'X'),
    c('data_geracao', 95, 100, '9'), brancos(101, 394), c('sequencial', 395, 400, '9'),
  ],
}

// The nosso número goes without its DAC (63-70): the remessa has no position for it; the retorno gives it (94).
export const REMESSA_DETALHE: Registro = {
  nome: 'itau400_remessa_detalhe', tamanho: 400, fonte: `${FONTE}, jul/2021 pp. 10-11, fev/2016 p. 8 (detalhe, remessa), notas 1-16`,
  campos: [
    c('registro', 1, 1, '9', '1'), c('empresa_tipo', 2, 3, '9'), c('empresa_inscricao', 4, 17, '9'), c('agencia', 18, 21, '9'),
    c('zeros_agencia', 22, 23, '9', '00'), c('conta', 24, 28, '9'), c('conta_dv', 29, 29, '9'), brancos(30, 33), c('instrucao_cancelada', 34, 37, '9'),
    c('uso_empresa', 38, 62, 'X'), c('nosso_numero', 63, 70, '9'), c('moeda_quantidade', 71, 83, '9'), c('carteira', 84, 86, '9'),
    c('uso_banco', 87, 107, 'X'), c('carteira_codigo', 108, 108, 'X'), c('ocorrencia', 109, 110, '9'), c('seu_numero', 111, 120, 'X'),
    c('vencimento', 121, 126, '9'), c('valor', 127, 139, 'V2'), c('banco_cobranca', 140, 142, '9'), c('agencia_cobradora', 143, 147, '9'),
    c('especie', 148, 149, 'X'), c('aceite', 150, 150, 'X'), c('emissao', 151, 156, '9'), c('instrucao_1', 157, 158, 'X'), c('instrucao_2', 159, 160, 'X'),
    c('juros_dia', 161, 173, 'V2'), c('desconto_data', 174, 179, '9'), c('desconto_valor', 180, 192, 'V2'), c('iof', 193, 205, 'V2'),
    c('abatimento', 206, 218, 'V2'), c('pagador_tipo', 219, 220, '9'), c('pagador_inscricao', 221, 234, '9'), c('pagador_nome', 235, 264, 'X'),
    brancos(265, 274), c('pagador_endereco', 275, 314, 'X'), c('pagador_bairro', 315, 326, 'X'), c('pagador_cep', 327, 334, '9'),
    c('pagador_cidade', 335, 349, 'X'), c('pagador_uf', 350, 351, 'X'), c('avalista', 352, 381, 'X'), brancos(382, 385), c('mora_data', 386, 391, '9'),
    c('prazo', 392, 393, '9'), brancos(394, 394), c('sequencial', 395, 400, '9'),
  ],
}

// The optional record 2: the fine (code 2 for a percentage with two decimals, from a day DDMMAAAA), nota 35.
export const REMESSA_MULTA: Registro = {
  nome: 'itau400_remessa_multa', tamanho: 400, fonte: `${FONTE}, fev/2016 p. 9 (detalhe opcional — multa), nota 35`,
  campos: [
    c('registro', 1, 1, '9', '2'), c('multa_codigo', 2, 2, 'X'), c('multa_data', 3, 10, '9'), c('multa_valor', 11, 23, 'V2'), brancos(24, 394),
    c('sequencial', 395, 400, '9'),
  ],
}

export const REMESSA_TRAILER: Registro = {
  nome: 'itau400_remessa_trailer', tamanho: 400, fonte: `${FONTE}, fev/2016 p. 12 (trailer de arquivo, remessa)`,
  campos: [c('registro', 1, 1, '9', '9'), brancos(2, 394), c('sequencial', 395, 400, '9')],
}

export const RETORNO_HEADER: Registro = {
  nome: 'itau400_retorno_header', tamanho: 400, fonte: `${FONTE}, jul/2021 p. 19, fev/2016 p. 13 (header de arquivo, retorno)`,
  campos: [
    c('registro', 1, 1, '9', '0'), c('operacao', 2, 2, '9'), c('literal_retorno', 3, 9, 'X'), c('servico', 10, 11, '9'), c('literal_servico', 12, 26, 'X'),
    c('agencia', 27, 30, '9'), c('zeros_agencia', 31, 32, '9'), c('conta', 33, 37, '9'), c('conta_dv', 38, 38, '9'), brancos(39, 46),
    c('empresa', 47, 76, 'X'), c('banco', 77, 79, '9'), c('banco_nome', 80, 94, 'X'), c('data_geracao', 95, 100, '9'), c('densidade', 101, 105, '9'),
    c('densidade_unidade', 106, 108, 'X'), c('nsa', 109, 113, '9'), c('data_credito', 114, 119, '9'), brancos(120, 394), c('sequencial', 395, 400, '9'),
  ],
}

// The same record carries the optional "cheque devolvido / compensado" detail (occurrences 69 and 76, fev/2016
// p. 15): the cheque's account in 71-82 (blanks here), its value in 254-266, its CMC-7 in 325-354 and the reason
// it bounced in 378-379, all within this layout's fields.
export const RETORNO_DETALHE: Registro = {
  nome: 'itau400_retorno_detalhe', tamanho: 400, fonte: `${FONTE}, jul/2021 pp. 20-21, fev/2016 p. 14 (detalhe, retorno), notas 17, 20, 28`,
  campos: [
    c('registro', 1, 1, '9', '1'), c('empresa_tipo', 2, 3, '9'), c('empresa_inscricao', 4, 17, '9'), c('agencia', 18, 21, '9'),
    c('zeros_agencia', 22, 23, '9'), c('conta', 24, 28, '9'), c('conta_dv', 29, 29, '9'), brancos(30, 37), c('uso_empresa', 38, 62, 'X'),
    c('nosso_numero_empresa', 63, 70, '9'), brancos(71, 82), c('carteira', 83, 85, '9'), c('nosso_numero', 86, 93, '9'),
    c('nosso_numero_dac', 94, 94, '9'), brancos(95, 107), c('carteira_codigo', 108, 108, 'X'), c('ocorrencia', 109, 110, '9'),
    c('data_ocorrencia', 111, 116, '9'), c('seu_numero', 117, 126, 'X'), c('nosso_numero_confirmacao', 127, 134, '9'), brancos(135, 146),
    c('vencimento', 147, 152, '9'), c('valor', 153, 165, 'V2'), c('banco_cobrador', 166, 168, '9'), c('agencia_cobradora', 169, 172, '9'),
    c('agencia_cobradora_dac', 173, 173, '9'), c('especie', 174, 175, '9'), c('tarifa', 176, 188, 'V2'), brancos(189, 214), c('iof', 215, 227, 'V2'),
    c('abatimento', 228, 240, 'V2'), c('desconto', 241, 253, 'V2'), c('valor_pago', 254, 266, 'V2'), c('juros_mora', 267, 279, 'V2'),
    c('outros_creditos', 280, 292, 'V2'), c('dda', 293, 293, 'X'), brancos(294, 295), c('data_credito', 296, 301, 'X'),
    c('instrucao_cancelada', 302, 305, '9'), brancos(306, 311), c('zeros_312', 312, 324, '9'), c('pagador_nome', 325, 354, 'X'), brancos(355, 377),
    c('erros', 378, 385, 'X'), brancos(386, 392), c('liquidacao', 393, 394, 'X'), c('sequencial', 395, 400, '9'),
  ],
}

export const RETORNO_TRAILER: Registro = {
  nome: 'itau400_retorno_trailer', tamanho: 400, fonte: `${FONTE}, jul/2021 pp. 26-27, fev/2016 p. 17 (trailer de arquivo, retorno), notas 21-22`,
  campos: [
    c('registro', 1, 1, '9', '9'), c('operacao', 2, 2, '9'), c('servico', 3, 4, '9'), c('banco', 5, 7, '9'), brancos(8, 17),
    c('simples_quantidade', 18, 25, '9'), c('simples_valor', 26, 39, 'V2'), c('simples_aviso', 40, 47, 'X'), brancos(48, 57),
    c('vinculada_quantidade', 58, 65, '9'), c('vinculada_valor', 66, 79, 'V2'), c('vinculada_aviso', 80, 87, 'X'), brancos(88, 177),
    c('escritural_quantidade', 178, 185, '9'), c('escritural_valor', 186, 199, 'V2'), c('escritural_aviso', 200, 207, 'X'), c('controle', 208, 212, '9'),
    c('detalhes', 213, 220, '9'), c('valor_informado', 221, 234, 'V2'), brancos(235, 394), c('sequencial', 395, 400, '9'),
  ],
}

export const ITAU_400: Layout400 = {
  banco: '341', fonte: FONTE, remessaHeader: REMESSA_HEADER, remessaDetalhe: REMESSA_DETALHE, remessaMulta: REMESSA_MULTA,
  remessaTrailer: REMESSA_TRAILER, retornoHeader: RETORNO_HEADER, retornoDetalhe: RETORNO_DETALHE, retornoTrailer: RETORNO_TRAILER,
}

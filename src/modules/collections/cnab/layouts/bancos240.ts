// Where each bank's CNAB 240 departs from FEBRABAN's (docs/research/cnab-layouts.md §2, from each bank's manual):
// the block of segment P and T that carries the account and the nosso número, the seu número's width, and the
// layout versions its headers declare. Everything else is FEBRABAN's (febraban240.ts). Names are shared where the
// meaning is: `nosso_numero` is the bank's nosso número as the bank reads it back, whatever its positions.
import type { Banco } from '../../boleto/bancos.ts'
import { brancos, c, type Registro } from '../layout.ts'
import { HEADER_ARQUIVO, HEADER_LOTE, SEGMENTO_P, SEGMENTO_Q, SEGMENTO_R, SEGMENTO_T, SEGMENTO_U, TRAILER_ARQUIVO, TRAILER_LOTE } from './febraban240.ts'
import { variante } from './variante.ts'

export interface Layout240 {
  banco: Banco
  fonte: string
  versaoArquivo: string
  versaoLote: string
  headerArquivo: Registro
  headerLote: Registro
  p: Registro
  q: Registro
  r: Registro
  t: Registro
  u: Registro
  trailerLote: Registro
  trailerArquivo: Registro
}

const febraban = { headerArquivo: HEADER_ARQUIVO, headerLote: HEADER_LOTE, q: SEGMENTO_Q, r: SEGMENTO_R, u: SEGMENTO_U, trailerLote: TRAILER_LOTE,
  trailerArquivo: TRAILER_ARQUIVO }

// Banco do Brasil, "Particularidades BB — Leiaute CNAB 240", Agosto/2017: FEBRABAN's positions; the nosso número
// (convênio of 7 + sequence of 10, no check digit) left-aligned in P 38-57; carteira 17 is code 7 in P 58.
const BB_FONTE = 'Banco do Brasil, Particularidades BB — Leiaute CNAB 240 (ago/2017)'
const BB: Layout240 = {
  banco: '001', fonte: BB_FONTE, versaoArquivo: '083', versaoLote: '042', ...febraban, p: SEGMENTO_P, t: SEGMENTO_T,
}

// Santander, "H7815 Layout Cobrança CNAB 240 posições padrão Santander Multibanco" v2.9 (abr/2018): its own file
// header (código de transmissão), the account in 18-42, the nosso número with its check digit in P 45-57, and a
// segment T moved 4 positions left from 33 on.
const SAN_FONTE = 'Santander, H7815 Layout Cobrança CNAB 240 v2.9 (abr/2018)'
const SANTANDER: Layout240 = {
  banco: '033', fonte: SAN_FONTE, versaoArquivo: '040', versaoLote: '030', ...febraban,
  headerArquivo: variante(HEADER_ARQUIVO, `${SAN_FONTE}, header de arquivo`, [
    { de: 9, ate: 72, campos: [brancos(9, 16), c('tipo_inscricao', 17, 17, '9'), c('inscricao', 18, 32, '9'), c('codigo_transmissao', 33, 47, '9'),
      brancos(48, 72)] },
    { de: 152, ate: 157, campos: [brancos(152, 157)] },
    { de: 167, ate: 240, campos: [brancos(167, 240)] },
  ]),
  headerLote: variante(HEADER_LOTE, `${SAN_FONTE}, header de lote`, [
    { de: 34, ate: 73, campos: [brancos(34, 53), c('codigo_transmissao', 54, 68, '9'), brancos(69, 73)] },
    { de: 200, ate: 240, campos: [brancos(200, 240)] },
  ]),
  p: variante(SEGMENTO_P, `${SAN_FONTE}, segmento P`, [
    { de: 18, ate: 62, campos: [c('agencia', 18, 21, '9'), c('agencia_dv', 22, 22, 'X'), c('conta', 23, 31, '9'), c('conta_dv', 32, 32, 'X'),
      c('conta_fidc', 33, 41, '9'), c('conta_fidc_dv', 42, 42, 'X'), brancos(43, 44), c('nosso_numero', 45, 57, '9'), c('carteira', 58, 58, 'X'),
      c('cadastramento', 59, 59, '9'), c('tipo_documento', 60, 60, 'X'), brancos(61, 62)] },
    { de: 101, ate: 106, campos: [c('agencia_cobradora', 101, 104, '9'), c('agencia_cobradora_dv', 105, 105, 'X'), brancos(106, 106)] },
    { de: 225, ate: 240, campos: [c('baixa_zero', 225, 225, '9', '0'), c('baixa_dias', 226, 227, '9'), c('moeda', 228, 229, '9'), brancos(230, 240)] },
  ]),
  t: variante(SEGMENTO_T, `${SAN_FONTE}, segmento T`, [
    { de: 18, ate: 240, campos: [c('agencia', 18, 21, '9'), c('agencia_dv', 22, 22, 'X'), c('conta', 23, 31, '9'), c('conta_dv', 32, 32, 'X'),
      brancos(33, 40), c('nosso_numero', 41, 53, '9'), c('carteira', 54, 54, 'X'), c('seu_numero', 55, 69, 'X'), c('vencimento', 70, 77, '9'),
      c('valor', 78, 92, 'V2'), c('banco_cobrador', 93, 95, '9'), c('agencia_cobradora', 96, 99, '9'), c('agencia_cobradora_dv', 100, 100, 'X'),
      c('uso_empresa', 101, 125, 'X'), c('moeda', 126, 127, '9'), c('pagador_tipo', 128, 128, '9'), c('pagador_inscricao', 129, 143, '9'),
      c('pagador_nome', 144, 183, 'X'), c('conta_cobranca', 184, 193, 'X'), c('tarifa', 194, 208, 'V2'), c('motivos', 209, 218, 'X'),
      brancos(219, 240)] },
  ]),
}

// Caixa, "Leiaute CNAB 240 — Cobrança Bancária CAIXA — SIGCB" (MO 67.118 v010, jun/2018): the código do beneficiário
// in 24-29, the nosso número's 15 digits after the modalidade (P 41-57; T 40-57 with its check digit), a seu
// número of 11.
const CEF_FONTE = 'Caixa, Leiaute CNAB 240 SIGCB (MO 67.118 v010, jun/2018)'
const CAIXA: Layout240 = {
  banco: '104', fonte: CEF_FONTE, versaoArquivo: '101', versaoLote: '060', ...febraban,
  p: variante(SEGMENTO_P, `${CEF_FONTE}, segmento P`, [
    { de: 18, ate: 77, campos: [c('agencia', 18, 22, '9'), c('agencia_dv', 23, 23, 'X'), c('codigo_beneficiario', 24, 29, '9'), c('uso_caixa', 30, 39, '9'),
      c('modalidade_sinco', 40, 40, '9'), c('modalidade', 41, 42, '9'), c('nosso_numero', 43, 57, '9'), c('carteira', 58, 58, '9'),
      c('cadastramento', 59, 59, '9'), c('tipo_documento', 60, 60, 'X'), c('emissao_boleto', 61, 61, '9'), c('distribuicao', 62, 62, 'X'),
      c('seu_numero', 63, 73, 'X'), brancos(74, 77)] },
    { de: 230, ate: 239, campos: [c('contrato', 230, 239, '9')] },
  ]),
  t: variante(SEGMENTO_T, `${CEF_FONTE}, segmento T`, [
    { de: 18, ate: 73, campos: [c('uso_caixa', 18, 23, '9'), c('codigo_beneficiario', 24, 29, '9'), c('uso_caixa_2', 30, 32, '9'),
      c('banco_pagadores', 33, 35, '9'), c('uso_caixa_3', 36, 36, '9'), brancos(37, 38), c('modalidade_sinco', 39, 39, '9'), c('modalidade', 40, 41, '9'),
      c('nosso_numero', 42, 56, '9'), c('nosso_numero_dv', 57, 57, '9'), c('carteira', 58, 58, '9'), c('seu_numero', 59, 69, 'X'), brancos(70, 73)] },
  ]),
}

// Bradesco, "Manual de Procedimentos — Troca de Arquivos 240 posições" nº 4008.524.0339 v06 (jul/2017): P and T
// 38-57 split into the carteira (3), zeros (5), the nosso número (11) and its check digit (which may be P).
const BRA_FONTE = 'Bradesco, Troca de Arquivos 240 posições 4008.524.0339 v06 (jul/2017)'
const bradescoBlock = [c('carteira_produto', 38, 40, '9'), c('zeros_nn', 41, 45, '9'), c('nosso_numero', 46, 56, '9'), c('nosso_numero_dv', 57, 57, 'X')]
const BRADESCO: Layout240 = {
  banco: '237', fonte: BRA_FONTE, versaoArquivo: '084', versaoLote: '042', ...febraban,
  p: variante(SEGMENTO_P, `${BRA_FONTE}, segmento P`, [{ de: 38, ate: 57, campos: bradescoBlock }]),
  t: variante(SEGMENTO_T, `${BRA_FONTE}, segmento T (38-57 as in P: the manual does not describe it again)`, [{ de: 38, ate: 57, campos: bradescoBlock }]),
}

// Itaú, "Cobrança Bancária — Layout de Arquivos FEBRABAN 240" (jan/2017): agência of 4 and conta of 5 with their
// DAC, carteira, nosso número (8) and its DAC, a seu número of 10; in T, the DDA mark in 15, a payer's name of 30,
// up to four error codes in 214-221 and the liquidation's channel in 222-223.
const ITA_FONTE = 'Itaú, Layout de Arquivos FEBRABAN 240 — Cobrança (jan/2017)'
const itauAccount = [c('zero_agencia', 18, 18, '9'), c('agencia', 19, 22, '9')]
const ITAU: Layout240 = {
  banco: '341', fonte: ITA_FONTE, versaoArquivo: '040', versaoLote: '030', ...febraban,
  headerLote: variante(HEADER_LOTE, `${ITA_FONTE}, header de lote`, [
    { de: 12, ate: 13, campos: [c('zeros_servico', 12, 13, '9')] },
    { de: 34, ate: 73, campos: [brancos(34, 53), c('zero_agencia', 54, 54, '9'), c('agencia', 55, 58, '9'), brancos(59, 59), c('zeros_conta', 60, 66, '9'),
      c('conta', 67, 71, '9'), brancos(72, 72), c('dac', 73, 73, '9')] },
    { de: 104, ate: 183, campos: [brancos(104, 183)] },
  ]),
  p: variante(SEGMENTO_P, `${ITA_FONTE}, segmento P`, [
    { de: 18, ate: 77, campos: [...itauAccount, brancos(23, 23), c('zeros_conta', 24, 30, '9'), c('conta', 31, 35, '9'), brancos(36, 36),
      c('dac', 37, 37, '9'), c('carteira', 38, 40, '9'), c('nosso_numero', 41, 48, '9'), c('nosso_numero_dac', 49, 49, '9'), brancos(50, 57),
      c('zeros_codigos', 58, 62, '9'), c('seu_numero', 63, 72, 'X'), brancos(73, 77)] },
    { de: 225, ate: 240, campos: [c('baixa_dias', 225, 226, '9'), c('zeros_moeda', 227, 239, '9'), brancos(240, 240)] },
  ]),
  t: variante(SEGMENTO_T, `${ITA_FONTE}, segmento T`, [
    { de: 15, ate: 15, campos: [c('dda', 15, 15, 'X')] },
    { de: 18, ate: 73, campos: [...itauAccount, c('zeros_conta', 23, 30, '9'), c('conta', 31, 35, '9'), c('zero_conta', 36, 36, '9'), c('dac', 37, 37, '9'),
      c('carteira', 38, 40, '9'), c('nosso_numero', 41, 48, '9'), c('nosso_numero_dac', 49, 49, '9'), brancos(50, 57), c('zero_carteira', 58, 58, '9'),
      c('seu_numero', 59, 68, 'X'), brancos(69, 73)] },
    { de: 149, ate: 198, campos: [c('pagador_nome', 149, 178, 'X'), brancos(179, 188), c('contrato', 189, 198, '9')] },
    { de: 214, ate: 223, campos: [c('erros', 214, 221, 'X'), c('liquidacao', 222, 223, 'X')] },
  ]),
}

export const LAYOUTS_240: Record<Banco, Layout240> = { '001': BB, '033': SANTANDER, '104': CAIXA, '237': BRADESCO, '341': ITAU }

export const registrosDe = (l: Layout240): Registro[] => [l.headerArquivo, l.headerLote, l.p, l.q, l.r, l.t, l.u, l.trailerLote, l.trailerArquivo]

// What a bank's retorno says happened to a charge, in one vocabulary (issue 33: "each bank's occurrence codes map
// to one normalised vocabulary; the same code means different things at different banks"). The tables are per
// bank and layout, from each bank's manual (docs/research/cnab-layouts.md §1.10 and §2): FEBRABAN's C044 where a
// bank follows it, and the bank's own where it does not. Code 44 is the example: FEBRABAN's "título pago com cheque
// devolvido" (which reopens the título), Caixa's "estorno de baixa/liquidação", Itaú's "débito mensal de tarifas".
import type { Banco } from '../boleto/bancos.ts'

export const OCORRENCIAS = [
  'entrada_confirmada', 'entrada_rejeitada',
  'liquidacao', 'liquidacao_apos_baixa', 'liquidacao_cheque_pendente', 'cheque_compensado', 'cheque_devolvido', 'estorno_liquidacao',
  'baixa', 'protesto_enviado', 'protesto_sustado', 'protestado',
  'tarifa', 'instrucao_confirmada', 'instrucao_rejeitada', 'informativa',
] as const
export type Ocorrencia = (typeof OCORRENCIAS)[number]

type Tabela = Readonly<Record<string, Ocorrencia>>

const codes = (list: string, o: Ocorrencia): Record<string, Ocorrencia> =>
  Object.fromEntries(list.split(' ').map((c) => [c, o]))

// FEBRABAN 240, C044 (v10.6 pp. 146-156). What the list does not name is informativa (a notice that moves nothing).
const FEBRABAN: Tabela = {
  ...codes('02', 'entrada_confirmada'), ...codes('03', 'entrada_rejeitada'), ...codes('06', 'liquidacao'), ...codes('09', 'baixa'),
  ...codes('17', 'liquidacao_apos_baixa'), ...codes('23', 'protesto_enviado'), ...codes('24', 'protesto_sustado'), ...codes('25', 'protestado'),
  ...codes('26 30', 'instrucao_rejeitada'), ...codes('28', 'tarifa'), ...codes('44', 'cheque_devolvido'), ...codes('45', 'cheque_compensado'),
  ...codes('50', 'liquidacao_cheque_pendente'),
  ...codes('07 08 12 13 14 19 20 27 38 39 40 41 42 43 46 47 48 49 54 55 56 57 58 59 60 61 64 65', 'instrucao_confirmada'),
}

// Caixa SIGCB (MO 67.118 v010, C044 of its own): 44 and 47 reverse a liquidation, 46 is an on-line liquidation,
// 45 confirms a change of data, 01 a printing request.
const CAIXA: Tabela = {
  ...FEBRABAN, ...codes('01', 'informativa'), ...codes('44 47', 'estorno_liquidacao'), ...codes('45', 'instrucao_confirmada'), ...codes('46', 'liquidacao'),
}

// Santander H7815 v2.9, nota 41: FEBRABAN's codes it uses, and 93/94 (the CIP's intraday "baixa operacional" and
// its cancellation: a notice before the liquidation itself comes).
const SANTANDER: Tabela = { ...FEBRABAN, ...codes('93 94', 'informativa') }

// Itaú, its own codes in the 240 layout as in the 400 (nota 22): 06 and 08 (in cartório) liquidate, 09, 10, 32 and 47
// write off, 15–17 refuse instructions, 26–30, 33–46, 48 and 51–56 are fees and costs (44 the month's fees).
const ITAU: Tabela = {
  ...codes('02', 'entrada_confirmada'), ...codes('03', 'entrada_rejeitada'), ...codes('06 08', 'liquidacao'), ...codes('09 10 47', 'baixa'),
  ...codes('15 16 17', 'instrucao_rejeitada'), ...codes('23', 'protesto_enviado'), ...codes('24', 'protesto_sustado'), ...codes('32', 'protestado'),
  ...codes('26 27 28 29 30 33 34 35 36 37 38 39 40 41 42 43 44 45 46 48 51 52 53 54 55 56', 'tarifa'),
  ...codes('04 12 13 14 19 20 21 57', 'instrucao_confirmada'),
}

export const OCORRENCIAS_240: Record<Banco, Tabela> = {
  '001': FEBRABAN, // "Particularidades BB" (ago/2017): FEBRABAN's, with 44 and 50 for cheques.
  '033': SANTANDER,
  '104': CAIXA,
  '237': { ...FEBRABAN, ...codes('73', 'informativa') }, // Bradesco 240 v06: FEBRABAN's, and 73 (negativação).
  '341': ITAU,
}

/** The normalised occurrence of a bank's code: informativa for a code its table does not name. */
export const ocorrencia240 = (banco: Banco, codigo: string): Ocorrencia => OCORRENCIAS_240[banco][codigo] ?? 'informativa'

/**
 * Whether a liquidation was paid by a cheque not yet cleared, where the bank says so beside the code: FEBRABAN's
 * motivos 30 and 36 of table C (guichê or correspondent, by cheque), Caixa's form 02 at 216-217, Itaú's channels
 * CC and LC at 222-223.
 */
export function pagoComCheque(banco: Banco, motivos: readonly string[], itauCanal?: string): boolean {
  if (banco === '341') return itauCanal === 'CC' || itauCanal === 'LC'
  if (banco === '104') return motivos[1] === '02'
  return motivos.includes('30') || motivos.includes('36')
}

// CNAB 400: each bank's own codes (docs/research/cnab-layouts.md §3.1, §3.3 and §4), which are neither FEBRABAN's
// nor each other's: 15 is a liquidation in cartório at Bradesco and a refused write-off at Itaú, 17 a liquidation
// after the write-off at Bradesco and refused data at Itaú, 24 a rejected entry (CEP) at Bradesco and a protest
// rejected or withdrawn at Itaú.

// Bradesco 4008.524.0121 v11, p. 45: 06 and 15 (in cartório) liquidate, 16 is paid by a cheque not yet cleared
// ("vinculado"), 17 liquidates after the write-off; 22 (payment cancelled) and 40 (reversal) undo a liquidation, which
// is where a bounced cheque can only show (the manual names no "cheque devolvido": §4, to confirm with Bradesco).
const BRADESCO_400: Tabela = {
  ...codes('02', 'entrada_confirmada'), ...codes('03 24', 'entrada_rejeitada'), ...codes('06 15', 'liquidacao'),
  ...codes('16', 'liquidacao_cheque_pendente'), ...codes('17', 'liquidacao_apos_baixa'), ...codes('22 40', 'estorno_liquidacao'),
  ...codes('09 10', 'baixa'), ...codes('23', 'protesto_enviado'), ...codes('34', 'protesto_sustado'), ...codes('28', 'tarifa'),
  ...codes('27 30 32', 'instrucao_rejeitada'), ...codes('12 13 14 18 19 20 21 25 33 73 74', 'instrucao_confirmada'),
}

// Itaú CNAB 400, nota 17: 06 and 08 (in cartório) liquidate, 65 is paid by a cheque awaiting clearance, 69 the cheque
// bounced (the título reopens), 76 it cleared (fev/2016 edition); 09, 10, 47, 59 and 72 write off, 32 after a
// protest; 15–18 refuse instructions; the fees and costs as in the 240 (44 the month's fees). 07 (a partial
// liquidation of the B2B carteira 188) stays informativa: the service does not sell partial payments.
const ITAU_400: Tabela = {
  ...codes('02 64 73', 'entrada_confirmada'), ...codes('03 60', 'entrada_rejeitada'), ...codes('06 08', 'liquidacao'),
  ...codes('65', 'liquidacao_cheque_pendente'), ...codes('69', 'cheque_devolvido'), ...codes('76', 'cheque_compensado'),
  ...codes('09 10 47 59 72', 'baixa'), ...codes('32', 'protestado'), ...codes('23', 'protesto_enviado'), ...codes('24', 'protesto_sustado'),
  ...codes('15 16 17 18', 'instrucao_rejeitada'),
  ...codes('26 27 28 29 30 33 34 35 36 37 38 39 40 41 42 43 44 45 46 48 51 52 53 54 55 56 61 62', 'tarifa'),
  ...codes('04 12 13 14 19 20 21 57', 'instrucao_confirmada'),
}

export const OCORRENCIAS_400: Record<'237' | '341', Tabela> = { '237': BRADESCO_400, '341': ITAU_400 }

/** The normalised occurrence of a bank's 400 code: informativa for a code its table does not name. */
export const ocorrencia400 = (banco: '237' | '341', codigo: string): Ocorrencia => OCORRENCIAS_400[banco][codigo] ?? 'informativa'

/**
 * Whether a 400 liquidation was paid by a cheque not yet cleared, where the bank says so beside the code: Bradesco's
 * motivo 15 ("título pago com cheque", pp. 48-49) on 06, 15 and 17 (on 10 the same 15 is "título excluído"); Itaú's
 * código de liquidação CC or LC (393-394, nota 28).
 */
export function pagoComCheque400(banco: '237' | '341', codigo: string, motivos: readonly string[], itauCanal?: string): boolean {
  if (banco === '341') return itauCanal === 'CC' || itauCanal === 'LC'
  return ['06', '15', '17'].includes(codigo) && motivos.includes('15')
}

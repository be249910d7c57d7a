// The CNAB 400 layouts (issue 33: "400 where the bank still takes it: Bradesco and Itaú"). Unlike the 240, the 400
// has no common standard: each bank's manual defines every record, so each bank has its own file (bradesco400.ts,
// itau400.ts), every record citing its manual and page. Names are shared where the meaning is, as in the 240:
// `ocorrencia` is 109-110 in every detail, `sequencial` 395-400 in every record.
import type { Banco } from '../../boleto/bancos.ts'
import type { Registro } from '../layout.ts'
import { BRADESCO_400 } from './bradesco400.ts'
import { ITAU_400 } from './itau400.ts'

export const BANCOS_400 = ['237', '341'] as const satisfies readonly Banco[]
export type Banco400 = (typeof BANCOS_400)[number]

export interface Layout400 {
  banco: Banco400
  fonte: string
  remessaHeader: Registro
  remessaDetalhe: Registro
  /** Itaú's optional record 2 (the fine); Bradesco carries the fine in the detail itself (66-70). */
  remessaMulta?: Registro
  remessaTrailer: Registro
  retornoHeader: Registro
  retornoDetalhe: Registro
  retornoTrailer: Registro
}

export const LAYOUTS_400: Record<Banco400, Layout400> = { '237': BRADESCO_400, '341': ITAU_400 }

export const registrosDe400 = (l: Layout400): Registro[] =>
  [l.remessaHeader, l.remessaDetalhe, ...(l.remessaMulta ? [l.remessaMulta] : []), l.remessaTrailer, l.retornoHeader, l.retornoDetalhe, l.retornoTrailer]

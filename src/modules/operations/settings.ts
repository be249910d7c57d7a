// The operations module's setting: how many títulos one operation may hold (issue 31 item 9). 50 requests of 1,000
// títulos once made one operation of 50,000, whose every read answered 40 MB and stalled the process for others.
import { int } from '../../platform/settings/kinds.ts'

export const OPERATIONS_SETTINGS = {
  maxTitulosPorOperacao: int('OPERACAO_MAX_TITULOS', {
    default: 5000, min: 1, max: 100_000, description: 'the most títulos one operation holds; more are refused with 409 limite_de_titulos',
  }),
  termoMaxBytes: int('TERMO_MAX_BYTES', {
    default: 10 * 1024 * 1024, min: 1024, max: 100 * 1024 * 1024,
    description: 'the largest signed assignment term kept (bytes); a larger one is refused with 413 corpo_muito_grande',
  }),
}

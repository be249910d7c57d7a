// What an instruction may ask of a charge, given what was asked before it (issue 33; docs/decisions.md, "Instructions
// after registration"): each refusal a 422 item at its field, or a 409 where the charge's state is the reason.
import type { ValidationItem } from '../../../platform/http/validation-errors.ts'
import { addDays, dayNumber } from '../../calendar/index.ts'
import { PRORROGACAO_MAXIMA_DIAS, type InstrucaoInT } from './definitions.ts'
import { ChargeNotRegisteredError, ExtensionPendingError, NoProtestError, WriteOffAskedError } from './errors.ts'
import type { ChargeToInstruct, Instruction } from './store.ts'

const isCalendarDay = (d: string) => dayNumber(d) !== undefined

/** Throws the 409 the charge's state gives; the instructions `earlier` are the charge's, in order. */
export function checkState(b: InstrucaoInT, charge: ChargeToInstruct, earlier: readonly Instruction[]): void {
  if (charge.estado !== 'registrada') throw new ChargeNotRegisteredError(charge.estado)
  const live = earlier.filter((i) => i.estado !== 'rejeitada')
  const baixa = live.find((i) => i.instrucao === 'baixa')
  if (baixa) throw new WriteOffAskedError(baixa.id)
  const extension = live.find((i) => i.instrucao === 'alteracao_vencimento' && i.estado !== 'confirmada')
  if (b.instrucao === 'alteracao_vencimento' && extension) throw new ExtensionPendingError(extension.id)
  if (b.instrucao === 'sustar_protesto' && charge.protestoDias === 0 && !live.some((i) => i.instrucao === 'protestar')) throw new NoProtestError()
}

/** The body's fields against the instruction and the charge: every item. */
export function instructionItems(b: InstrucaoInT, charge: ChargeToInstruct, earlier: readonly Instruction[], today: string): ValidationItem[] {
  const items: ValidationItem[] = []
  const needs = { alteracao_vencimento: 'vencimento', abatimento: 'abatimento_centavos' } as Record<string, string | undefined>
  for (const field of ['vencimento', 'abatimento_centavos'] as const) {
    const given = b[field] !== undefined
    if (needs[b.instrucao] === field && !given) items.push({ type: 'missing', loc: ['body', field], msg: 'Field required', input: null })
    if (needs[b.instrucao] !== field && given) {
      items.push({ type: 'extra_forbidden', loc: ['body', field], input: b[field], msg: `Extra inputs are not permitted (only with ${field === 'vencimento'
        ? 'alteracao_vencimento' : 'abatimento'})` })
    }
  }
  if (b.instrucao === 'alteracao_vencimento' && b.vencimento !== undefined) {
    const ultimo = addDays(charge.vencimento, PRORROGACAO_MAXIMA_DIAS)
    if (!isCalendarDay(b.vencimento)) {
      items.push({ type: 'date_parsing', loc: ['body', 'vencimento'], input: b.vencimento, msg: 'Input should be a valid date in the format YYYY-MM-DD' })
    } else if (b.vencimento <= today || b.vencimento <= charge.vencimento) {
      // A prorrogação extends: an earlier due date would charge no IOF and undo the deságio's term (red team).
      const after = today > charge.vencimento ? today : charge.vencimento
      items.push({ type: 'greater_than', loc: ['body', 'vencimento'], input: b.vencimento, ctx: { gt: after },
        msg: `Input should be greater than ${after} (o novo vencimento é depois de hoje e do vencimento atual)` })
    } else if (b.vencimento > ultimo) {
      items.push({ type: 'less_than_equal', loc: ['body', 'vencimento'], input: b.vencimento, ctx: { le: ultimo },
        msg: `Input should be less than or equal to ${ultimo} (no máximo ${PRORROGACAO_MAXIMA_DIAS} dias depois do vencimento da cobrança)` })
    }
  }
  if (b.instrucao === 'abatimento' && b.abatimento_centavos !== undefined) {
    const asked = earlier.filter((i) => i.estado !== 'rejeitada' && i.abatimentoCentavos !== null).reduce((s, i) => s + i.abatimentoCentavos!, 0)
    const room = charge.valorCentavos - asked
    if (b.abatimento_centavos >= room) {
      items.push({ type: 'less_than', loc: ['body', 'abatimento_centavos'], input: b.abatimento_centavos, ctx: { lt: room },
        msg: `Input should be less than ${room} (o valor cobrado${asked ? `, menos os abatimentos já pedidos (${asked})` : ''})` })
    }
  }
  return items
}

// The fator de vencimento (produto.md §3; FEBRABAN's Carta-Circular on the factor's reset): the days from the base
// 1997-10-07 to the due date, in four digits. The count reached 9999 on 2025-02-21; from 2025-02-22 it starts again
// at 1000, and every 9000 days after (9999 again on 2049-10-13, then 1000). A factor therefore names a day only
// within a window: reading one back needs a day near which the charge is due (the day the file is read).
import { addDays, dayNumber } from '../../calendar/index.ts'

const BASE = dayNumber('1997-10-07')!
const CYCLE = 9000

/** The factor of a due date on or after 2000-07-03 (the first day whose count reached 1000); other days have none. */
export function fatorVencimento(vencimento: string): number {
  const day = dayNumber(vencimento)
  if (day === undefined) throw new RangeError(`not a day: ${vencimento}`)
  const n = day - BASE
  if (n < 1000) throw new RangeError(`${vencimento} is before the first day a fator de vencimento names (2000-07-03)`)
  return ((n - 1000) % CYCLE) + 1000
}

/**
 * The due date a factor names nearest `near` (a `YYYY-MM-DD`): of the days with that factor, the one closest to it.
 * A bank's retorno or a typed linha digitável carries only the factor; the day read is within 4,500 days of `near`.
 */
export function vencimentoDoFator(fator: number, near: string): string {
  if (!Number.isInteger(fator) || fator < 1000 || fator > 9999) throw new RangeError(`not a fator de vencimento: ${fator}`)
  const nearDay = dayNumber(near)
  if (nearDay === undefined) throw new RangeError(`not a day: ${near}`)
  const first = BASE + fator
  const k = Math.round((nearDay - first) / CYCLE)
  const days = first + Math.max(0, k) * CYCLE
  return addDays('1970-01-01', days)
}

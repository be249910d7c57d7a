// The customer's own holidays at a sacado's place (its municipality or its state), as the set the business-day
// functions take beside the national ones they know: what moves a due date at that place. One rule for the
// prorrogação's business days and the buy-back's default and late charges.
import type { HolidaySet, OwnHoliday } from '../calendar/index.ts'
import { holidayAppliesTo } from '../operations/index.ts'

export type Lugar = { municipioIbge: string | null, uf: string | null }

export const feriadosDoLugar = (own: readonly OwnHoliday[], lugar: Lugar): HolidaySet =>
  new Set(own.filter((h) => holidayAppliesTo(h, lugar)).map((h) => h.data))

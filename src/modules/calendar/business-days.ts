// Business days of a sacado: not a Saturday or Sunday, not a national bank holiday, not one of the customer's own
// holidays for the sacado's municipality or state (produto.md §2.3).
import { BoundedMemo } from '../../platform/lib/bounded-memo.ts'
import { addDays, isWeekend } from './civil-date.ts'
import { nationalHolidays, type Holiday } from './national-holidays.ts'

/** Dates (`YYYY-MM-DD`) that are holidays for one place, beyond the national ones: the customer's own. */
export type HolidaySet = ReadonlySet<string>

const nationalCache = new BoundedMemo<ReadonlySet<string>>(400)

function nationalDates(year: number): ReadonlySet<string> {
  return nationalCache.get(String(year), () => new Set(nationalHolidays(year).map((h) => h.data)))
}

export function isNationalHoliday(date: string): boolean {
  return nationalDates(Number(date.slice(0, 4))).has(date)
}

export function isBusinessDay(date: string, local: HolidaySet = new Set()): boolean {
  return !isWeekend(date) && !isNationalHoliday(date) && !local.has(date)
}

/** The date itself when it is a business day, else the next one. */
export function nextBusinessDay(date: string, local: HolidaySet = new Set()): string {
  let d = date
  // A run of non-business days is at most a long weekend plus Carnaval and the customer's own days: bounded.
  while (!isBusinessDay(d, local)) d = addDays(d, 1)
  return d
}

/** The national holidays that fall between two dates, both included. */
export function nationalHolidaysBetween(from: string, to: string): Holiday[] {
  const out: Holiday[] = []
  for (let y = Number(from.slice(0, 4)); y <= Number(to.slice(0, 4)); y++) {
    for (const h of nationalHolidays(y)) if (h.data >= from && h.data <= to) out.push(h)
  }
  return out
}

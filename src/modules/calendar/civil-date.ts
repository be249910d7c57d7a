// Calendar days (`YYYY-MM-DD`, produto.md §1) as whole day numbers, so date arithmetic is integer arithmetic and no
// time zone or daylight-saving rule can move a day. Day 0 is 1970-01-01.

const DAY_MS = 86_400_000
const SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/

/** The day number of a `YYYY-MM-DD` that names a real day, or undefined (2026-02-30 is not one). */
export function dayNumber(date: string): number | undefined {
  const m = SHAPE.exec(date)
  if (!m) return undefined
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const ms = Date.UTC(y, mo - 1, d)
  const back = new Date(ms)
  // Date.UTC maps years 0–99 to 1900–1999 and rolls day 31 of a short month over: both are refused here.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined
  return ms / DAY_MS
}

/** The day number of a date already known to be valid (from the database or the code itself). */
export function dayOf(date: string): number {
  const n = dayNumber(date)
  if (n === undefined) throw new RangeError(`not a calendar day: ${JSON.stringify(date)}`)
  return n
}

export const dateOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10)

export const addDays = (date: string, days: number): string => dateOf(dayOf(date) + days)

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => dayOf(to) - dayOf(from)

/** 0 = Sunday … 6 = Saturday. */
export const weekday = (date: string): number => (dayOf(date) + 4) % 7 // 1970-01-01 was a Thursday

export const isWeekend = (date: string): boolean => {
  const w = weekday(date)
  return w === 0 || w === 6
}

// Calendar days (`YYYY-MM-DD`, produto.md §1) as whole day numbers, so date arithmetic is integer arithmetic and no
// time zone or daylight-saving rule can move a day. Day 0 is 1970-01-01.

const DAY_MS = 86_400_000
const DASH = 45
const ZERO = 48

/** Two or four ASCII digits of `s` from `at` as a number, or NaN. */
function digits(s: string, at: number, count: number): number {
  let n = 0
  for (let k = at; k < at + count; k++) {
    const c = s.charCodeAt(k) - ZERO
    if (c < 0 || c > 9) return NaN
    n = n * 10 + c
  }
  return n
}

const isLeap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/**
 * The day number of a `YYYY-MM-DD` that names a real day, or undefined (2026-02-30 is not one; nor is a year below
 * 100, which JavaScript's Date would read as 19xx). Integer arithmetic on the proleptic Gregorian calendar (the
 * days-from-civil algorithm Howard Hinnant published): a quote of a thousand títulos asks it thousands of times.
 */
export function dayNumber(date: string): number | undefined {
  if (date.length !== 10 || date.charCodeAt(4) !== DASH || date.charCodeAt(7) !== DASH) return undefined
  const y = digits(date, 0, 4)
  const m = digits(date, 5, 2)
  const d = digits(date, 8, 2)
  if (!(y >= 100) || !(m >= 1 && m <= 12) || !(d >= 1 && d <= (m === 2 && isLeap(y) ? 29 : MONTH_DAYS[m - 1]!))) return undefined
  const yy = m <= 2 ? y - 1 : y
  const era = Math.floor(yy / 400)
  const yoe = yy - era * 400
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146_097 + doe - 719_468
}

/** The day number of a date already known to be valid (from the database or the code itself). */
export function dayOf(date: string): number {
  const n = dayNumber(date)
  if (n === undefined) throw new RangeError(`not a calendar day: ${JSON.stringify(date)}`)
  return n
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`)

/** The `YYYY-MM-DD` of a day number (the inverse algorithm); years outside 100–9999 through Date, as JavaScript writes them. */
export function dateOf(day: number): string {
  const z = day + 719_468
  const era = Math.floor(z / 146_097)
  const doe = z - era * 146_097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1
  const m = mp < 10 ? mp + 3 : mp - 9
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0)
  if (y < 100 || y > 9999 || !Number.isInteger(day)) return new Date(day * DAY_MS).toISOString().slice(0, 10)
  return `${y < 1000 ? String(y).padStart(4, '0') : y}-${pad2(m)}-${pad2(d)}`
}

export const addDays = (date: string, days: number): string => dateOf(dayOf(date) + days)

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => dayOf(to) - dayOf(from)

/** 0 = Sunday … 6 = Saturday. */
export const weekday = (date: string): number => (dayOf(date) + 4) % 7 // 1970-01-01 was a Thursday

export const isWeekend = (date: string): boolean => {
  const w = weekday(date)
  return w === 0 || w === 6
}

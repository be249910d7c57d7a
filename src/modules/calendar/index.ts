// The calendar module's public entry: what other modules and the composition (app.ts, cli/) may use of it.
export { nationalHolidaysBetween, nextBusinessDay } from './business-days.ts'
export type { HolidaySet } from './business-days.ts'
export { daysBetween } from './civil-date.ts'
export type { Holiday } from './national-holidays.ts'

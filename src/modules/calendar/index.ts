// The calendar module's public entry: what other modules and the composition (app.ts, cli/) may use of it.
export { nationalHolidaysBetween, nextBusinessDay } from './business-days.ts'
export type { HolidaySet } from './business-days.ts'
export { addDays, dayNumber, daysBetween } from './civil-date.ts'
export type { Holiday } from './national-holidays.ts'
export { calendarModule } from './module.ts'
export { ownHolidays, ownHolidaysRead } from './own/store.ts'
export type { OwnHoliday } from './own/store.ts'
export { ufOfMunicipio } from './own/places.ts'

// Instants in Brasília time, for every reader that shows one: the site's pages and their browser code, the
// contact e-mail, the operator CLI. No Node module here: the site's browser bundle includes this file.
const TIME_ZONE = 'America/Sao_Paulo'

export const TIME_ZONE_NOTE = 'horário de Brasília'

// Built on first use: constructing an Intl formatter costs far more than formatting with one.
let labelFormat: Intl.DateTimeFormat | undefined
let offsetFormat: Intl.DateTimeFormat | undefined
let dayFormat: Intl.DateTimeFormat | undefined

/** For people, e.g. "21/11/2026, 15:47:30"; a string that is no instant is shown as it is. */
export function instantLabel(instant: Date | string): string {
  const d = typeof instant === 'string' ? new Date(instant) : instant
  if (Number.isNaN(d.getTime())) return String(instant)
  labelFormat ??= new Intl.DateTimeFormat('pt-BR', { timeZone: TIME_ZONE, dateStyle: 'short', timeStyle: 'medium' })
  return labelFormat.format(d)
}

/** For the operator CLI, sortable and with its offset: "2026-12-01 02:00 (-03:00)". */
export function instantWithOffset(d: Date): string {
  offsetFormat ??= new Intl.DateTimeFormat('en-US', {
    timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'longOffset',
  })
  const p = Object.fromEntries(offsetFormat.formatToParts(d).map((x) => [x.type, x.value]))
  const offset = p.timeZoneName === 'GMT' ? '+00:00' : String(p.timeZoneName).replace('GMT', '')
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} (${offset})`
}

/** The calendar day (`YYYY-MM-DD`) an instant falls on in Brasília: the product's `data_*` fields are such days. */
export function brasiliaDay(d: Date): string {
  dayFormat ??= new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' })
  return dayFormat.format(d)
}

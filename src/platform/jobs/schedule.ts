// When a job is due. A schedule is either a period (the retention passes) or a time of day in Brasília (the
// daily accruals to come): each gives, from a run's start, the first instant the next run is due.
import { brasiliaDay, instantWithOffset, TIME_ZONE_NOTE } from '../lib/brasilia-time.ts'

export type Schedule =
  /** Due `everyMs` after the last run started. */
  | { everyMs: number }
  /** Due at `HH:MM` Brasília time each day; a run missed (no instance up then) happens once, when one is. */
  | { dailyAt: string }

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/
const DAY_MS = 86_400_000

/** Throws on a schedule that could never be due, so a wrong one stops the start instead of never running. */
export function checkSchedule(schedule: Schedule): void {
  if ('everyMs' in schedule) {
    const ms = schedule.everyMs
    if (!Number.isSafeInteger(ms) || ms < 1000) throw new RangeError(`a job's period must be a whole number of ms, at least 1000, not ${ms}`)
  } else if (!HH_MM.test(schedule.dailyAt)) {
    throw new RangeError(`a daily job's time must be HH:MM, not "${schedule.dailyAt}"`)
  }
}

/** The first instant after a run that started at `lastStart` when the next is due. */
export function nextAfter(schedule: Schedule, lastStart: Date): Date {
  if ('everyMs' in schedule) return new Date(lastStart.getTime() + schedule.everyMs)
  const sameDay = brasiliaTime(brasiliaDay(lastStart), schedule.dailyAt)
  if (sameDay > lastStart) return sameDay
  return brasiliaTime(brasiliaDay(new Date(sameDay.getTime() + DAY_MS)), schedule.dailyAt)
}

/** For the operator: "every 6 h", "every 10 min", "daily at 03:00 (horário de Brasília)". */
export function scheduleLabel(schedule: Schedule): string {
  if ('dailyAt' in schedule) return `daily at ${schedule.dailyAt} (${TIME_ZONE_NOTE})`
  const ms = schedule.everyMs
  if (ms % 3_600_000 === 0) return `every ${ms / 3_600_000} h`
  if (ms % 60_000 === 0) return `every ${ms / 60_000} min`
  return `every ${ms / 1000} s`
}

/** The instant that is `hhmm` on `day` (YYYY-MM-DD) in Brasília, with the offset that applied that day. */
function brasiliaTime(day: string, hhmm: string): Date {
  // Brasília has kept -03:00 since 2019; the offset is still read for the day, as the time zone database has it.
  const guess = new Date(`${day}T${hhmm}:00-03:00`)
  const offset = /\(([+-]\d\d:\d\d)\)$/.exec(instantWithOffset(guess))?.[1] ?? '-03:00'
  return new Date(`${day}T${hhmm}:00${offset}`)
}

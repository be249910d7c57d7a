// What pydantic v2 answers for a value that fails one of our string formats, as it would for the matching Python
// type: `uuid` → UUID, `date` → date, `date-time` → AwareDatetime (our date-times must carry an offset). pydantic-core
// takes its reasons from the parsers it uses, the uuid crate (1.18) and speedate (0.17); the steps below follow
// theirs, in their order, so that the reason names the same fault at the same place (issue 31 item 17).

/** A 422 item's own part: the rest (loc, input) is the caller's. */
export type FormatVerdict = { type: string, msg: string, ctx?: Record<string, unknown> }

/** The item for a string refused by `format`, or undefined for a format pydantic has no type for. */
export function formatVerdict(format: string, value: string): FormatVerdict | undefined {
  if (format === 'uuid') return withReason('uuid_parsing', 'Input should be a valid UUID', uuidReason(value))
  if (format === 'date') return dateVerdict(Buffer.from(value))
  if (format === 'date-time') return dateTimeVerdict(Buffer.from(value))
  return undefined
}

/** The item for a value that is not a string where a string of `format` is expected. */
export function formatTypeVerdict(format: string, value: unknown): FormatVerdict | undefined {
  if (format === 'uuid') return { type: 'uuid_type', msg: 'UUID input should be a string, bytes or UUID object' }
  // pydantic takes a number for a date or a datetime as a Unix timestamp; its faults are answered as it does, and a
  // timestamp it would take is answered with the type item (we take strings only).
  const instant = typeof value === 'number' ? numberInstant(value) : undefined
  if (format === 'date') {
    if (typeof instant === 'string') return withReason('date_from_datetime_parsing', 'Input should be a valid date or datetime', instant)
    if (instant && !instant.midnight) return INEXACT
    return { type: 'date_type', msg: 'Input should be a valid date' }
  }
  if (format === 'date-time') {
    if (typeof instant === 'string') return withReason('datetime_parsing', 'Input should be a valid datetime', instant)
    return { type: 'datetime_type', msg: 'Input should be a valid datetime' }
  }
  return undefined
}

const withReason = (type: string, words: string, error: string): FormatVerdict => ({ type, msg: `${words}, ${error}`, ctx: { error } })

const INEXACT: FormatVerdict = { type: 'date_from_datetime_inexact', msg: 'Datetimes provided to dates should have zero time - e.g. be exact dates' }
const NAIVE: FormatVerdict = { type: 'timezone_aware', msg: 'Input should have timezone info' }

/**
 * pydantic's `date`: the string as a date (or a Unix timestamp of an exact day); failing that, as a datetime, whose
 * fault is the item's, or which must be at midnight.
 */
function dateVerdict(b: Buffer): FormatVerdict {
  if (typeof parseDay(b) === 'string') {
    const instant = parseInstant(b)
    if (typeof instant === 'string') return withReason('date_from_datetime_parsing', 'Input should be a valid date or datetime', instant)
    if (!instant.midnight) return INEXACT
  }
  // pydantic would take it (a timestamp, a datetime at midnight); we take YYYY-MM-DD only, and say so in pydantic's
  // words for a date that is not in that form.
  const strict = parseDayRfc3339(b)
  return withReason('date_parsing', 'Input should be a valid date in the format YYYY-MM-DD', typeof strict === 'string' ? strict : R.extra)
}

/** pydantic's `datetime`: the string as a datetime; failing that, as a date, whose fault is the item's. Then the offset. */
function dateTimeVerdict(b: Buffer): FormatVerdict {
  const instant = parseInstant(b)
  if (typeof instant === 'string') {
    const day = parseDay(b)
    // A bare date is midnight with no offset to pydantic.
    return typeof day === 'string' ? withReason('datetime_from_date_parsing', 'Input should be a valid datetime or date', day) : NAIVE
  }
  if (!instant.aware) return NAIVE
  // pydantic would take it (a Unix timestamp, `_` between date and time, no seconds); we take RFC 3339 only.
  return withReason('datetime_parsing', 'Input should be a valid datetime', 'expected an RFC 3339 date-time such as 2026-10-05T14:00:00Z')
}

// ---- The uuid crate's reason (`InvalidUuid::into_err`, uuid 1.18) ----

const CHAR = (c: string, at: number) => `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${c}\` at ${at}`
const GROUP_STARTS = [0, 9, 14, 19, 24]
const GROUP_LENGTHS = [8, 4, 4, 4, 12]

function uuidReason(s: string): string {
  let body = s
  let offset = 0
  if (s.length >= 2 && s.startsWith('{') && s.endsWith('}')) [body, offset] = [s.slice(1, -1), 1]
  else if (s.startsWith('urn:uuid:')) [body, offset] = [s.slice(9), 9]
  const hyphens: number[] = []
  let at = 0 // in UTF-8 bytes, as the crate counts
  for (const c of body) {
    if (c === '-') hyphens.push(at)
    else if (!/^[0-9a-fA-F]$/.test(c)) return CHAR(c, at + offset + 1)
    at += Buffer.byteLength(c)
  }
  const length = Buffer.byteLength(s)
  const groupsRight = hyphens.length === 4 && hyphens.every((h, i) => h === GROUP_STARTS[i + 1]! - 1)
  // Forms the crate takes and Ajv's `uuid` does not (32 digits, braces): the reason is where the hyphenated form breaks.
  if (offset === 1 && groupsRight && length === 38) return CHAR('{', 1)
  if (hyphens.length === 0 && offset === 0) {
    return length === 32 ? 'invalid group count: expected 5, found 1' : `invalid length: expected length 32 for simple format, found ${length}`
  }
  if (hyphens.length !== 4) return `invalid group count: expected 5, found ${hyphens.length + 1}`
  const wrong = hyphens.findIndex((h, i) => h !== GROUP_STARTS[i + 1]! - 1)
  if (wrong >= 0) return `invalid group length in group ${wrong}: expected ${GROUP_LENGTHS[wrong]}, found ${hyphens[wrong]! - GROUP_STARTS[wrong]!}`
  // As the crate does, the last group's length is counted on the whole input (a prefix or braces included).
  return `invalid group length in group 4: expected 12, found ${length - 24}`
}

// ---- speedate's reasons (its ParseError's documentation, the text pydantic shows) ----

const R = {
  tooShort: 'input is too short',
  extra: 'unexpected extra characters at the end of the input',
  dateTimeSep: 'invalid datetime separator, expected `T`, `t`, `_` or space',
  dateSep: 'invalid date separator, expected `-`',
  notExact: 'Timestamp is not an exact date',
  year: 'invalid character in year',
  month: 'invalid character in month',
  day: 'invalid character in day',
  timeSep: 'invalid time separator, expected `:`',
  hour: 'invalid character in hour',
  minute: 'invalid character in minute',
  second: 'invalid character in second',
  tzSign: 'invalid timezone sign',
  tzHour: 'invalid timezone hour',
  tzMinute: 'invalid timezone minute',
  tzMinuteRange: 'timezone minute value is outside expected range of 0-59',
  tzRange: 'timezone offset must be less than 24 hours',
  monthRange: 'month value is outside expected range of 1-12',
  dayRange: 'day value is outside expected range',
  hourRange: 'hour value is outside expected range of 0-23',
  minuteRange: 'minute value is outside expected range of 0-59',
  secondRange: 'second value is outside expected range of 0-59',
  fractionMissing: 'second fraction digits missing after `.`',
  tooSmall: 'dates before 0000 are not supported as unix timestamps',
  tooLarge: 'dates after 9999 are not supported as unix timestamps',
} as const

/** A parsed datetime, as far as the verdicts need it; a string is speedate's reason for refusing. */
type Instant = { midnight: boolean, aware: boolean }

const digit = (b: Buffer, i: number): number => (b[i] !== undefined && b[i]! >= 0x30 && b[i]! <= 0x39 ? b[i]! - 0x30 : -1)

function number(b: Buffer, from: number, count: number, fault: string): number | string {
  let n = 0
  for (let i = from; i < from + count; i++) {
    const d = digit(b, i)
    if (d < 0) return fault
    n = n * 10 + d
  }
  return n
}

/** `Date::parse_bytes_partial`: YYYY-MM-DD at the start, a real day. */
function parseDayPartial(b: Buffer): string | undefined {
  if (b.length < 10) return R.tooShort
  const year = number(b, 0, 4, R.year)
  if (typeof year === 'string') return year
  if (b[4] !== 0x2d) return R.dateSep
  const month = number(b, 5, 2, R.month)
  if (typeof month === 'string') return month
  if (b[7] !== 0x2d) return R.dateSep
  const day = number(b, 8, 2, R.day)
  if (typeof day === 'string') return day
  if (month < 1 || month > 12) return R.monthRange
  const leap = year % 100 === 0 ? year % 400 === 0 : year % 4 === 0
  const last = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31
  return day < 1 || day > last ? R.dayRange : undefined
}

function parseDayRfc3339(b: Buffer): string | undefined {
  return parseDayPartial(b) ?? (b.length > 10 ? R.extra : undefined)
}

/** `Date::parse_bytes`: YYYY-MM-DD, or an integer Unix timestamp of an exact day. */
function parseDay(b: Buffer): string | undefined {
  const fault = parseDayRfc3339(b)
  if (fault === undefined) return undefined
  const n = numeral(b)
  if (typeof n !== 'bigint') return fault
  const at = splitTimestamp(n)
  if (typeof at === 'string') return at
  const outside = outsideYears(at.seconds)
  if (outside) return outside
  return mod(at.seconds, 86_400n) !== 0n || at.micros !== 0 ? R.notExact : undefined
}

/** `DateTime::parse_bytes`: RFC 3339-like date and time, or a Unix timestamp (integer or decimal). */
function parseInstant(b: Buffer): Instant | string {
  const fault = parseDayPartial(b)
  const parsed = fault ?? parseTime(b)
  if (typeof parsed !== 'string') return parsed
  const n = numeral(b)
  if (typeof n === 'bigint') return timestampInstant(n, 0)
  if (typeof n === 'number') return numberInstant(n)
  return parsed
}

/** `Time::parse_bytes_offset` after the date: the separator, HH:MM[:SS[.f]], then Z or an offset, then nothing. */
function parseTime(b: Buffer): Instant | string {
  if (![0x54, 0x74, 0x20, 0x5f].includes(b[10] ?? -1)) return R.dateTimeSep
  const o = 11
  if (b.length - o < 5) return R.tooShort
  const hour = number(b, o, 2, R.hour)
  if (typeof hour === 'string') return hour
  if (b[o + 2] !== 0x3a) return R.timeSep
  const minute = number(b, o + 3, 2, R.minute)
  if (typeof minute === 'string') return minute
  if (hour > 23) return R.hourRange
  if (minute > 59) return R.minuteRange
  let at = o + 5
  let second = 0
  let micros = 0
  if (b[at] === 0x3a) {
    const s = number(b, at + 1, 2, R.second)
    if (typeof s === 'string') return s
    if (s > 59) return R.secondRange
    second = s
    at += 3
    if (b[at] === 0x2e || b[at] === 0x2c) {
      at += 1
      const start = at
      while (digit(b, at) >= 0) {
        if (at - start < 6) micros = micros * 10 + digit(b, at)
        at += 1
      }
      if (at === start) return R.fractionMissing
    }
  }
  let aware = false
  if (at < b.length) {
    aware = true
    const sign = b[at]!
    at += 1
    if (sign === 0xe2) {
      // U+2212 MINUS SIGN, which ISO 8601 allows before an offset.
      if (b[at] !== 0x88 || b[at + 1] !== 0x92) return R.tzSign
      at += 2
    } else if (sign !== 0x5a && sign !== 0x7a && sign !== 0x2b && sign !== 0x2d) {
      return R.tzSign
    }
    if (sign !== 0x5a && sign !== 0x7a) {
      const hours = number(b, at, 2, R.tzHour)
      if (typeof hours === 'string') return hours
      if (b[at + 2] === 0x3a) at += 3
      else if (digit(b, at + 2) >= 0) at += 2
      else return R.tzMinute
      const minutes = number(b, at, 2, R.tzMinute)
      if (typeof minutes === 'string') return minutes
      if (minutes >= 60) return R.tzMinuteRange
      if (hours * 3600 + minutes * 60 >= 86_400) return R.tzRange
      at += 2
    }
  }
  if (b.length > at) return R.extra
  return { midnight: hour === 0 && minute === 0 && second === 0 && micros === 0, aware }
}

const I64_MAX = 2n ** 63n - 1n
const I64_MIN = -(2n ** 63n)

/** speedate's number reading: an integer (bigint, as i64), a decimal (when the integer stops at a `.`), or neither. */
function numeral(b: Buffer): bigint | number | undefined {
  const s = b.toString('latin1')
  // speedate's integer stops at i64's magnitude on either side (so i64's minimum itself is not read).
  const int = /^[+-]?[0-9]+$/.test(s) ? BigInt(s) : undefined
  if (int !== undefined) return int >= -I64_MAX && int <= I64_MAX ? int : undefined
  // Approximates lexical's float grammar: digits with one `.`, an optional exponent.
  return /^[+-]?[0-9]*\.[0-9]*([eE][+-]?[0-9]+)?$/.test(s) && /[0-9]/.test(s.split(/[eE]/)[0]!) ? Number(s) : undefined
}

/** A JSON number as speedate reads a timestamp: whole ones as integers, others as seconds (or ms) with a fraction. */
function numberInstant(n: number): Instant | string {
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return timestampInstant(BigInt(n), 0)
  const normalized = Math.abs(n) > 20_000_000_000 ? n / 1000 : n
  const seconds = Math.floor(normalized)
  const clamp = (x: number) => (Number.isNaN(x) ? 0n : x >= 2 ** 63 ? I64_MAX : x < -(2 ** 63) ? I64_MIN : BigInt(x))
  return timestampInstant(clamp(seconds), Math.round((normalized - seconds) * 1_000_000))
}

/** Seconds or milliseconds, inferred as speedate does (above 2e10 in absolute value, milliseconds). */
function splitTimestamp(ts: bigint): { seconds: bigint, micros: number } | string {
  if (ts === I64_MIN) return R.tooSmall
  if ((ts < 0n ? -ts : ts) <= 20_000_000_000n) return { seconds: ts, micros: 0 }
  let seconds = ts / 1000n
  let micros = Number(ts % 1000n) * 1000
  if (micros < 0) [seconds, micros] = [seconds - 1n, micros + 1_000_000]
  return { seconds, micros }
}

function timestampInstant(ts: bigint, extraMicros: number): Instant | string {
  const at = splitTimestamp(ts)
  if (typeof at === 'string') return at
  let { seconds, micros } = at
  micros += extraMicros
  if (micros >= 1_000_000) [seconds, micros] = [seconds + BigInt(Math.floor(micros / 1_000_000)), micros % 1_000_000]
  const outside = outsideYears(seconds)
  if (outside) return outside
  // A timestamp is UTC to pydantic (speedate's unix_timestamp_offset 0).
  return { midnight: mod(seconds, 86_400n) === 0n && micros === 0, aware: true }
}

/** speedate reads timestamps from 0000-01-01 to 9999-12-31T23:59:59. */
function outsideYears(seconds: bigint): string | undefined {
  if (seconds < -62_167_219_200n) return R.tooSmall
  if (seconds > 253_402_300_799n) return R.tooLarge
  return undefined
}

const mod = (a: bigint, m: bigint) => ((a % m) + m) % m

// National bank holidays (the ANBIMA calendar), computed from the rule, never typed in (produto.md §2.3).
import { BoundedMemo } from '../../platform/lib/bounded-memo.ts'
import { addDays } from './civil-date.ts'

export type Holiday = { data: string, descricao: string }

const pad = (n: number): string => String(n).padStart(2, '0')

/** Easter Sunday of a Gregorian year (the anonymous algorithm published by Meeus, after Butcher). */
export function easter(year: number): string {
  const a = year % 19
  const b = Math.floor(year / 100)
  const c = year % 100
  const d = Math.floor(b / 4)
  const e = b % 4
  const f = Math.floor((b + 8) / 25)
  const g = Math.floor((b - f + 1) / 3)
  const h = (19 * a + b - d - g + 15) % 30
  const i = Math.floor(c / 4)
  const k = c % 4
  const l = (32 + 2 * e + 2 * i - h - k) % 7
  const m = Math.floor((a + 11 * h + 22 * l) / 451)
  const month = Math.floor((h + l - 7 * m + 114) / 31)
  const day = ((h + l - 7 * m + 114) % 31) + 1
  return `${year}-${pad(month)}-${pad(day)}`
}

const FIXED: ReadonlyArray<[string, string, number?]> = [
  ['01-01', 'Confraternização Universal'],
  ['04-21', 'Tiradentes'],
  ['05-01', 'Dia do Trabalho'],
  ['09-07', 'Independência do Brasil'],
  ['10-12', 'Nossa Senhora Aparecida'],
  ['11-02', 'Finados'],
  ['11-15', 'Proclamação da República'],
  // Lei 14.759/2023 made it a national holiday from 2024 on.
  ['11-20', 'Dia Nacional de Zumbi e da Consciência Negra', 2024],
  ['12-25', 'Natal'],
]

const MOVABLE: ReadonlyArray<[number, string]> = [
  [-48, 'Carnaval'],
  [-47, 'Carnaval'],
  [-2, 'Sexta-feira da Paixão'],
  [60, 'Corpus Christi'],
]

/** A few centuries of years; any year a request names may be asked for, so the memo is bounded. */
const byYear = new BoundedMemo<readonly Holiday[]>(400)

/** The national bank holidays of a year, in date order (computed once a year: a quote asks for them per moved due date). */
export function nationalHolidays(year: number): readonly Holiday[] {
  return byYear.get(String(year), () => Object.freeze(computed(year).map((h) => Object.freeze(h))))
}

function computed(year: number): Holiday[] {
  const e = easter(year)
  const days: Holiday[] = [
    ...FIXED.filter(([, , from]) => from === undefined || year >= from).map(([md, descricao]) => ({ data: `${year}-${md}`, descricao })),
    ...MOVABLE.map(([offset, descricao]) => ({ data: addDays(e, offset), descricao })),
  ]
  return days.sort((x, y) => (x.data < y.data ? -1 : x.data > y.data ? 1 : 0))
}

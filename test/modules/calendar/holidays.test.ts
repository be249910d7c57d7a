// National bank holidays against the spec's published 2026 list and, for 2001–2099, against date-holidays (an
// independent implementation from the npm registry, used only here).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import Holidays from 'date-holidays'
import { dateOf, dayNumber, daysBetween, weekday } from '../../../src/modules/calendar/civil-date.ts'
import { isBusinessDay, nextBusinessDay } from '../../../src/modules/calendar/business-days.ts'
import { easter, nationalHolidays } from '../../../src/modules/calendar/national-holidays.ts'

describe('national bank holidays', () => {
  it('2026 is exactly the list of produto.md §2.3', () => {
    assert.deepEqual(nationalHolidays(2026).map((h) => h.data.slice(5)),
      ['01-01', '02-16', '02-17', '04-03', '04-21', '05-01', '06-04', '09-07', '10-12', '11-02', '11-15', '11-20', '12-25'])
  })

  it('every year 2001–2099 agrees with date-holidays (types public and bank, election Sundays left out)', () => {
    const br = new Holidays('BR')
    for (let year = 2001; year <= 2099; year++) {
      const theirs = br.getHolidays(year)
        .filter((h) => (h.type === 'public' || h.type === 'bank') && !/Eleição/.test(h.name))
        .map((h) => h.date.slice(0, 10))
      assert.deepEqual(nationalHolidays(year).map((h) => h.data), theirs, String(year))
    }
  })

  it('Easter on known Sundays (2008 early, 2038 late, 2026)', () => {
    assert.equal(easter(2008), '2008-03-23')
    assert.equal(easter(2038), '2038-04-25')
    assert.equal(easter(2026), '2026-04-05')
    for (let y = 1990; y < 2200; y++) assert.equal(weekday(easter(y)), 0, String(y))
  })
})

describe('business days', () => {
  it('a holiday Friday moves to Monday; a weekend to Monday; a business day stays', () => {
    assert.equal(nextBusinessDay('2026-11-20'), '2026-11-23')
    assert.equal(nextBusinessDay('2026-11-21'), '2026-11-23')
    assert.equal(nextBusinessDay('2026-11-04'), '2026-11-04')
    assert.equal(nextBusinessDay('2026-02-14'), '2026-02-18') // Carnaval: Saturday to Ash Wednesday
  })

  it("the customer's own holidays for the place count too, and chain with national ones", () => {
    const local = new Set(['2026-11-23'])
    assert.equal(nextBusinessDay('2026-11-20', local), '2026-11-24')
    assert.equal(isBusinessDay('2026-11-23', local), false)
    assert.equal(isBusinessDay('2026-11-23'), true)
  })
})

describe('calendar days', () => {
  it('refuses dates that do not exist, accepts leap days, counts across years', () => {
    for (const bad of ['2026-02-29', '2026-13-01', '2026-00-10', '0099-01-01', '2026-1-01', '2026-04-31', '']) {
      assert.equal(dayNumber(bad), undefined, bad)
    }
    assert.notEqual(dayNumber('2028-02-29'), undefined)
    assert.equal(daysBetween('2026-10-05', '2026-11-23'), 49)
    assert.equal(daysBetween('2026-12-31', '2027-01-01'), 1)
  })

  // Recomputed by another method: JavaScript's Date, which the arithmetic replaced for speed.
  it('every day from 0100 to 9999 has the day number and the date Date gives it, both ways', () => {
    const DAY = 86_400_000
    for (let day = Date.UTC(100, 0, 1) / DAY, last = Date.UTC(9999, 11, 31) / DAY; day <= last; day++) {
      const iso = new Date(day * DAY).toISOString().slice(0, 10)
      if (dateOf(day) !== iso || dayNumber(iso) !== day) assert.fail(`day ${day}: ${dateOf(day)} / ${dayNumber(iso)} against ${iso}`)
    }
    assert.equal(dateOf(dayNumber('0100-01-01')! - 1), '0099-12-31')
  })

  it('refuses every malformed shape: signs, spaces, letters, full-width digits, a day past its month', () => {
    for (const bad of ['2026-02-3a', '+026-02-03', '2026-02-0 ', ' 2026-02-03', '2026/02/03', '２０２６-02-03', '2026-02-03T', '2100-02-29', '1900-02-29',
      '2026-06-31', '2026-09-31', '2026-11-31', '9999-12-32']) {
      assert.equal(dayNumber(bad), undefined, bad)
    }
    assert.notEqual(dayNumber('2000-02-29'), undefined)
    assert.equal(dayNumber('1970-01-01'), 0)
    assert.equal(dayNumber('0100-03-01'), Date.UTC(100, 2, 1) / 86_400_000)
  })
})

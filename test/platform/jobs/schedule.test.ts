import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { nextAfter, scheduleLabel } from '../../../src/platform/jobs/schedule.ts'

const next = (schedule: Parameters<typeof nextAfter>[0], iso: string) => nextAfter(schedule, new Date(iso)).toISOString()

describe('job schedules', () => {
  it('a period: due that long after the last start', () => {
    assert.equal(next({ everyMs: 600_000 }, '2026-11-26T12:00:00Z'), '2026-11-26T12:10:00.000Z')
  })

  it('a daily time in Brasília: the first such time after the last start, with the offset of that day', () => {
    assert.equal(next({ dailyAt: '03:00' }, '2026-11-26T05:59:59Z'), '2026-11-26T06:00:00.000Z')
    assert.equal(next({ dailyAt: '03:00' }, '2026-11-26T06:00:00Z'), '2026-11-27T06:00:00.000Z')
    assert.equal(next({ dailyAt: '23:30' }, '2026-12-31T12:00:00Z'), '2027-01-01T02:30:00.000Z', 'the Brasília day, not the UTC one')
    // Summer time (until 2019): -02:00 from 4 November 2018.
    assert.equal(next({ dailyAt: '03:00' }, '2018-11-10T12:00:00Z'), '2018-11-11T05:00:00.000Z')
  })

  it('described for the operator', () => {
    assert.deepEqual([{ everyMs: 6 * 3_600_000 }, { everyMs: 600_000 }, { everyMs: 90_000 }, { dailyAt: '03:00' }].map(scheduleLabel),
      ['every 6 h', 'every 10 min', 'every 90 s', 'daily at 03:00 (horário de Brasília)'])
  })
})

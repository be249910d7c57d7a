// A value that fails a string format is answered as pydantic v2 answers for the matching Python type (issue 31 item
// 17): `uuid` as UUID (uuid_parsing, uuid_type), `date` as date (date_from_datetime_parsing, date_from_datetime_inexact,
// date_type), `date-time` as AwareDatetime (datetime_from_date_parsing, timezone_aware, datetime_type), each with the
// reason pydantic-core's parsers give, in `msg` and `ctx.error`. The texts below are pydantic-core's own (its tests).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Type } from 'typebox'
import { makeCheck } from '../../../src/platform/http/validation-errors.ts'
import { API_ENV } from '../../helpers/api-credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { backOffice, EXAMPLE_NOW, settableClock } from '../../modules/operations/helpers.ts'

const CHAR_N_AT_1 = 'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1'
const parsing = (type: string, words: string, loc: (string | number)[], input: string, error: string) =>
  ({ type, loc, msg: `${words}, ${error}`, input, ctx: { error } })
const uuidParsing = (loc: (string | number)[], input: string, error: string) => parsing('uuid_parsing', 'Input should be a valid UUID', loc, input, error)

describe('422 items for formats, as pydantic v2 gives them', () => {
  const check = makeCheck(Type.Object({
    id: Type.String({ format: 'uuid' }),
    dia: Type.String({ format: 'date' }),
    em: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  }))
  const GOOD = { id: '550e8400-e29b-41d4-a716-446655440000', dia: '2026-10-05', em: '2026-10-05T14:00:00Z' }
  const itemFor = (field: 'id' | 'dia' | 'em', value: unknown) => {
    const checked = check({ ...GOOD, [field]: value })
    assert.equal(checked.ok, false, `${field}: ${JSON.stringify(value)}`)
    const items = checked.ok ? [] : checked.errors
    assert.equal(items.length, 1, JSON.stringify(items))
    return items[0]
  }

  it('a valid body passes', () => assert.equal(check(GOOD).ok, true))

  it('a UUID: the uuid crate\'s reason, where it breaks; not a string: uuid_type', () => {
    const cases: [string, string][] = [
      ['not-a-valid-uuid', CHAR_N_AT_1],
      ['12345678-1234-5678-1234-5678123456789', 'invalid group length in group 4: expected 12, found 13'],
      ['550e8400-e29b-41d4-a716', 'invalid group count: expected 5, found 4'],
      ['f47ac10b-58cc-4372-a567-0e02b2c3d47', 'invalid group length in group 4: expected 12, found 11'],
      ['550e840-e29b-41d4-a716-446655440000', 'invalid group length in group 0: expected 8, found 7'],
      ['123', 'invalid length: expected length 32 for simple format, found 3'],
      // The crate counts UTF-8 bytes: `é` is two.
      ['550e8400-e29b-41d4-a716-4466554400é', 'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `é` at 35'],
    ]
    for (const [input, error] of cases) assert.deepEqual(itemFor('id', input), uuidParsing(['body', 'id'], input, error))
    assert.deepEqual(itemFor('id', 123), { type: 'uuid_type', loc: ['body', 'id'], msg: 'UUID input should be a string, bytes or UUID object', input: 123 })
  })

  it('a date: parsed as a date, then as a datetime, whose fault is the reason; a time other than midnight is inexact', () => {
    const dateOrDatetime = (input: string, error: string) =>
      parsing('date_from_datetime_parsing', 'Input should be a valid date or datetime', ['body', 'dia'], input, error)
    assert.deepEqual(itemFor('dia', '2026-13-01'), dateOrDatetime('2026-13-01', 'month value is outside expected range of 1-12'))
    assert.deepEqual(itemFor('dia', 'abc'), dateOrDatetime('abc', 'input is too short'))
    assert.deepEqual(itemFor('dia', '2026-02-30'), dateOrDatetime('2026-02-30', 'day value is outside expected range'))
    assert.deepEqual(itemFor('dia', '2026/10/05'), dateOrDatetime('2026/10/05', 'invalid date separator, expected `-`'))
    assert.deepEqual(itemFor('dia', '2026-10-05T25:00'), dateOrDatetime('2026-10-05T25:00', 'hour value is outside expected range of 0-23'))
    const inexact = { type: 'date_from_datetime_inexact', loc: ['body', 'dia'], msg: 'Datetimes provided to dates should have zero time - e.g. be exact dates' }
    assert.deepEqual(itemFor('dia', '2026-10-05T14:00:00'), { ...inexact, input: '2026-10-05T14:00:00' })
    // Digits are a Unix timestamp to pydantic: 20261005 seconds is in August 1970, not at midnight.
    assert.deepEqual(itemFor('dia', '20261005'), { ...inexact, input: '20261005' })
    assert.deepEqual(itemFor('dia', null), { type: 'date_type', loc: ['body', 'dia'], msg: 'Input should be a valid date', input: null })
  })

  it('a date pydantic would take and we do not (midnight, a timestamp): its words for a date not in YYYY-MM-DD', () => {
    assert.deepEqual(itemFor('dia', '2026-10-05T00:00:00'), parsing('date_parsing', 'Input should be a valid date in the format YYYY-MM-DD', ['body', 'dia'],
      '2026-10-05T00:00:00', 'unexpected extra characters at the end of the input'))
  })

  it('a date-time: parsed as a datetime, then as a date, whose fault is the reason; no offset is timezone_aware', () => {
    const datetimeOrDate = (input: string, error: string) =>
      parsing('datetime_from_date_parsing', 'Input should be a valid datetime or date', ['body', 'em'], input, error)
    const extra = 'unexpected extra characters at the end of the input'
    assert.deepEqual(itemFor('em', '2026-10-05T14:00:00+24:00'), datetimeOrDate('2026-10-05T14:00:00+24:00', extra))
    assert.deepEqual(itemFor('em', '2026-02-30T14:00:00Z'), datetimeOrDate('2026-02-30T14:00:00Z', 'day value is outside expected range'))
    assert.deepEqual(itemFor('em', 'ontem'), datetimeOrDate('ontem', 'input is too short'))
    const naive = { type: 'timezone_aware', loc: ['body', 'em'], msg: 'Input should have timezone info' }
    assert.deepEqual(itemFor('em', '2026-10-05T14:00:00'), { ...naive, input: '2026-10-05T14:00:00' })
    assert.deepEqual(itemFor('em', '2026-10-05'), { ...naive, input: '2026-10-05' })
    // One item for the nullable field, of the date-time's type.
    assert.deepEqual(itemFor('em', true), { type: 'datetime_type', loc: ['body', 'em'], msg: 'Input should be a valid datetime', input: true })
  })
})

describe('422 items for formats on the routes', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { ...API_ENV, MAIL_WORKER: 'off' }, deps: { clock } })

  it('a bad UUID in a body, in a query, and a date-time with no offset: each its pydantic item', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const produto = '550e8400-e29b-41d4-a716-446655440000'

    let res = await operador.call('POST', '/api/operacoes', { cedente_id: 'not-a-valid-uuid', produto_id: produto })
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(res.json(), { detail: [uuidParsing(['body', 'cedente_id'], 'not-a-valid-uuid', CHAR_N_AT_1)] })

    res = await operador.call('POST', '/api/operacoes', { cedente_id: 42, produto_id: produto })
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(res.json(), { detail: [{ type: 'uuid_type', loc: ['body', 'cedente_id'], msg: 'UUID input should be a string, bytes or UUID object',
      input: 42 }] })

    res = await operador.call('GET', '/api/operacoes?cedente_id=550e8400-e29b-41d4-a716')
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(res.json(), { detail: [uuidParsing(['querystring', 'cedente_id'], '550e8400-e29b-41d4-a716',
      'invalid group count: expected 5, found 4')] })

    const term = { termo_sha256: 'c'.repeat(64), signatarios: [{ nome: 'Sócia', documento: '111.444.777-35' }] }
    res = await operador.call('POST', `/api/operacoes/${produto}/formalizacao`, { ...term, assinado_em: '2026-10-05T14:00:00' })
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(res.json(), { detail: [{ type: 'timezone_aware', loc: ['body', 'assinado_em'], msg: 'Input should have timezone info',
      input: '2026-10-05T14:00:00' }] })
    res = await operador.call('POST', `/api/operacoes/${produto}/formalizacao`, { ...term, assinado_em: '2026-13-05T14:00:00Z' })
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(res.json(), { detail: [parsing('datetime_from_date_parsing', 'Input should be a valid datetime or date', ['body', 'assinado_em'],
      '2026-13-05T14:00:00Z', 'month value is outside expected range of 1-12')] })
  })
})

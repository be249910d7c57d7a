// The 422 items of a customer's route in FastAPI's shape (issue 31 item 17): an unknown field is extra_forbidden at
// its own place; bounds, patterns and literals say their limit in ctx as pydantic v2 does; one bad nullable field is one
// item, not one per branch of its union; an array's position in `loc` is a number; a megabyte is not echoed back.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Type } from 'typebox'
import { makeCheck } from '../../../src/platform/http/validation-errors.ts'

const SCHEMA = Type.Object({
  codigo: Type.String({ pattern: '^[A-Z]{2}$' }),
  dias: Type.Integer({ minimum: 0, maximum: 10 }),
  base: Type.String({ enum: ['simples_30', 'composta_30'] }),
  limite: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  itens: Type.Array(Type.Object({ nome: Type.String() }, { additionalProperties: false }), { minItems: 1, maxItems: 2 }),
  texto: Type.Optional(Type.String()),
}, { additionalProperties: false })
const check = makeCheck(SCHEMA)
const GOOD = { codigo: 'SP', dias: 2, base: 'simples_30', limite: null, itens: [{ nome: 'a' }] }
const itemsOf = (body: object) => {
  const checked = check(body)
  assert.equal(checked.ok, false)
  return checked.ok ? [] : checked.errors
}

describe('422 items as FastAPI answers them', () => {
  it('a valid body passes', () => assert.equal(check(GOOD).ok, true))

  it('an unknown field, also inside an array: extra_forbidden at its own loc, with its value (in the schema\'s order, unknown last)', () => {
    assert.deepEqual(itemsOf({ ...GOOD, extra: 1, itens: [{ nome: 'a', cor: 'azul' }] }), [
      { type: 'extra_forbidden', loc: ['body', 'itens', 0, 'cor'], msg: 'Extra inputs are not permitted', input: 'azul' },
      { type: 'extra_forbidden', loc: ['body', 'extra'], msg: 'Extra inputs are not permitted', input: 1 },
    ])
  })

  it('pattern, bounds and literals carry their limit in ctx', () => {
    const byField = Object.fromEntries(itemsOf({ ...GOOD, codigo: 'sp', dias: 11, base: 'x' }).map((i) => [i.loc[1], i]))
    assert.deepEqual(byField.codigo, { type: 'string_pattern_mismatch', loc: ['body', 'codigo'], msg: 'String should match pattern \'^[A-Z]{2}$\'',
      input: 'sp', ctx: { pattern: '^[A-Z]{2}$' } })
    assert.deepEqual(byField.dias, { type: 'less_than_equal', loc: ['body', 'dias'], msg: 'Input should be less than or equal to 10', input: 11,
      ctx: { le: 10 } })
    assert.deepEqual(byField.base, { type: 'literal_error', loc: ['body', 'base'], msg: 'Input should be \'simples_30\' or \'composta_30\'',
      input: 'x', ctx: { expected: '\'simples_30\' or \'composta_30\'' } })
    assert.deepEqual(itemsOf({ ...GOOD, dias: -1 })[0]!.ctx, { ge: 0 })
  })

  it('one bad nullable field is one item; too many list items say how many', () => {
    assert.deepEqual(itemsOf({ ...GOOD, limite: 0 }), [{ type: 'greater_than_equal', loc: ['body', 'limite'],
      msg: 'Input should be greater than or equal to 1', input: 0, ctx: { ge: 1 } }])
    assert.deepEqual(itemsOf({ ...GOOD, limite: 'x' }).map((i) => i.type), ['int_type'])
    assert.deepEqual(itemsOf({ ...GOOD, itens: [{ nome: 'a' }, { nome: 'b' }, { nome: 'c' }] }), [{ type: 'too_long', loc: ['body', 'itens'],
      msg: 'List should have at most 2 items after validation, not 3', input: [{ nome: 'a' }, { nome: 'b' }, { nome: 'c' }],
      ctx: { field_type: 'List', max_length: 2, actual_length: 3 } }])
  })

  it('a value of a megabyte is not echoed back whole', () => {
    const [item] = itemsOf({ ...GOOD, texto: 1, itens: Array.from({ length: 40_000 }, () => ({ nome: 'abcdefghijklmnopqrstuvwxyz' })) })
      .filter((i) => i.loc[1] === 'itens')
    assert.match(String(item!.input), /^\(\d+ characters, not echoed\)$/)
  })
})

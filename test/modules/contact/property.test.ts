// Property tests of POST /api/site/contato: any body gets a well-formed 202, 422 or 413, never a 5xx or a stack; JSON gets the 422 pydantic would give.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import type { LightMyRequestResponse as Response } from 'fastify'
import { contactBody } from '../../helpers/app.ts'
import { type Expected, expectedForText, expectedItems, type Field, FIELD_NAMES, FIELDS, type Item, PYTHON_JSON_ERRORS } from '../../helpers/contact-oracle.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { contactModule } from '../../../src/modules/contact/index.ts'

const RUNS = 200
const URL = '/api/site/contato'

// Arbitraries ------------------------------------------------------------------------------------------------

const ABSENT = Symbol('absent')
const oddChar = fc.constantFrom(
  ' ', 'ç', 'ã', 'É', '😀', '𝟗', 'e\u0301', '\u0000', '\u0007', '\n', '\t', '"', '\\', '/', '\u2028', '\ufeff', '\ud800', '<', '@', '.',
)
const textUnit = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 -'.split('')) },
  { weight: 2, arbitrary: oddChar },
)
const anyJson = fc.jsonValue({ maxDepth: 2 })
/** Strings whose length in code points is within two of `bound`, some made of characters outside the BMP. */
const around = (bound: number) => fc.tuple(fc.integer({ min: Math.max(0, bound - 2), max: bound + 2 }), fc.constantFrom('x', '😀', 'ç', 'e\u0301'))
  .map(([n, c]) => c === 'e\u0301' ? c.repeat(Math.floor(n / 2)) + (n % 2 ? 'x' : '') : c.repeat(n))
const emails = fc.oneof(
  fc.emailAddress(),
  fc.constantFrom(
    'maria@empresa.com.br', 'maria+orcamento@empresa.com.br', 'joão@empresa.com.br', 'x@foo.local', 'maria@', '@x.com', 'sem-arroba',
    'a..b@x.com', 'a b@x.com', 'x@y', 'x@example.c1', ' maria@empresa.com.br',
  ),
  fc.string({ unit: textUnit, maxLength: 30 }),
)

function fieldValue({ min, max, email }: Field): fc.Arbitrary<unknown> {
  const typical = email ? emails : fc.string({ unit: textUnit, minLength: min ?? 0, maxLength: Math.min(max ?? 30, 60) })
  const bounds = [min, max].filter((b): b is number => b !== undefined).map(around)
  return fc.oneof(
    { weight: 14, arbitrary: typical },
    ...bounds.map((arbitrary) => ({ weight: 2, arbitrary })),
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: anyJson },
    { weight: 1, arbitrary: fc.constant(ABSENT) },
  )
}

/** Objects with the contract's keys filled with arbitrary values, plus a few unknown keys. */
const contactObjects = fc.tuple(
  fc.record(Object.fromEntries(FIELDS.map((f) => [f.name, fieldValue(f)]))),
  fc.dictionary(fc.string({ maxLength: 10 }).filter((k) => !FIELD_NAMES.includes(k)), anyJson, { maxKeys: 3 }),
  fc.boolean(),
).map(([fields, extra, extraFirst]) => {
  const known = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== ABSENT))
  return extraFirst ? { ...extra, ...known } : { ...known, ...extra }
})

/** Valid JSON text with a few characters inserted, deleted or replaced. */
const mutatedJson = (base: fc.Arbitrary<string>) => fc.tuple(
  base,
  fc.array(fc.tuple(
    fc.nat(),
    fc.constantFrom('insert', 'delete', 'replace'),
    fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', 'u', '0', '-', '.', 'e', ' ', '\n', 'n', 'x', '\u0001', '😀', '\ufeff'),
  ), { minLength: 1, maxLength: 3 }),
).map(([text, edits]) => {
  let s = text
  for (const [at, op, c] of edits) {
    const i = s.length === 0 ? 0 : at % (s.length + (op === 'insert' ? 1 : 0))
    s = op === 'insert' ? s.slice(0, i) + c + s.slice(i) : op === 'delete' ? s.slice(0, i) + s.slice(i + 1) : s.slice(0, i) + c + s.slice(i + 1)
  }
  return s
})

const contentTypes = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom<string | undefined>(
      'application/json', undefined, 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/problem+json', 'text/plain',
      'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/octet-stream', 'text/json',
      'application/jsonp', '', 'json', 'application', 'foo/bar/baz', 'application/a/b+json', ' application/json ; q=1', ';', 'text/plain;',
    ),
  },
  { weight: 1, arbitrary: fc.stringMatching(/^[\x21-\x7e]{1,30}$/) },
)

// The tests -------------------------------------------------------------------------------------------------

describe('POST /api/site/contato: properties', () => {

  // The contact form's own budget (5 per ten minutes) would stop this file early.
  const ctx = useTestApp({ modules: [contactModule], contactBudget: 1_000_000 })

  async function send(payload: string | Buffer, contentType: string | undefined): Promise<Response> {
    return ctx.app.inject({ method: 'POST', url: URL, payload, headers: contentType === undefined ? {} : { 'content-type': contentType } })
  }

  /** What holds for every answer: a 202, 413 or 422 of the right shape, JSON, and nothing of the server's insides. */
  function checkAnswer(res: Response): void {
    const what = `${res.statusCode} ${res.body.slice(0, 300)}`
    assert.ok(res.statusCode < 500, what)
    assert.ok([202, 413, 422].includes(res.statusCode), what)
    assert.match(String(res.headers['content-type']), /^application\/json/, what)
    const body = res.json() as Record<string, unknown>
    if (res.statusCode === 202) {
      assert.deepEqual(Object.keys(body).sort(), ['destino', 'mensagem', 'protocolo'], what)
      for (const k of ['protocolo', 'destino', 'mensagem']) assert.ok(typeof body[k] === 'string' && body[k] !== '', what)
    } else if (res.statusCode === 413) {
      assert.deepEqual(body, { detail: 'corpo_muito_grande' })
    } else {
      const detail = body.detail as Item[]
      assert.ok(Array.isArray(detail) && detail.length > 0, what)
      for (const item of detail) {
        assert.deepEqual(Object.keys(item).filter((k) => !['type', 'loc', 'msg', 'input', 'ctx'].includes(k)), [], what)
        assert.ok(typeof item.type === 'string' && item.type !== '', what)
        assert.ok(typeof item.msg === 'string' && item.msg !== '', what)
        assert.ok(Array.isArray(item.loc) && item.loc[0] === 'body', what)
        for (const part of item.loc) assert.ok(typeof part === 'string' || Number.isInteger(part), what)
        if ('ctx' in item) assert.ok(item.ctx !== null && typeof item.ctx === 'object' && !Array.isArray(item.ctx), what)
      }
    }
    // Nothing but the client's own input may be echoed: no stack, no error class, no source path.
    const own = res.statusCode === 422 ? JSON.stringify((body.detail as Item[]).map(({ input: _input, ...rest }) => rest)) : res.body
    assert.doesNotMatch(own, /stack|Error\b|node_modules|\.ts:\d|\n\s+at /, what)
  }

  /** The answer is 202 when nothing is wrong, else 422 with exactly the expected items. */
  function checkItems(res: Response, expected: Expected[]): void {
    if (expected.length === 0) {
      assert.equal(res.statusCode, 202, res.body.slice(0, 300))
      return
    }
    assert.equal(res.statusCode, 422, res.body.slice(0, 300))
    const detail = (res.json() as { detail: Item[] }).detail
    assert.deepEqual(detail.map((i) => [i.type, i.loc]), expected.map((e) => [e.type, e.loc]))
    // Compared as JSON text: that is what the client reads (-0 is 0 there, key order is kept).
    detail.forEach((item, i) => assert.equal(JSON.stringify(item.input), JSON.stringify(expected[i]!.input), `input of ${item.loc.join('.')}`))
  }

  function checkJsonInvalid(res: Response, text: string): void {
    assert.equal(res.statusCode, 422, res.body.slice(0, 300))
    const detail = (res.json() as { detail: Item[] }).detail
    assert.equal(detail.length, 1, res.body.slice(0, 300))
    const [item] = detail as [Item]
    assert.equal(item.type, 'json_invalid')
    assert.equal(item.msg, 'JSON decode error')
    assert.deepEqual(item.input, {})
    assert.equal(item.loc.length, 2)
    const pos = item.loc[1]
    assert.ok(Number.isInteger(pos) && (pos as number) >= 0 && (pos as number) <= [...text.replace(/^\ufeff/, '')].length, `position ${pos} in ${JSON.stringify(text)}`)
    assert.ok(PYTHON_JSON_ERRORS.includes(String(item.ctx?.error)), `ctx.error ${JSON.stringify(item.ctx)}`)
  }

  it('any JSON value as the body: the answer pydantic would give', async () => {
    await fc.assert(fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
      const text = JSON.stringify(value)
      const res = await send(text, 'application/json')
      checkAnswer(res)
      checkItems(res, expectedItems(JSON.parse(text)))
      // A poisoning key inside an array once escaped the model's scrubbing (seed -1303719605): kept as an example.
    }), { numRuns: RUNS, examples: [[JSON.parse('[{"__proto__": null}]')], [JSON.parse('{"a": [{"constructor": {"prototype": 1}}]}')]] })
  })

  it('any JavaScript value sent as JSON: never a 5xx, and the answer pydantic would give', async () => {
    const asJson = fc.anything({ maxDepth: 3 }).map((v) => JSON.stringify(v)).filter((t): t is string => typeof t === 'string')
    await fc.assert(fc.asyncProperty(asJson, async (text) => {
      const res = await send(text, 'application/json')
      checkAnswer(res)
      checkItems(res, expectedItems(JSON.parse(text)))
    }), { numRuns: RUNS })
  })

  it('objects with the contract\'s keys and arbitrary values: 202 exactly when every field is valid, else each bad field once, in model order', async () => {
    let accepted = 0
    await fc.assert(fc.asyncProperty(contactObjects, async (body) => {
      const text = JSON.stringify(body)
      const res = await send(text, 'application/json')
      checkAnswer(res)
      checkItems(res, expectedItems(JSON.parse(text)))
      if (res.statusCode === 202) accepted++
    }), { numRuns: RUNS })
    // The generator must reach both answers, or the property proves little.
    assert.ok(accepted > RUNS / 20 && accepted < RUNS * 0.95, `${accepted} of ${RUNS} accepted`)
  })

  it('arbitrary text under arbitrary content types: never a 5xx; JSON read as FastAPI reads it, anything else refused as text', async () => {
    const texts = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 120 }),
      fc.string({ unit: fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', 'u', '1', '-', 'e', '.', ' ', 'n', 'a'), maxLength: 20 }),
      fc.json({ maxDepth: 3 }),
      mutatedJson(fc.json({ maxDepth: 3 })),
      contactObjects.map((o) => JSON.stringify(o)),
    )
    await fc.assert(fc.asyncProperty(texts, contentTypes, async (sent, contentType) => {
      const res = await send(sent, contentType)
      checkAnswer(res)
      const text = Buffer.from(sent).toString() // what the server reads: lone surrogates become U+FFFD in UTF-8
      const expected = expectedForText(text, contentType)
      if (expected === 'json_invalid') checkJsonInvalid(res, text)
      else checkItems(res, expected)
    }), { numRuns: RUNS })
  })

  it('a valid contact body with a few characters broken: json_invalid at a position inside the text, or the answer pydantic would give', async () => {
    const valid = contactObjects.map((o) => JSON.stringify(o))
    await fc.assert(fc.asyncProperty(mutatedJson(valid), async (text) => {
      const res = await send(text, 'application/json')
      checkAnswer(res)
      const expected = expectedForText(Buffer.from(text).toString(), 'application/json')
      if (expected === 'json_invalid') checkJsonInvalid(res, Buffer.from(text).toString())
      else checkItems(res, expected)
    }), { numRuns: RUNS })
  })

  it('arbitrary bytes, invalid UTF-8 included: never a 5xx', async () => {
    const validBytes = contactObjects.map((o) => Buffer.from(JSON.stringify(o)))
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
      fc.tuple(validBytes, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0x80, max: 0xff })), { minLength: 1, maxLength: 4 })).map(([buf, edits]) => {
        const out = Buffer.from(buf)
        for (const [at, byte] of edits) out[at % out.length] = byte
        return out
      }),
    )
    await fc.assert(fc.asyncProperty(bytes, fc.constantFrom<string | undefined>(
      'application/json', undefined, 'text/plain', 'application/x-www-form-urlencoded',
    ), async (payload, contentType) => {
      const res = await send(payload, contentType)
      checkAnswer(res)
      assert.notEqual(res.statusCode, 413)
    }), { numRuns: RUNS })
  })

  it('size: 413 corpo_muito_grande exactly when the body is over 64 KiB', async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 64 * 1024 - 64, max: 64 * 1024 + 64 }), fc.constantFrom('p', 'ç', '😀'), async (bytes, c) => {
      const base = JSON.stringify({ ...contactBody(), pad: '' })
      const room = bytes - Buffer.byteLength(base)
      const pad = c.repeat(Math.floor(room / Buffer.byteLength(c))) + 'p'.repeat(room % Buffer.byteLength(c))
      const text = base.replace('"pad":""', `"pad":"${pad}"`)
      assert.equal(Buffer.byteLength(text), bytes)
      const res = await send(text, 'application/json')
      checkAnswer(res)
      assert.equal(res.statusCode, bytes > 64 * 1024 ? 413 : 202)
    }), { numRuns: 40 })
  })
})

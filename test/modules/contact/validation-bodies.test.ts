// POST /api/site/contato's answers to bodies that are not a JSON object, hostile or odd bodies, and bodies over 64 KiB.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { contactBody } from '../../helpers/app.ts'
import { assertNoInternals, contactClient, JSON_TYPE, MODEL_ATTRIBUTES, type Item } from '../../helpers/contact-422.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { contactModule } from '../../../src/modules/contact/index.ts'

describe('POST /api/site/contato: 422 in FastAPI + pydantic v2 shape', () => {
  // The contact form's own budget (5 per ten minutes) would stop this file early.
  const ctx = useTestApp({ modules: [contactModule], contactBudget: 100_000 })
  const { bodies422, post, assert422, assert202 } = contactClient(ctx)

  describe('bodies that are not a JSON object', () => {
    const cases: [string, number, string][] = [
      ['{"nome": ', 9, 'Expecting value'],
      ['{"a":}', 5, 'Expecting value'],
      ['{a:1}', 1, 'Expecting property name enclosed in double quotes'],
      ["{'nome':'Maria'}", 1, 'Expecting property name enclosed in double quotes'],
      ['{"a":1,}', 7, 'Expecting property name enclosed in double quotes'],
      ['{"nome":"Maria"', 15, "Expecting ',' delimiter"],
      ['[1 2]', 3, "Expecting ',' delimiter"],
      ['{"a" 1}', 5, "Expecting ':' delimiter"],
      ['{"a":1} x', 8, 'Extra data'],
      ['{} {}', 3, 'Extra data'],
      ['{"a":"\u0001"}', 6, 'Invalid control character at'],
      ['{"a":"b\nc"}', 7, 'Invalid control character at'],
      ['{"a":"abc', 5, 'Unterminated string starting at'],
      ['{"a":"\\x"}', 6, 'Invalid \\escape'],
      ['{"a":"\\u12G4"}', 7, 'Invalid \\uXXXX escape'],
      ['nul', 0, 'Expecting value'],
      ['[1,]', 3, 'Expecting value'],
      ['01', 1, 'Extra data'],
      ['{"a":[1,{"b":}]}', 13, 'Expecting value'],
      ['{\n  "nome": "Maria",\n  "email": \n}', 33, 'Expecting value'],
      // Python counts code points: the emoji is one character before the error, not two.
      ['{"😀":1, x}', 8, 'Expecting property name enclosed in double quotes'],
      ['{"nome":"João" "x":1}', 15, "Expecting ',' delimiter"],
      // Whitespace alone is a body (FastAPI parses it) and not valid JSON.
      ['   ', 3, 'Expecting value'],
      ['\t\n ', 3, 'Expecting value'],
    ]
    for (const [text, pos, error] of cases) {
      it(`json_invalid at ["body",${pos}] "${error}" for ${JSON.stringify(text)}`, async () => {
        assert422(await post(text), [{ type: 'json_invalid', loc: ['body', pos], msg: 'JSON decode error', input: {}, ctx: { error } }])
      })
    }

    it('a UTF-8 byte order mark is skipped, as FastAPI decodes the body as utf-8-sig', async () => {
      assert202(await post('\ufeff' + JSON.stringify(contactBody())))
      assert422(await post('\ufeff{"a":}'), [
        { type: 'json_invalid', loc: ['body', 5], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } },
      ])
    })

    for (const value of [[], ['nome'], 'str', '', 1, 0, 1.5, true, false]) {
      it(`model_attributes_type for the JSON value ${JSON.stringify(value)}`, async () => {
        assert422(await post(JSON.stringify(value)), [{ type: 'model_attributes_type', loc: ['body'], msg: MODEL_ATTRIBUTES, input: value }])
      })
    }

    const missingBody: Item[] = [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]
    it('JSON null is a missing body', async () => {
      assert422(await post('null'), missingBody)
    })
    it('an empty body with content-type application/json is a missing body', async () => {
      assert422(await post(''), missingBody)
    })
    it('a POST with no body and no content type is a missing body', async () => {
      assert422(await post(undefined, {}), missingBody)
    })
    it('an empty body is a missing body whatever its content type', async () => {
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
        assert422(await post('', { 'content-type': contentType }), missingBody)
      }
    })

    const textTypes = [
      'text/plain', 'application/x-www-form-urlencoded', 'text/plain; charset=utf-8', 'application/xml', 'multipart/form-data; boundary=x',
      'application/octet-stream', 'application/jsonx', 'text/json',
    ]
    for (const contentType of textTypes) {
      it(`a ${contentType} body is model_attributes_type with the text as input`, async () => {
        const text = contentType.startsWith('application/x-www') ? 'nome=Maria&email=maria%40empresa.com.br' : JSON.stringify(contactBody())
        assert422(await post(text, { 'content-type': contentType }), [{ type: 'model_attributes_type', loc: ['body'], msg: MODEL_ATTRIBUTES, input: text }])
      })
    }

    it('JSON media types with parameters, other cases and +json suffixes are read as JSON', async () => {
      for (const contentType of ['application/json; charset=utf-8', 'Application/JSON', 'application/vnd.contato+json', 'application/merge-patch+json']) {
        assert202(await post(JSON.stringify(contactBody()), { 'content-type': contentType }))
      }
    })

    it('a malformed content type is read as text, and an empty one as JSON, as FastAPI does (not a 415)', async () => {
      const text = JSON.stringify(contactBody())
      for (const contentType of ['json', 'application', '!', 'foo/bar/baz', 'application/a/b+json', '/', 'a b/c', ';']) {
        assert422(await post(text, { 'content-type': contentType }), [{ type: 'model_attributes_type', loc: ['body'], msg: MODEL_ATTRIBUTES, input: text }])
      }
      assert202(await post(text, { 'content-type': '' }))
    })

    it('a body without a content type is read as JSON, as FastAPI does', async () => {
      assert202(await post(JSON.stringify(contactBody()), {}))
      assert422(await post('{"a":}', {}), [{ type: 'json_invalid', loc: ['body', 5], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } }])
    })
  })

  describe('hostile and odd bodies', () => {
    it('ignores unknown fields', async () => {
      assert202(await post(contactBody({ desconhecido: 'x', admin: true, nested: { a: [1, 2] }, protocolo: 'CT-FORJADO' })))
    })

    it('a __proto__ key is harmless: 202, no pollution, and it cannot supply a field', async () => {
      const base = JSON.stringify(contactBody())
      assert202(await post(`{"__proto__":{"polluted":"yes","isAdmin":true},${base.slice(1)}`))
      assert202(await post(`{"\\u005f_proto__":{"polluted":"yes"},${base.slice(1)}`))
      assert.equal(({} as Record<string, unknown>).polluted, undefined)
      assert.equal(Object.hasOwn(Object.prototype, 'polluted'), false)
      const res = await post('{"__proto__":{"nome":"Maria"},"email":"maria@empresa.com.br","mensagem":"Mensagem longa o bastante"}')
      assert.equal(res.statusCode, 422)
      assert.deepEqual(res.json().detail.map((i: Item) => [i.type, i.loc]), [['missing', ['body', 'nome']]])
    })

    it('a constructor key is harmless: 202 and no pollution', async () => {
      const base = JSON.stringify(contactBody())
      assert202(await post(`{"constructor":{"prototype":{"polluted":"yes"}},${base.slice(1)}`))
      assert202(await post(contactBody({ constructor: 'x', toString: 'y', hasOwnProperty: 'z' })))
      assert.equal(({} as Record<string, unknown>).polluted, undefined)
      assert.equal(Object.hasOwn(Object.prototype, 'polluted'), false)
    })

    it('invalid UTF-8 never gives a 5xx', async () => {
      const valid = Buffer.from(JSON.stringify(contactBody({ nome: 'NOME_AQUI' })))
      const at = valid.indexOf('NOME_AQUI')
      const splice = (bytes: number[]) => Buffer.concat([valid.subarray(0, at), Buffer.from(bytes), valid.subarray(at + 'NOME_AQUI'.length)])
      const bodies = [
        splice([0x4d, 0xff, 0xfe, 0x61]), // bytes that never occur in UTF-8
        splice([0x4d, 0xc3]), // a truncated sequence
        splice([0x4d, 0xc0, 0xaf, 0x61]), // an overlong encoding of "/"
        splice([0x4d, 0xed, 0xa0, 0x80, 0x61]), // an encoded surrogate
        splice([0x80, 0x80]), // lone continuation bytes
        Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), // {"\xff":1}
        Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), // UTF-16 with its byte order mark
        Buffer.from([0xc3, 0x28]),
      ]
      for (const body of bodies) {
        for (const headers of [JSON_TYPE, { 'content-type': 'text/plain' }]) {
          const res = await post(body, headers)
          assert.ok([202, 422].includes(res.statusCode), `${body.toString('hex')}: ${res.statusCode} ${res.body}`)
          assert.doesNotThrow(() => res.json())
        }
      }
    })

    it('control characters, NUL included, never give a 5xx', async () => {
      for (let c = 0; c < 0x20; c++) {
        const ch = String.fromCharCode(c)
        for (const body of [
          contactBody({ nome: `Ma${ch}ria`, mensagem: `Mensagem com ${ch} no meio`, empresa: ch, telefone: ch, site: ch, assunto: ch }),
          contactBody({ email: `maria${ch}@empresa.com.br` }),
        ]) {
          const res = await post(body)
          assert.ok([202, 422].includes(res.statusCode), `U+${c.toString(16)}: ${res.statusCode} ${res.body}`)
        }
      }
      assert202(await post(contactBody({ nome: '\u0000\u0000', mensagem: '\u0000'.repeat(10), empresa: '\u007f\u0085\u2028\u2029\ufeff\uffff' })))
      assert422(await post(contactBody({ email: 'a\u0000b@empresa.com.br' })), [{
        type: 'value_error', loc: ['body', 'email'],
        msg: 'value is not a valid email address: The email address contains invalid characters before the @-sign: U+0000.',
        input: 'a\u0000b@empresa.com.br', ctx: { reason: 'The email address contains invalid characters before the @-sign: U+0000.' },
      }])
    })

    it('lone surrogates (\\ud800 escapes) never give a 5xx', async () => {
      const text = JSON.stringify(contactBody()).replace('"nome":"', '"nome":"\\ud800\\udfff\\ud800')
      const res = await post(text)
      assert.ok([202, 422].includes(res.statusCode), `${res.statusCode} ${res.body}`)
    })

    it('nesting deeper than 512 levels is refused with 400 requisicao_invalida, as FastAPI refuses what Python cannot parse', async () => {
      for (const text of ['['.repeat(513) + ']'.repeat(513), '['.repeat(20_000) + ']'.repeat(20_000), '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000),
        JSON.stringify({ ...contactBody(), extra: JSON.parse('['.repeat(600) + ']'.repeat(600)) })]) {
        const res = await post(text)
        assert.equal(res.statusCode, 400, res.body.slice(0, 200))
        assert.deepEqual(res.json(), { detail: 'requisicao_invalida' })
      }
      // 512 levels are read, and echoed back in full.
      const deep = JSON.parse('['.repeat(512) + ']'.repeat(512))
      assert422(await post(JSON.stringify(deep)), [{ type: 'model_attributes_type', loc: ['body'], msg: MODEL_ATTRIBUTES, input: deep }])
      // Brackets inside strings are text, not nesting.
      assert202(await post(contactBody({ mensagem: '[\\"'.repeat(600) + '{'.repeat(600) })))
      // Malformed deep JSON is still located like any other.
      assert422(await post('['.repeat(30_000)), [
        { type: 'json_invalid', loc: ['body', 30_000], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } },
      ])
    })
  })

  describe('size', () => {
    /** A valid body of exactly `bytes` bytes of UTF-8. */
    function bodyOf(bytes: number): string {
      const base = JSON.stringify({ ...contactBody(), pad: '' })
      const text = base.replace('"pad":""', `"pad":"${'p'.repeat(bytes - Buffer.byteLength(base))}"`)
      assert.equal(Buffer.byteLength(text), bytes)
      return text
    }

    it('a body over 64 KiB answers 413 corpo_muito_grande; exactly 64 KiB is read', async () => {
      assert202(await post(bodyOf(64 * 1024)))
      for (const res of [
        await post(bodyOf(64 * 1024 + 1)), await post('x'.repeat(200_000)), await post('y'.repeat(70_000), { 'content-type': 'text/plain' }),
      ]) {
        assert.equal(res.statusCode, 413)
        assert.deepEqual(res.json(), { detail: 'corpo_muito_grande' })
      }
    })

    it('a field far over its limit, inside 64 KiB, is an ordinary 422', async () => {
      const big = 'm'.repeat(60_000)
      assert422(await post(contactBody({ mensagem: big })), [
        { type: 'string_too_long', loc: ['body', 'mensagem'], msg: 'String should have at most 4000 characters', input: big, ctx: { max_length: 4000 } },
      ])
    })
  })

  it('no 422 answer of this file carried a stack, an error class or a source path', () => {
    assertNoInternals(bodies422, 80)
  })
})

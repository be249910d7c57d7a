// POST /api/site/contato's 422 for each field (required, lengths, types, e-mail) and for several at once, in FastAPI + pydantic v2 shape.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { contactBody } from '../../helpers/app.ts'
import { assertNoInternals, contactClient, type Item } from '../../helpers/contact-422.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { contactModule } from '../../../src/modules/contact/index.ts'

describe('POST /api/site/contato: 422 in FastAPI + pydantic v2 shape', () => {
  // The contact form's own budget (5 per ten minutes) would stop this file early.
  const ctx = useTestApp({ modules: [contactModule], contactBudget: 100_000 })
  const { bodies422, post, assert422, assert202 } = contactClient(ctx)

  describe('required fields', () => {
    for (const field of ['nome', 'email', 'mensagem']) {
      it(`${field} missing: "missing" at ["body","${field}"] with the body as sent as input`, async () => {
        const body = contactBody({ [field]: undefined, assunto: 'financeiro' })
        assert422(await post(body), [{ type: 'missing', loc: ['body', field], msg: 'Field required', input: body }])
      })
    }

    it('all three missing: three items, in model order, none showing server-side defaults', async () => {
      const missing = (field: string, input: unknown): Item => ({ type: 'missing', loc: ['body', field], msg: 'Field required', input })
      assert422(await post({}), [missing('nome', {}), missing('email', {}), missing('mensagem', {})])
      const sent = { empresa: 'ACME' }
      assert422(await post(sent), [missing('nome', sent), missing('email', sent), missing('mensagem', sent)])
    })

    it('writes the item keys in FastAPI order: type, loc, msg, input, ctx', async () => {
      const short = await post(contactBody({ nome: 'a' }))
      assert.equal(short.body, '{"detail":[{"type":"string_too_short","loc":["body","nome"],"msg":"String should have at least 2 characters",'
        + '"input":"a","ctx":{"min_length":2}}]}')
      const missing = await post({ nome: 'Maria', mensagem: 'Uma mensagem longa o bastante.' })
      assert.equal(missing.body, '{"detail":[{"type":"missing","loc":["body","email"],"msg":"Field required",'
        + '"input":{"nome":"Maria","mensagem":"Uma mensagem longa o bastante."}}]}')
    })
  })

  describe('lengths', () => {
    const tooShort = (field: string, input: string, min: number): Item =>
      ({ type: 'string_too_short', loc: ['body', field], msg: `String should have at least ${min} characters`, input, ctx: { min_length: min } })
    const tooLong = (field: string, input: string, max: number): Item =>
      ({ type: 'string_too_long', loc: ['body', field], msg: `String should have at most ${max} characters`, input, ctx: { max_length: max } })

    it('string_too_short for nome (min 2) and mensagem (min 10), the empty string included', async () => {
      assert422(await post(contactBody({ nome: 'a' })), [tooShort('nome', 'a', 2)])
      assert422(await post(contactBody({ nome: '' })), [tooShort('nome', '', 2)])
      assert422(await post(contactBody({ mensagem: 'curta' })), [tooShort('mensagem', 'curta', 10)])
      assert422(await post(contactBody({ mensagem: '123456789' })), [tooShort('mensagem', '123456789', 10)])
    })

    const maxima: [string, number][] = [['nome', 120], ['mensagem', 4000], ['empresa', 140], ['telefone', 40], ['site', 200]]
    for (const [field, max] of maxima) {
      it(`string_too_long for ${field} over ${max}; exactly ${max} passes`, async () => {
        const over = 'x'.repeat(max + 1)
        assert422(await post(contactBody({ [field]: over })), [tooLong(field, over, max)])
        assert202(await post(contactBody({ [field]: 'y'.repeat(max) })))
      })
    }

    it('accepts the exact bounds: nome of 2 and of 120, mensagem of 10 and of 4000, every optional field at its maximum', async () => {
      assert202(await post(contactBody({ nome: 'Jo' })))
      assert202(await post(contactBody({ nome: 'N'.repeat(120) })))
      assert202(await post(contactBody({ mensagem: `${Date.now()}`.slice(-10) })))
      assert202(await post(contactBody({ mensagem: 'M'.repeat(3990) + `${Date.now()}`.slice(-10) })))
      assert202(await post(contactBody({ empresa: 'E'.repeat(140), telefone: '9'.repeat(40), site: 's'.repeat(200) })))
    })

    it('counts Unicode code points, as pydantic does (not UTF-16 units, not bytes)', async () => {
      const emoji = '😀' // one code point, two UTF-16 units, four UTF-8 bytes
      assert202(await post(contactBody({ nome: emoji.repeat(2) })))
      assert422(await post(contactBody({ nome: emoji })), [tooShort('nome', emoji, 2)])
      assert202(await post(contactBody({ nome: emoji.repeat(120) })))
      assert422(await post(contactBody({ nome: emoji.repeat(121) })), [tooLong('nome', emoji.repeat(121), 120)])
      assert202(await post(contactBody({ mensagem: emoji.repeat(4000) })))
      assert422(await post(contactBody({ mensagem: emoji.repeat(4001) })), [tooLong('mensagem', emoji.repeat(4001), 4000)])
      assert202(await post(contactBody({ telefone: '☎'.repeat(40), empresa: 'Ação'.repeat(35) })))
      assert422(await post(contactBody({ telefone: '𝟗'.repeat(41) })), [tooLong('telefone', '𝟗'.repeat(41), 40)])
      // A letter and a combining accent are two code points: pydantic counts them as two.
      assert202(await post(contactBody({ nome: 'e\u0301' })))
    })
  })

  describe('types', () => {
    const fields = ['nome', 'email', 'assunto', 'mensagem', 'empresa', 'telefone', 'site']
    const notStrings: [string, unknown][] = [
      ['an integer', 42], ['a float', 1.5], ['zero', 0], ['null', null], ['an array', ['a']], ['an empty array', []],
      ['an object', { a: 'b' }], ['an empty object', {}], ['true', true], ['false', false],
    ]
    for (const [what, value] of notStrings) {
      it(`string_type for ${what} in every string field, reported in model order`, async () => {
        const body = Object.fromEntries(fields.map((f) => [f, value]))
        assert422(await post(body), fields.map((f) => ({ type: 'string_type', loc: ['body', f], msg: 'Input should be a valid string', input: value })))
      })
    }

    it('assunto: null is string_type, not the default', async () => {
      assert422(await post(contactBody({ assunto: null })), [
        { type: 'string_type', loc: ['body', 'assunto'], msg: 'Input should be a valid string', input: null },
      ])
    })

    it('does not coerce: the number 12345678901 is not a telefone, "true" stays a string', async () => {
      assert422(await post(contactBody({ telefone: 12345678901 })), [
        { type: 'string_type', loc: ['body', 'telefone'], msg: 'Input should be a valid string', input: 12345678901 },
      ])
      assert202(await post(contactBody({ empresa: 'true', site: '123' })))
    })
  })

  describe('e-mail', () => {
    const invalid: [string, string][] = [
      ['maria.empresa.com.br', 'An email address must have an @-sign.'],
      ['', 'An email address must have an @-sign.'],
      ['@empresa.com.br', 'There must be something before the @-sign.'],
      ['maria@', 'There must be something after the @-sign.'],
      ['maria@empresa', 'The part after the @-sign is not valid. It should have a period.'],
      ['ma ria@empresa.com.br', 'The email address contains invalid characters before the @-sign: SPACE.'],
      ['maria..silva@empresa.com.br', 'An email address cannot have two periods in a row.'],
      ['maria@empresa..com.br', 'An email address cannot have two periods in a row.'],
      ['x@foo.local', 'The part after the @-sign is a special-use or reserved name that cannot be used with email.'],
      ['maria@empresa.com.br.', 'An email address cannot end with a period.'],
    ]
    for (const [email, reason] of invalid) {
      it(`value_error for ${JSON.stringify(email)}: ${reason}`, async () => {
        assert422(await post(contactBody({ email })), [{
          type: 'value_error', loc: ['body', 'email'], msg: `value is not a valid email address: ${reason}`, input: email, ctx: { reason },
        }])
      })
    }

    it('accepts plus-addressing, subdomains and internationalized addresses', async () => {
      for (const email of ['maria+orcamento@empresa.com.br', 'm.silva@financeiro.sub.empresa.com.br', 'joão@empresa.com.br', 'jeff@臺網中心.tw']) {
        assert202(await post(contactBody({ email })))
      }
    })
  })

  describe('several errors at once', () => {
    it('reports every field error in one response, in model field order', async () => {
      const body = { site: 's'.repeat(201), telefone: 7, empresa: 'e'.repeat(141), mensagem: 'curta', assunto: ['x'], email: 'sem-arroba', nome: 'a' }
      assert422(await post(body), [
        { type: 'string_too_short', loc: ['body', 'nome'], msg: 'String should have at least 2 characters', input: 'a', ctx: { min_length: 2 } },
        {
          type: 'value_error', loc: ['body', 'email'], msg: 'value is not a valid email address: An email address must have an @-sign.',
          input: 'sem-arroba', ctx: { reason: 'An email address must have an @-sign.' },
        },
        { type: 'string_type', loc: ['body', 'assunto'], msg: 'Input should be a valid string', input: ['x'] },
        { type: 'string_too_short', loc: ['body', 'mensagem'], msg: 'String should have at least 10 characters', input: 'curta', ctx: { min_length: 10 } },
        {
          type: 'string_too_long', loc: ['body', 'empresa'], msg: 'String should have at most 140 characters', input: 'e'.repeat(141),
          ctx: { max_length: 140 },
        },
        { type: 'string_type', loc: ['body', 'telefone'], msg: 'Input should be a valid string', input: 7 },
        { type: 'string_too_long', loc: ['body', 'site'], msg: 'String should have at most 200 characters', input: 's'.repeat(201), ctx: { max_length: 200 } },
      ])
    })

    it('puts a missing field after the errors of the fields before it', async () => {
      const body = { nome: 'a', mensagem: 'Mensagem longa o bastante', telefone: 9 }
      assert422(await post(body), [
        { type: 'string_too_short', loc: ['body', 'nome'], msg: 'String should have at least 2 characters', input: 'a', ctx: { min_length: 2 } },
        { type: 'missing', loc: ['body', 'email'], msg: 'Field required', input: body },
        { type: 'string_type', loc: ['body', 'telefone'], msg: 'Input should be a valid string', input: 9 },
      ])
    })

    it('puts a missing field in its model place among the other errors', async () => {
      const body = { mensagem: 1, email: 'x@y', extra: true }
      assert422(await post(body), [
        { type: 'missing', loc: ['body', 'nome'], msg: 'Field required', input: body },
        {
          type: 'value_error', loc: ['body', 'email'],
          msg: 'value is not a valid email address: The part after the @-sign is not valid. It should have a period.',
          input: 'x@y', ctx: { reason: 'The part after the @-sign is not valid. It should have a period.' },
        },
        { type: 'string_type', loc: ['body', 'mensagem'], msg: 'Input should be a valid string', input: 1 },
      ])
    })
  })

  it('no 422 answer of this file carried a stack, an error class or a source path', () => {
    assertNoInternals(bodies422, 40)
  })
})

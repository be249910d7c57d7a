// The published contract, GET /openapi.json: its paths, methods and statuses, and the eight named schemas with their fields and constraints.
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { PATIENT } from '../../helpers/app.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { type Doc, PATHS, ref, type Schema, servedDocument } from '../../helpers/openapi.ts'

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
const SCHEMA_NAMES = ['ContatoIn', 'ContatoOut', 'VersionOut', 'StatusOut', 'ServicoOut', 'ManutencaoOut', 'HTTPValidationError', 'ValidationError']

const sorted = (xs: Iterable<string>) => [...xs].sort()

/** The JSON types a schema admits, whether written as `type: [..]`, or as anyOf/oneOf of typed branches. */
function typesOf(s: Schema): string[] {
  if (s.$ref) return [`$ref:${s.$ref}`]
  if (Array.isArray(s.type)) return sorted(s.type)
  if (typeof s.type === 'string') return [s.type]
  const branches = s.anyOf ?? s.oneOf
  if (branches) return sorted(branches.flatMap(typesOf))
  return []
}

/** The branch of a (possibly nullable) schema that is not `null`. */
function nonNull(s: Schema): Schema {
  const branches = (s.anyOf ?? s.oneOf)?.filter((b) => b.type !== 'null')
  if (branches?.length === 1) return branches[0]!
  return s
}

describe('OpenAPI document', () => {
  const ctx = useTestApp({ env: PATIENT })
  let doc: Doc
  let schemas: Record<string, Schema>
  before(async () => {
    doc = await servedDocument(ctx.app)
    schemas = doc.components.schemas
  })

  describe('document', () => {
    it('is OpenAPI 3.1.0 with contract version 1.0.0 and the /api server', () => {
      assert.equal(doc.openapi, '3.1.0')
      assert.equal(doc.info.version, '1.0.0')
      assert.equal(typeof doc.info.title, 'string')
      assert.equal(doc.servers.length, 1)
      assert.equal(doc.servers[0]!.url, '/api')
    })

    it('lists exactly the seven public paths, with exactly their methods (no HEAD, no OPTIONS)', () => {
      assert.deepEqual(sorted(Object.keys(doc.paths)), sorted(Object.keys(PATHS)))
      for (const [path, methods] of Object.entries(PATHS)) {
        const documented = Object.keys(doc.paths[path]!).filter((k) => HTTP_METHODS.includes(k))
        assert.deepEqual(sorted(documented), sorted(Object.keys(methods)), path)
      }
    })

    it('documents exactly the status codes each operation answers', () => {
      for (const [path, methods] of Object.entries(PATHS)) {
        for (const [method, codes] of Object.entries(methods)) {
          const op = doc.paths[path]![method]!
          assert.deepEqual(sorted(Object.keys(op.responses)), sorted(codes), `${method} ${path}`)
          for (const [code, response] of Object.entries(op.responses)) {
            assert.equal(typeof response.description, 'string', `${method} ${path} ${code} description`)
            assert.deepEqual(Object.keys(response.content), ['application/json'], `${method} ${path} ${code} is JSON`)
          }
        }
      }
    })

    it('takes ContatoIn as the required body of POST /site/contato and answers ContatoOut / HTTPValidationError', () => {
      const op = doc.paths['/site/contato']!.post!
      assert.equal(op.requestBody?.required, true)
      assert.deepEqual(op.requestBody.content, { 'application/json': { schema: { $ref: ref('ContatoIn') } } })
      const bodyOf = (code: string) => op.responses[code]!.content['application/json']!.schema
      assert.deepEqual(bodyOf('202'), { $ref: ref('ContatoOut') })
      assert.deepEqual(bodyOf('422'), { $ref: ref('HTTPValidationError') })
      for (const code of ['429', '503']) {
        const s = bodyOf(code)
        assert.deepEqual(s.required, ['detail'], code)
        assert.equal(s.properties!.detail!.type, 'string', code)
      }
    })

    it('answers VersionOut and StatusOut on /version and /status; the subjects list and channel state are objects', () => {
      const body200 = (path: string) => doc.paths[path]!.get!.responses['200']!.content['application/json']!.schema
      assert.deepEqual(body200('/version'), { $ref: ref('VersionOut') })
      assert.deepEqual(body200('/status'), { $ref: ref('StatusOut') })
      // Subjects list: an object whose values are arrays of objects mapping strings to strings.
      const assuntos = body200('/site/contato/assuntos')
      assert.equal(assuntos.type, 'object')
      const values = assuntos.additionalProperties as Schema
      assert.equal(values.type, 'array')
      assert.equal(values.items!.type, 'object')
      assert.deepEqual((values.items!.additionalProperties as Schema).type, 'string')
      assert.equal(body200('/site/contato/estado').type, 'object')
      for (const path of ['/health', '/health/ready']) assert.equal(body200(path).type, 'object', path)
    })

    it('answers 503 on /health/ready and a 429 with a detail code everywhere', () => {
      const ready = doc.paths['/health/ready']!.get!.responses
      assert.ok(ready['503'])
      for (const [path, methods] of Object.entries(PATHS)) {
        for (const method of Object.keys(methods)) {
          const s = doc.paths[path]![method]!.responses['429']!.content['application/json']!.schema
          assert.equal(s.type, 'object', `${method} ${path}`)
          assert.deepEqual(s.required, ['detail'], `${method} ${path}`)
        }
      }
    })
  })

  describe('component schemas', () => {
    it('names exactly the eight schemas of the contract', () => {
      assert.deepEqual(sorted(Object.keys(schemas)), sorted(SCHEMA_NAMES))
      for (const name of SCHEMA_NAMES) assert.equal(schemas[name]!.type, 'object', name)
    })

    /** Checks the property names, the required list and each property's admitted types. */
    function shape(name: string, required: string[], types: Record<string, string[]>) {
      const s = schemas[name]!
      assert.deepEqual(sorted(Object.keys(s.properties ?? {})), sorted(Object.keys(types)), `${name} properties`)
      assert.deepEqual(sorted(s.required ?? []), sorted(required), `${name} required`)
      for (const [prop, t] of Object.entries(types)) assert.deepEqual(typesOf(s.properties![prop]!), sorted(t), `${name}.${prop}`)
    }

    it('ContatoIn: fields, types, required list, lengths, e-mail format and defaults', () => {
      shape('ContatoIn', ['nome', 'email', 'mensagem'], {
        nome: ['string'], email: ['string'], assunto: ['string'], mensagem: ['string'], empresa: ['string'], telefone: ['string'], site: ['string'],
      })
      const p = schemas.ContatoIn!.properties!
      assert.equal(p.nome!.minLength, 2)
      assert.equal(p.nome!.maxLength, 120)
      assert.equal(p.mensagem!.minLength, 10)
      assert.equal(p.mensagem!.maxLength, 4000)
      assert.equal(p.empresa!.maxLength, 140)
      assert.equal(p.telefone!.maxLength, 40)
      assert.equal(p.site!.maxLength, 200)
      assert.equal(p.email!.format, 'email')
      for (const f of ['empresa', 'telefone', 'site', 'assunto']) assert.equal(p[f]!.minLength, undefined, `${f} has no minimum`)
      // An unknown subject is normalized, not refused: no enum may reject it.
      assert.equal(p.assunto!.enum, undefined)
      assert.equal(p.assunto!.default, 'comercial')
      for (const f of ['empresa', 'telefone', 'site']) assert.equal(p[f]!.default, '', `${f} default`)
      for (const f of ['nome', 'email', 'mensagem']) assert.equal(p[f]!.default, undefined, `${f} has no default`)
    })

    it('ContatoOut and VersionOut: all fields required strings', () => {
      shape('ContatoOut', ['protocolo', 'destino', 'mensagem'], { protocolo: ['string'], destino: ['string'], mensagem: ['string'] })
      const v = ['versao', 'commit', 'ambiente', 'build_em', 'schema_versao']
      shape('VersionOut', v, Object.fromEntries(v.map((f) => [f, ['string']])))
    })

    it('StatusOut: servicos is a list of ServicoOut, manutencao a nullable ManutencaoOut, verificado_em a date-time', () => {
      const all = ['status', 'ambiente', 'versao', 'servicos', 'manutencao', 'verificado_em']
      shape('StatusOut', all, {
        status: ['string'], ambiente: ['string'], versao: ['string'], servicos: ['array'],
        manutencao: [`$ref:${ref('ManutencaoOut')}`, 'null'], verificado_em: ['string'],
      })
      const p = schemas.StatusOut!.properties!
      assert.deepEqual(p.servicos!.items, { $ref: ref('ServicoOut') })
      assert.equal(p.verificado_em!.format, 'date-time')
    })

    it('ServicoOut: nome and ok required; latencia_ms (number) and modo (string) nullable and optional', () => {
      shape('ServicoOut', ['nome', 'ok'], { nome: ['string'], ok: ['boolean'], latencia_ms: ['number', 'null'], modo: ['string', 'null'] })
    })

    it('ManutencaoOut: nullable date-times and message, required; flags optional booleans defaulting to false', () => {
      shape('ManutencaoOut', ['inicio', 'fim', 'mensagem'], {
        inicio: ['string', 'null'], fim: ['string', 'null'], mensagem: ['string', 'null'], em_curso: ['boolean'], anunciada: ['boolean'],
      })
      const p = schemas.ManutencaoOut!.properties!
      for (const f of ['inicio', 'fim']) assert.equal(nonNull(p[f]!).format, 'date-time', f)
      assert.equal(p.em_curso!.default, false)
      assert.equal(p.anunciada!.default, false)
    })

    it('HTTPValidationError and ValidationError: FastAPI\'s shape', () => {
      shape('HTTPValidationError', [], { detail: ['array'] })
      assert.deepEqual(schemas.HTTPValidationError!.properties!.detail!.items, { $ref: ref('ValidationError') })
      const ve = schemas.ValidationError!
      assert.deepEqual(sorted(Object.keys(ve.properties!)), ['ctx', 'input', 'loc', 'msg', 'type'])
      assert.deepEqual(sorted(ve.required!), ['loc', 'msg', 'type'])
      const p = ve.properties!
      assert.equal(p.loc!.type, 'array')
      assert.deepEqual(typesOf(p.loc!.items!), ['integer', 'string'])
      assert.equal(p.msg!.type, 'string')
      assert.equal(p.type!.type, 'string')
      assert.deepEqual(typesOf(p.input!), [], 'input admits any value')
      assert.equal(p.ctx!.type, 'object')
    })
  })
})

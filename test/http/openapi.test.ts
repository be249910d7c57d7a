// The published contract: GET /openapi.json matches the specification (paths, methods, statuses, the eight
// named schemas with their fields and constraints), is a valid OpenAPI 3.1 document that Spectral's OAS
// ruleset accepts, and describes the bodies the app really serves.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import formats from 'ajv-formats'
import { declareWindow } from '../../src/status/maintenance.ts'
import { contactBody, PATIENT, serviceConfigFile } from '../helpers/app.ts'
import { testApp, useTestApp } from '../helpers/fixture.ts'
import { tempDir } from '../helpers/temp.ts'

type Json = Record<string, unknown>
type Schema = Json & {
  type?: string | string[], anyOf?: Schema[], oneOf?: Schema[], $ref?: string, format?: string
  properties?: Record<string, Schema>, required?: string[], items?: Schema, additionalProperties?: Schema | boolean
}
type Response = { description?: string, content: Record<string, { schema: Schema }> }
type Operation = { responses: Record<string, Response>, requestBody?: { required?: boolean, content: Json } }
type Doc = {
  openapi: string, info: { title: string, version: string }, servers: { url: string }[]
  paths: Record<string, Record<string, Operation>>, components: { schemas: Record<string, Schema> }
}

const run = promisify(execFile)
const addFormats = formats as unknown as typeof formats.default

const PATHS: Record<string, Record<string, string[]>> = {
  '/health': { get: ['200', '429'] },
  '/health/ready': { get: ['200', '429', '503'] },
  '/version': { get: ['200', '429'] },
  '/status': { get: ['200', '429'] },
  '/site/contato': { post: ['202', '422', '429', '503'] },
  '/site/contato/assuntos': { get: ['200', '429'] },
  '/site/contato/estado': { get: ['200', '429'] },
}
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
const SCHEMA_NAMES = ['ContatoIn', 'ContatoOut', 'VersionOut', 'StatusOut', 'ServicoOut', 'ManutencaoOut', 'HTTPValidationError', 'ValidationError']

const sorted = (xs: Iterable<string>) => [...xs].sort()
const ref = (name: string) => `#/components/schemas/${name}`

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
  let tmp: string
  before(async () => {
    const res = await ctx.app.inject({ url: '/openapi.json' })
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['content-type']), /^application\/json/)
    doc = res.json()
    schemas = doc.components.schemas
    tmp = tempDir('openapi-test')
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

  describe('validity', () => {
    it('validates against the OpenAPI 3.1 schema', async () => {
      const result = await new Validator().validate(structuredClone(doc))
      assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2))
    })

    it('the validator rejects a broken copy (so the check above can fail)', async () => {
      const broken = structuredClone(doc)
      delete broken.paths['/health']!.get!.responses['200']!.description
      assert.equal((await new Validator().validate(broken)).valid, false)
    })

    async function spectral(d: object): Promise<{ code: string, severity: number, message: string, path: string[] }[]> {
      const file = join(tmp, `openapi-${Math.random().toString(36).slice(2)}.json`)
      await writeFile(file, JSON.stringify(d, null, 2))
      // Exit code 1 means results of severity error: the JSON on stdout is what is asserted.
      const out = await run('node_modules/.bin/spectral', ['lint', file, '--ruleset', '.spectral.yaml', '-f', 'json', '-q'], { cwd: process.cwd() })
        .catch((err: { stdout?: string, code?: number }) => {
          if (err.code === 1 && err.stdout) return { stdout: err.stdout }
          throw err
        })
      return JSON.parse(out.stdout)
    }

    it('has no Spectral (spectral:oas) errors', async () => {
      const results = await spectral(doc)
      const errors = results.filter((r) => r.severity === 0)
      assert.deepEqual(errors, [], JSON.stringify(results, null, 2))
    })

    it('Spectral reports an error on a broken copy (so the check above can fail)', async () => {
      const broken = structuredClone(doc)
      broken.paths['/version']!.get!.responses['200'] = { description: 'x', content: { 'application/json': { schema: { $ref: ref('Nope') } } } }
      const results = await spectral(broken)
      assert.ok(results.some((r) => r.severity === 0 && r.code === 'invalid-ref'), JSON.stringify(results))
    })
  })

  describe('served bodies match the documented schemas', () => {
    let ajv: InstanceType<typeof Ajv2020>
    before(() => {
      ajv = new Ajv2020({ strict: false, allErrors: true })
      addFormats(ajv)
      // The whole document as one schema, so `#/components/schemas/…` refs resolve as in the document.
      ajv.addSchema({ ...structuredClone(doc), $id: 'https://contract.test/openapi.json' })
    })

    function check(path: string, method: string, code: number, body: unknown) {
      const pointer = ['paths', path, method, 'responses', String(code), 'content', 'application/json', 'schema']
        .map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')
      const validate = ajv.compile({ $ref: `https://contract.test/openapi.json#/${pointer}` })
      assert.ok(validate(body), `${method.toUpperCase()} ${path} ${code}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(body)}`)
    }

    it('the documented schemas reject a body that breaks them (so the checks below can fail)', () => {
      const validate = ajv.compile({ $ref: 'https://contract.test/openapi.json#/components/schemas/StatusOut' })
      assert.equal(validate({ status: 'operacional', ambiente: '', versao: '', servicos: [{ nome: 'api' }], manutencao: null, verificado_em: 'ontem' }), false)
      const contato = ajv.compile({ $ref: 'https://contract.test/openapi.json#/components/schemas/ContatoIn' })
      assert.equal(contato(contactBody({ email: 'not-an-email' })), false)
      assert.equal(contato(contactBody()), true)
    })

    it('the 200 answers of every GET (each documented path is served at /api, not gated)', async () => {
      for (const path of Object.keys(PATHS).filter((p) => PATHS[p]!.get)) {
        const res = await ctx.app.inject({ url: `/api${path}` })
        assert.equal(res.statusCode, 200, path)
        check(path, 'get', 200, res.json())
      }
    })

    it('the 202 and the 422 of the contact form', async () => {
      const accepted = await ctx.app.inject({
        method: 'POST', url: '/api/site/contato', payload: contactBody({ assunto: 'suporte', telefone: '+55 11 99999-0000' }),
      })
      assert.equal(accepted.statusCode, 202)
      check('/site/contato', 'post', 202, accepted.json())
      const invalid = await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody({ email: 'x', nome: 'M', mensagem: undefined }) })
      assert.equal(invalid.statusCode, 422)
      check('/site/contato', 'post', 422, invalid.json())
      const malformed = await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: '{"nome":', headers: { 'content-type': 'application/json' } })
      assert.equal(malformed.statusCode, 422)
      check('/site/contato', 'post', 422, malformed.json())
    })

    it('/status with an upcoming and with an ongoing maintenance window', async () => {
      const orm = ctx.app.deps.db.orm
      const now = new Date()
      await declareWindow(orm, { inicio: new Date(now.getTime() + 3_600_000), fim: null, mensagem: null }, now)
      await ctx.app.deps.snapshot.refresh()
      let body = (await ctx.app.inject({ url: '/api/status' })).json()
      assert.notEqual(body.manutencao, null)
      assert.equal(body.manutencao.fim, null)
      assert.equal(body.manutencao.mensagem, null)
      check('/status', 'get', 200, body)

      await declareWindow(orm, { inicio: new Date(now.getTime() - 60_000), fim: new Date(now.getTime() + 600_000), mensagem: 'Atualização do banco' }, now)
      await ctx.app.deps.snapshot.refresh()
      body = (await ctx.app.inject({ url: '/api/status' })).json()
      assert.equal(body.manutencao.em_curso, true)
      check('/status', 'get', 200, body)
    })

    it('the 429 of every operation', async (t) => {
      const one = { max: 1, windowSeconds: 60 }
      const file = serviceConfigFile({ rateLimits: { leitura: one, contato: one, restrito: one } })
      const limited = await testApp(t, { db: ctx.db, env: { ...PATIENT, SERVICE_CONFIG_FILE: file } })
      for (const [path, methods] of Object.entries(PATHS)) {
        for (const method of Object.keys(methods)) {
          const req = {
            method: method.toUpperCase() as 'GET', url: `/api${path}`, remoteAddress: '192.0.2.77', ...(method === 'post' ? { payload: contactBody() } : {}),
          }
          await limited.inject(req)
          const res = await limited.inject(req)
          assert.equal(res.statusCode, 429, `${method} ${path}`)
          check(path, method, 429, res.json())
        }
      }
    })
  })
})

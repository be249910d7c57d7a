// The published contract is a valid OpenAPI 3.1 document that Spectral's OAS ruleset accepts, and describes the bodies the app really serves.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import formats from 'ajv-formats'
import { declareWindow } from '../../../src/modules/status/maintenance.ts'
import { contactBody, PATIENT, serviceConfigFile } from '../../helpers/app.ts'
import { testApp, useTestApp } from '../../helpers/fixture.ts'
import { type Doc, PATHS, ref, servedDocument } from '../../helpers/openapi.ts'
import { tempDir } from '../../helpers/temp.ts'

const run = promisify(execFile)
const addFormats = formats as unknown as typeof formats.default

describe('OpenAPI document', () => {
  const ctx = useTestApp({ env: PATIENT })
  let doc: Doc
  let tmp: string
  before(async () => {
    doc = await servedDocument(ctx.app)
    tmp = tempDir('openapi-test')
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

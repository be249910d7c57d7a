// The error catalogue (src/platform/http/problem-catalogue.ts) against what is published about it: the table of codes
// on /docs (content/docs.md) and the error answers the OpenAPI document declares; and the factory built on it.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { problemOf } from '../../../src/platform/http/errors.ts'
import { PROBLEMS, VALIDATION_STATUS, type CatalogueEntry } from '../../../src/platform/http/problem-catalogue.ts'
import { problem, type DetailCode } from '../../../src/platform/http/problem.ts'
import { RequestValidationError } from '../../../src/platform/http/validation-errors.ts'
import { TimeoutError } from '../../../src/platform/lib/timeout.ts'
import { testApp } from '../../helpers/fixture.ts'

const catalogue: [DetailCode, CatalogueEntry][] = Object.entries(PROBLEMS) as [DetailCode, CatalogueEntry][]

type TableRow = { status: number, cell: string, code: string | undefined }

/** The rows of the "Códigos de erro" table: status, the `detail` cell and the code it names first. */
function publishedTable(): TableRow[] {
  const md = readFileSync(new URL('../../../content/docs.md', import.meta.url), 'utf8')
  const section = md.slice(md.indexOf('### Códigos de erro'))
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('|')))
  return table.split('\n').filter((l) => /^\| .* \| \d{3} \|/.test(l)).map((line) => {
    const cells = line.split(' | ')
    const cell = cells[2]!.replace(/ \|$/, '')
    return { status: Number(cells[1]), cell, code: /^`([a-z_]+)`/.exec(cell)?.[1] }
  })
}

describe('the error catalogue', () => {
  describe('and the table published on /docs', () => {
    const rows = publishedTable()

    it('is found (the parser reads the table)', () => {
      assert.ok(rows.length >= catalogue.length, `${rows.length} rows`)
    })

    for (const [code, entry] of catalogue) {
      if (entry.unpublished) continue
      it(`publishes ${code} with status ${entry.status} and its headers`, () => {
        const row = rows.find((r) => r.code === code)
        assert.ok(row, `no row names \`${code}\``)
        assert.equal(row.status, entry.status)
        for (const name of Object.keys(entry.headers ?? {})) {
          assert.match(row.cell, new RegExp(`\`${name}(: [^\`]*)?\``, 'i'), `${code}: the row names its ${name} header`)
        }
      })
    }

    it('lists nothing the catalogue does not hold (besides the 422 and its list)', () => {
      for (const row of rows) {
        if (row.status === VALIDATION_STATUS && row.code === undefined) continue
        const entry = row.code === undefined ? undefined : (PROBLEMS as Record<string, CatalogueEntry>)[row.code]
        assert.ok(entry && !entry.unpublished, `the row "${row.cell}" names no published code of the catalogue`)
        assert.equal(entry.status, row.status, row.cell)
      }
      assert.equal(rows.filter((r) => r.status === VALIDATION_STATUS && r.code === undefined).length, 1, 'one row for the 422 list')
    })
  })

  describe('and the OpenAPI document', () => {
    it('declares only catalogue codes, each under its catalogue status, and the 422 as the list', async (t) => {
      const app = await testApp(t)
      type Media = { schema?: { $ref?: string, properties?: { detail?: { examples?: unknown[] } } } }
      type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, Media> }> }>> }
      const doc = (await app.inject({ url: '/openapi.json' })).json<Doc>()
      let declared = 0
      for (const [path, operations] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(operations)) {
          for (const [status, response] of Object.entries(op.responses)) {
            if (Number(status) < 400) continue
            const schema = response.content?.['application/json']?.schema
            if (Number(status) === VALIDATION_STATUS) {
              assert.equal(schema?.$ref, '#/components/schemas/HTTPValidationError', `${method} ${path} ${status}`)
              continue
            }
            const examples = schema?.properties?.detail?.examples ?? []
            assert.ok(examples.length > 0, `${method} ${path} ${status}: no detail code`)
            for (const code of examples) {
              const entry = (PROBLEMS as Record<string, CatalogueEntry>)[String(code)]
              assert.ok(entry, `${method} ${path} ${status}: ${String(code)} is not in the catalogue`)
              assert.equal(entry.status, Number(status), `${method} ${path}: ${String(code)}`)
              declared++
            }
          }
        }
      }
      assert.ok(declared >= 7, `${declared} error answers declared`)
    })
  })
})

describe('the error factory', () => {
  it('takes the status and the fixed headers from the catalogue, and the per-answer ones from the caller', () => {
    const denied = problem('nao_aceitavel')
    assert.equal(denied.statusCode, 406)
    assert.deepEqual(denied.headers, { 'cache-control': 'no-store' })
    const wrongMethod = problem('metodo_nao_permitido', { allow: 'GET, HEAD' })
    assert.equal(wrongMethod.statusCode, 405)
    assert.deepEqual(wrongMethod.headers, { allow: 'GET, HEAD' })
    assert.deepEqual(problem('nao_aceitavel').body, { detail: 'nao_aceitavel', aceitos: ['text/html', 'text/markdown'] })
  })

  it('refuses at compile time a missing per-answer header or a code outside the catalogue', () => {
    const typeChecks = () => [
      // @ts-expect-error Allow is given per answer
      problem('metodo_nao_permitido'),
      // @ts-expect-error Retry-After is given per answer
      problem('servico_indisponivel'),
      // @ts-expect-error not a code of the catalogue
      problem('nao_existe'),
    ]
    assert.equal(typeof typeChecks, 'function') // npm run typecheck checks the lines above; they never run
  })

  it('maps any error to its answer: its own, a Fastify status, or erro_interno', () => {
    const req = {} as Parameters<typeof problemOf>[1]
    const own = problem('banco_indisponivel', { 'retry-after': '5' })
    assert.equal(problemOf(own, req), own)
    const invalid = new RequestValidationError([])
    assert.equal(problemOf(invalid, req), invalid)
    const detail = (err: unknown) => problemOf(err, req).body.detail
    assert.equal(detail(Object.assign(new Error('body'), { statusCode: 413 })), 'corpo_muito_grande')
    assert.equal(detail(Object.assign(new Error('limit'), { statusCode: 429 })), 'limite_de_requisicoes')
    assert.equal(detail(Object.assign(new Error('length'), { statusCode: 400 })), 'requisicao_invalida')
    assert.equal(detail(Object.assign(new Error('media'), { statusCode: 415 })), 'requisicao_invalida')
    assert.equal(detail(Object.assign(new Error('upstream'), { statusCode: 502 })), 'erro_interno')
    assert.equal(detail(new TypeError('a bug')), 'erro_interno')
    assert.equal(detail('not even an error'), 'erro_interno')
  })

  it('a database that did not answer is 503 banco_indisponivel with Retry-After, also wrapped as a query error\'s cause', () => {
    const req = {} as Parameters<typeof problemOf>[1]
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
    const unavailable = [
      new TimeoutError('timed out after 400 ms'),
      refused,
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      new Error('Connection terminated unexpectedly'),
      new Error('Failed query: UPDATE tokens …', { cause: refused }),
    ]
    for (const err of unavailable) {
      const answer = problemOf(err, req)
      assert.deepEqual([answer.statusCode, answer.body.detail, answer.headers['retry-after']], [503, 'banco_indisponivel', '5'], String(err))
    }
    // A query the database refused is our fault, not its absence.
    assert.equal(problemOf(Object.assign(new Error('syntax error'), { code: '42601' }), req).body.detail, 'erro_interno')
  })
})

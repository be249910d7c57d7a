// Fuzzing the registers (part of `npm run test:fuzz`, issue 19): random and hostile bodies and queries on
// /api/cedentes and /api/sacados (unknown fields, wrong types, fractional, huge and negative centavos, documents
// with and without punctuation or check digits, control and bidi characters, unknown enums, odd cursors). Never
// a 5xx, never a line logged at error level; every 201 and 200 answers a register the rules allow. The seed is
// printed; FUZZ_SEED=<seed> replays a failure.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { parseDocumento } from '../../src/modules/origination/documento.ts'
import { bearer, issueToken } from '../helpers/api-credentials.ts'
import { hostileText, unthrottledEnv } from './kit.ts'
import { customer } from '../helpers/credentials.ts'
import { useTestApp } from '../helpers/fixture.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 19_2026)
const RUNS = Number(process.env.FUZZ_REGISTER_RUNS ?? 200)
console.log(`fuzz (registers): seed ${SEED}, ${RUNS} requests (replay with FUZZ_SEED=${SEED})`)

const text = hostileText
const documento = fc.oneof(
  fc.constantFrom('11.222.333/0001-81', '11222333000181', '12ABC34501DE35', '12.abc.345/01de-35', '111.444.777-35', '11144477735',
    '11222333000182', '11111111111', '00000000000000', '1234', '12ABC34501DE3X'),
  fc.stringMatching(/^[0-9A-Za-z./ -]{0,22}$/), text)
const centavos = fc.oneof(fc.integer(), fc.constantFrom(2 ** 53, 2 ** 53 - 1, -1, 0, 1.5, 1e300, '100', null, true, [], {}))
const conta = fc.record({ banco: fc.oneof(fc.constantFrom('341', '001'), text), agencia: fc.oneof(fc.constant('1'), text),
  conta: fc.oneof(fc.constant('12'), text), digito: fc.oneof(fc.constantFrom('0', 'X', 'x'), text), titular_documento: documento }, { requiredKeys: [] })
const FIELDS = ['documento', 'razao_social', 'nome_fantasia', 'email', 'telefone', 'municipio_ibge', 'uf', 'limite_centavos', 'perfil_iof',
  'motivo_isencao', 'declaracao_simples', 'contas_bancarias', 'estado', 'id_externo', 'extra'] as const
const declaracao = fc.record({ data: fc.oneof(fc.constantFrom('2026-01-01', '2007-06-30', '2999-01-01', '2026-02-30'), text),
  sha256: fc.oneof(fc.constant('ab'.repeat(32)), text) }, { requiredKeys: [] })
const hostileValue = fc.oneof(documento, text, centavos, fc.array(conta, { maxLength: 3 }), declaracao,
  fc.constantFrom('pj', 'pj_simples', 'pf', 'isento', 'comprador_fidc', 'SP', 'bloqueado'))
/** A body the rules accept for its kind, with up to two of its fields (or unknown ones) set to a random value. */
const body = (kind: 'cedentes' | 'sacados') => fc.record({
  documento: fc.constantFrom('11.222.333/0001-81', '12ABC34501DE35', '111.444.777-35', '52998224725', '39053344705', '12.abc.345/01de-35'),
  limite: fc.option(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), { nil: null }),
  changes: fc.array(fc.tuple(fc.constantFrom(...FIELDS), hostileValue), { maxLength: 2 }),
}).map(({ documento: doc, limite, changes }) => {
  const base: Record<string, unknown> = {
    documento: doc, razao_social: 'Empresa Exemplo', limite_centavos: limite,
    ...(kind === 'cedentes' ? { perfil_iof: doc.replace(/\W/g, '').length === 11 ? 'pf' : 'pj' } : {}),
  }
  for (const [field, value] of changes) base[field] = value
  return base
})
const query = fc.record({
  limite: fc.oneof(fc.constantFrom('1', '200', '201', '0', '-1', '1.5', 'abc'), fc.integer().map(String)),
  antes: fc.oneof(fc.constantFrom('1', '0', '9'.repeat(20), 'x'), fc.integer().map(String)), documento, estado: text, id_externo: text,
  // Issue 32's list parameters: a search (LIKE's own % _ \\ among them), an order from a closed list, a page.
  busca: fc.oneof(fc.constantFrom('%', '_', '\\', '%_\\', 'ação', '11.222.333/0001-81', ' ', ''), text),
  ordem: fc.oneof(fc.constantFrom('razao_social', '-razao_social', 'documento', '-documento', 'criado', '-criado', 'limite', '--criado'), text),
  pagina: fc.oneof(fc.constantFrom('1', '2', '999999', '1000000', '0', '-1', '1e3'), fc.integer().map(String)),
}, { requiredKeys: [] })

describe('fuzz: registers', () => {
  const logs: object[] = []
  const ctx = useTestApp(() => ({ env: unthrottledEnv(), logs, logLevel: 'error' }))

  it('random bodies and queries: 2xx, 4xx or 422, never a 5xx or a logged error; what is kept keeps the rules', async () => {
    const c = await customer(ctx.db)
    const { token } = await issueToken(ctx.db, c.id, { escopos: ['cadastro'] })
    const request = fc.oneof(
      fc.constantFrom('cedentes' as const, 'sacados' as const).chain((kind) => body(kind).map((b) => ({ method: 'POST' as const, url: `/api/${kind}`, b }))),
      fc.constantFrom('cedentes' as const, 'sacados' as const).chain((kind) => body(kind).map((b) => {
        const { documento: _d, id_externo: _i, ...change } = b
        return { method: 'PATCH' as const, url: `/api/${kind}/`, b: change }
      })),
      fc.record({ kind: fc.constantFrom('cedentes', 'sacados'), q: query }).map(({ kind, q }) => ({
        method: 'GET' as const, url: `/api/${kind}?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`, b: undefined,
      })),
    )
    let ids: string[] = []
    const statuses = new Map<number, number>()
    await fc.assert(fc.asyncProperty(request, async (r) => {
      const url = r.method === 'PATCH' ? `${r.url}${ids[0] ?? '00000000-0000-4000-8000-000000000000'}` : r.url
      const res = await ctx.app.inject({ method: r.method, url, headers: { authorization: `Bearer ${token}` }, ...(r.b === undefined ? {} : { payload: r.b }) })
      assert.ok(res.statusCode < 500, `${r.method} ${url} ${JSON.stringify(r.b)}: ${res.statusCode} ${res.body}`)
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
      if (res.statusCode === 201) ids = [res.json().id, ...ids]
      if (res.statusCode === 200 || res.statusCode === 201) {
        const kept = r.method === 'GET' ? res.json().itens : [res.json()]
        for (const p of kept) {
          assert.ok(typeof parseDocumento(p.documento) === 'object', p.documento)
          assert.ok(p.limite_centavos === null || Number.isSafeInteger(p.limite_centavos))
          if (p.perfil_iof === undefined) continue
          // The IOF profile fits the party, with its reason or its declaration and only then (issue 31 item 4).
          assert.ok(p.perfil_iof === 'isento' || (p.perfil_iof === 'pf') === (p.tipo_pessoa === 'pf'), `${p.perfil_iof} for ${p.documento}`)
          assert.equal(p.motivo_isencao !== null, p.perfil_iof === 'isento')
          assert.equal(p.declaracao_simples !== null, p.perfil_iof === 'pj_simples')
        }
      }
    }), { seed: SEED, numRuns: RUNS })
    assert.deepEqual(logs, [], 'nothing logged at error level')
    // The run reached the stores and the refusals both, not only one of them (a rate limit, a broken token).
    for (const status of [200, 201, 422]) assert.ok(statuses.get(status), `some ${status} among ${JSON.stringify([...statuses])}`)
    assert.equal((await bearer(ctx.app, token, 'GET', '/api/cedentes')).statusCode, 200)
  })
})

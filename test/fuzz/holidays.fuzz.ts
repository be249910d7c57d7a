// Fuzzing the holidays (part of `npm run test:fuzz`, issue 19): random and hostile bodies and queries on
// /api/feriados (days that do not exist, ranges backwards or over ten years, both places or neither, unknown and
// odd municipalities and states, hostile descriptions, wrong types) and removals of ids that are not, or are
// another's. Never a 5xx, never a logged error; every 201 is a holiday the rules allow, and a list answers only
// days inside its range, in order. The seed is printed; FUZZ_SEED=<seed> replays a failure.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { bearer, issueToken } from '../helpers/api-credentials.ts'
import { hostileText, unthrottledEnv } from './kit.ts'
import { customer } from '../helpers/credentials.ts'
import { useTestApp } from '../helpers/fixture.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 19_2026)
const RUNS = Number(process.env.FUZZ_HOLIDAY_RUNS ?? 200)
console.log(`fuzz (holidays): seed ${SEED}, ${RUNS} requests (replay with FUZZ_SEED=${SEED})`)

const text = hostileText
const day = fc.oneof(
  fc.date({ min: new Date('1900-01-01'), max: new Date('2200-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.constantFrom('2026-02-29', '2028-02-29', '2026-02-30', '2026-13-01', '2026-00-10', '0000-01-01', '9999-12-31', '2026-1-1', '20261001', ''),
  text, fc.integer(), fc.constant(null))
const municipio = fc.oneof(fc.constantFrom('3550308', '3304557', '5300108', '1100015', '0000000', '9999999', '355030', '35503080'), text, fc.integer())
const uf = fc.oneof(fc.constantFrom('SP', 'RJ', 'DF', 'sp', 'XX', ''), text)
const validDay = fc.date({ min: new Date('2001-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10))
const place = fc.oneof(fc.record({ municipio_ibge: fc.constantFrom('3550308', '3304557', '5300108') }), fc.record({ uf: fc.constantFrom('SP', 'RJ', 'DF') }))
const hostile = fc.oneof(day, municipio, uf, text)
/** A body the rules accept, with up to two of its fields (or unknown ones) set to a random value. */
const body = fc.record({
  data: validDay, place, changes: fc.array(fc.tuple(fc.constantFrom('data', 'descricao', 'municipio_ibge', 'uf', 'extra'), hostile), { maxLength: 2 }),
}).map(({ data, place: where, changes }) => {
  const b: Record<string, unknown> = { data, descricao: 'Feriado de teste', ...where }
  for (const [field, value] of changes) b[field] = value
  return b
})
/** A range the rules accept (up to ten years), or one with a field set to a random value. */
const range = fc.record({
  de: validDay, dias: fc.integer({ min: 0, max: 3700 }), municipio: fc.option(fc.constantFrom('3550308', '3304557'), { nil: undefined }),
  changes: fc.array(fc.tuple(fc.constantFrom('de', 'ate', 'municipio_ibge', 'outro'), hostile), { maxLength: 1 }),
}).map(({ de, dias, municipio: m, changes }) => {
  const q: Record<string, unknown> = { de, ate: new Date(Date.parse(de) + dias * 86_400_000).toISOString().slice(0, 10), ...(m ? { municipio_ibge: m } : {}) }
  for (const [field, value] of changes) q[field] = value
  return q
})

describe('fuzz: holidays', () => {
  const logs: object[] = []
  const ctx = useTestApp(() => ({ env: unthrottledEnv(), logs, logLevel: 'error' }))

  it('random bodies, ranges and removals: never a 5xx or a logged error; what is kept and listed keeps the rules', async () => {
    const c = await customer(ctx.db)
    const { token } = await issueToken(ctx.db, c.id, { escopos: ['cadastro'] })
    const other = await customer(ctx.db)
    const theirs = await bearer(ctx.app, (await issueToken(ctx.db, other.id, { escopos: ['cadastro'] })).token, 'POST', '/api/feriados',
      { payload: { data: '2027-01-25', descricao: 'Aniversário de São Paulo', municipio_ibge: '3550308' }, headers: { 'idempotency-key': randomUUID() } })
    assert.equal(theirs.statusCode, 201, theirs.body)
    const mine: string[] = []
    const statuses = new Map<string, number>()
    const request = fc.oneof(
      body.map((b) => ({ method: 'POST' as const, url: '/api/feriados', b })),
      range.map((q) => ({
        method: 'GET' as const, url: `/api/feriados?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`, b: undefined,
      })),
      fc.oneof(fc.constant('mine'), fc.uuid(), text.map(encodeURIComponent)).map((id) => ({ method: 'DELETE' as const, url: id, b: undefined })),
    )
    await fc.assert(fc.asyncProperty(request, async (r) => {
      // 'mine': the newest of this customer's still kept, else the other customer's (which must stay theirs).
      const url = r.method === 'DELETE' ? `/api/feriados/${r.url === 'mine' ? mine.pop() ?? theirs.json().id : r.url}` : r.url
      const res = await bearer(ctx.app, token, r.method, url, {
        ...(r.b === undefined ? {} : { payload: r.b }), ...(r.method === 'GET' ? {} : { headers: { 'idempotency-key': randomUUID() } }),
      })
      assert.ok(res.statusCode < 500, `${r.method} ${url} ${JSON.stringify(r.b)}: ${res.statusCode} ${res.body}`)
      statuses.set(`${r.method} ${res.statusCode}`, (statuses.get(`${r.method} ${res.statusCode}`) ?? 0) + 1)
      if (r.method === 'POST' && res.statusCode === 201) {
        const h = res.json()
        mine.push(h.id)
        assert.match(h.data, /^\d{4}-\d{2}-\d{2}$/)
        assert.equal(new Date(`${h.data}T00:00:00Z`).toISOString().slice(0, 10), h.data, 'a day that exists')
        // One place: a municipality (its state named with it) or a state alone.
        assert.equal(h.abrangencia, h.municipio_ibge === null ? 'estadual' : 'municipal', res.body)
        assert.match(h.uf, /^[A-Z]{2}$/, res.body)
      }
      if (r.method === 'GET' && res.statusCode === 200) {
        const q = new URL(url, 'http://x').searchParams
        const days = (res.json().itens as { data: string }[]).map((h) => h.data)
        assert.deepEqual(days, [...days].sort(), 'in order')
        for (const d of days) assert.ok(d >= q.get('de')! && d <= q.get('ate')!, `${d} inside ${q.get('de')}..${q.get('ate')}`)
      }
    }), { seed: SEED, numRuns: RUNS })
    console.log(`fuzz (holidays): ${JSON.stringify(Object.fromEntries(statuses))}`)
    assert.deepEqual(logs, [])
    // Another customer's holiday is theirs still: no removal reached it.
    const still = await bearer(ctx.app, token, 'DELETE', `/api/feriados/${theirs.json().id}`, { headers: { 'idempotency-key': randomUUID() } })
    assert.equal(still.statusCode, 404)
  })
})

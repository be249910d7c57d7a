// Fuzzing the collection accounts (part of `npm run test:fuzz`, issue 33): random and hostile bodies on every
// /api/contas-cobranca route (each bank's fields right and wrong, CNAB layouts, sequences up, down and past the bank's
// digits, PIX keys with blanks and controls, unknown fields, other ids, ids that are not ids), lists with hostile
// queries, confirmations by the person who added and by another. Never a 5xx, never a line logged at error level; the
// sequences of every account only ever go up, and a confirmed account is never confirmed by whoever added it.
// The seed is printed; FUZZ_SEED=<seed> replays a failure.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { unthrottledEnv } from './kit.ts'
import { mod10 } from '../../src/modules/collections/boleto/modulos.ts'
import { rowsAs } from '../helpers/credentials.ts'
import { useTestApp } from '../helpers/fixture.ts'
import validator from 'boleto-brasileiro-validator'
import { backOffice, created, EXAMPLE_NOW, formalizedExample, key, settableClock } from '../modules/operations/helpers.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 33_2026)
const RUNS = Number(process.env.FUZZ_COLLECTION_RUNS ?? 250)
console.log(`fuzz (collections): seed ${SEED}, ${RUNS} requests (replay with FUZZ_SEED=${SEED})`)

const HOSTILE = ['\x1b[31m', '\u202e', '\n', '\u0000', 'a\u0000b', '😀', '<script>', '"', ' ', '']
const text = fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 20 }))
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 5 }, { arbitrary: bad, weight: 1 })
const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`))
const hostile = fc.oneof(text, fc.constantFrom(-1, 0, 1.5, 2 ** 53, 1e300, null, true, [], {}, '1'))
const sequence = mostly(fc.integer({ min: 1, max: 10 ** 12 }), hostile)

describe('fuzz: collection accounts', () => {
  const logs: object[] = []
  // The example's day: its operation is dated 2026-10-05 (a day before that is refused).
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp(() => ({ env: unthrottledEnv(), logs, logLevel: 'error', deps: { clock } }))

  it('random requests on every collection account route: never a 5xx or a logged error; sequences only go up', async () => {
    const { clienteId, operador, aprovador } = await backOffice(ctx.db, ctx.app, clock)
    const accounts: string[] = []
    const target = mostly(fc.nat(3), fc.constantFrom(randomUUID(), 'x', '%00', '00000000-0000-4000-8000-000000000000'))
      .map((x) => (typeof x === 'number' ? accounts[x] ?? accounts[0] ?? randomUUID() : x))
    const account = fc.record({
      nome: mostly(fc.constantFrom('Cobrança', 'Itaú 109'), text),
      banco: mostly(fc.constantFrom('001', '033', '104', '237', '341'), text),
      agencia: mostly(digits(4, 4), text), agencia_digito: fc.option(mostly(fc.constantFrom('1', 'X'), text), { nil: undefined }),
      conta: mostly(digits(1, 8), text), conta_digito: mostly(fc.constantFrom('0', '1', '7', 'X', 'P'), text),
      carteira: mostly(fc.constantFrom('17', '101', '109', '09', '1', 'RG'), text),
      convenio: fc.option(mostly(fc.oneof(digits(6, 7), fc.constant(null)), text), { nil: undefined }),
      layout_cnab: fc.option(mostly(fc.constantFrom('240', '400'), hostile), { nil: undefined }),
      transporte: fc.option(mostly(fc.constantFrom('cnab', 'api'), text), { nil: undefined }),
      chave_pix: fc.option(mostly(fc.constantFrom('11222333000181', 'cobranca@empresa.com.br', '+5511999998888', randomUUID(), null), text),
        { nil: undefined }),
      proximo_nosso_numero: fc.option(sequence, { nil: undefined }), proxima_remessa: fc.option(sequence, { nil: undefined }),
      id_externo: fc.option(mostly(fc.constantFrom('C1', 'C2'), text), { nil: undefined }),
      extra: fc.option(text, { nil: undefined }),
    }, { requiredKeys: ['nome', 'banco', 'agencia', 'conta', 'conta_digito', 'carteira'] })
    const patch = fc.record({
      nome: mostly(fc.constant('Renomeada'), text), convenio: mostly(fc.oneof(digits(6, 7), fc.constant(null)), text),
      layout_cnab: mostly(fc.constantFrom('240', '400'), hostile), transporte: mostly(fc.constantFrom('cnab', 'api'), text),
      chave_pix: mostly(fc.constantFrom('x@y.com.br', null), text), ativa: mostly(fc.boolean(), hostile),
      proximo_nosso_numero: sequence, proxima_remessa: sequence, banco: fc.constantFrom('001', '341'), conta: digits(5, 5),
    }, { requiredKeys: [] })
    // Accounts each bank takes (a random conta, so that most are new), beside the random ones.
    const banks = fc.constantFrom('001', '033', '104', '237', '341')
    const good = fc.tuple(banks, digits(5, 5), fc.option(sequence, { nil: undefined })).map(([banco, conta, nn]) => ({
      nome: `Conta ${banco}`, banco, agencia: '1234', conta, conta_digito: banco === '341' ? String(mod10(`1234${conta}`)) : '1',
      carteira: { '001': '17', '033': '101', '104': 'RG', '237': '09', '341': '109' }[banco], proximo_nosso_numero: nn,
      ...(banco === '104' ? { convenio: '123456' } : banco === '001' || banco === '033' ? { convenio: '1234567' } : {}),
    }))
    const request = fc.oneof(
      fc.oneof({ arbitrary: good, weight: 3 }, { arbitrary: account, weight: 2 })
        .map((b) => ({ by: 'operador', method: 'POST', url: '/api/contas-cobranca', b })),
      fc.tuple(target, patch).map(([id, b]) => ({ by: 'operador', method: 'PATCH', url: `/api/contas-cobranca/${encodeURIComponent(id)}`, b })),
      fc.tuple(target, fc.boolean()).map(([id, own]) => ({
        by: own ? 'operador' : 'aprovador', method: 'POST', url: `/api/contas-cobranca/${encodeURIComponent(id)}/confirmacao`, b: undefined,
      })),
      target.map((id) => ({ by: 'aprovador', method: 'GET', url: `/api/contas-cobranca/${encodeURIComponent(id)}`, b: undefined })),
      fc.record({ limite: fc.oneof(fc.constantFrom('1', '201', '0'), text), antes: fc.oneof(fc.constantFrom('1', '1e300', '-1'), text),
        banco: fc.oneof(fc.constantFrom('341', '999'), text), ativa: fc.oneof(fc.constantFrom('true', 'false'), text) }, { requiredKeys: [] })
        .map((q) => ({ by: 'aprovador', method: 'GET', url: `/api/contas-cobranca?${new URLSearchParams(Object.entries(q))}`, b: undefined })),
    )
    const statuses = new Map<number, number>()
    const seen = new Map<string, { nn: number, rem: number }>()
    await fc.assert(fc.asyncProperty(request, async (r: { by: string, method: string, url: string, b: unknown }) => {
      const who = r.by === 'operador' ? operador : aprovador
      const res = await who.call(r.method as 'POST', r.url, r.b as object | undefined, { 'idempotency-key': randomUUID() })
      assert.ok(res.statusCode < 500, `${r.method} ${r.url} ${JSON.stringify(r.b)}: ${res.statusCode} ${res.body}`)
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
      if (res.statusCode === 201) accounts.unshift(res.json().id)
      if (res.statusCode < 300 && r.method !== 'GET') {
        const a = res.json() as { id: string, proximo_nosso_numero: number, proxima_remessa: number, confirmada_por_usuario_id: string | null,
          incluida_por_usuario_id: string }
        const before = seen.get(a.id)
        if (before) assert.ok(a.proximo_nosso_numero >= before.nn && a.proxima_remessa >= before.rem, `${r.url}: a sequence went down`)
        seen.set(a.id, { nn: a.proximo_nosso_numero, rem: a.proxima_remessa })
        assert.notEqual(a.confirmada_por_usuario_id, a.incluida_por_usuario_id)
      }
    }), { seed: SEED, numRuns: RUNS })
    assert.deepEqual(logs, [], 'nothing logged at error level')
    for (const status of [200, 201, 403, 404, 422]) assert.ok(statuses.get(status), `some ${status} among ${JSON.stringify([...statuses])}`)
    const rows = await rowsAs<{ n: string }>(ctx.db, clienteId,
      'SELECT count(*) AS n FROM contas_cobranca WHERE confirmada_por_usuario_id = incluida_por_usuario_id')
    assert.equal(Number(rows[0]!.n), 0)
  })

  it('random charges: never a 5xx or a logged error; one live charge per título; every barcode and linha valid', async () => {
    const w = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await formalizedExample(w.admin.call)
    const titulos = (op.titulos as { id: string }[]).map((t) => t.id)
    const itau = { nome: 'Itaú', banco: '341', agencia: '1234', conta: '56789', conta_digito: String(mod10('123456789')), carteira: '109' }
    const contas: string[] = []
    const bradesco = { nome: 'Bradesco', banco: '237', agencia: '1234', conta: '1234567', conta_digito: '0', carteira: '09' }
    for (const c of [itau, { ...itau, carteira: '112' }, bradesco]) {
      contas.push(created(await w.operador.call('POST', '/api/contas-cobranca', c)).id)
    }
    for (const id of [contas[0], contas[2]]) created(await w.aprovador.call('POST', `/api/contas-cobranca/${id}/confirmacao`, undefined, key()), 200)
    const charges: string[] = []
    const id = (list: string[]) => mostly(fc.nat(5), fc.constantFrom(randomUUID(), 'x', '%00', '00000000-0000-4000-8000-000000000000'))
      .map((x) => (typeof x === 'number' ? list[x % Math.max(list.length, 1)] ?? randomUUID() : x))
    const rate = mostly(fc.constantFrom('0', '0.01', '0.02', '0.020', '0.1', '0.11', '0.000000000001', '0.2'), hostile)
    const body = fc.record({
      titulo_id: id(titulos), conta_cobranca_id: id(contas), nosso_numero: fc.option(mostly(digits(1, 16), hostile), { nil: undefined }),
      juros: fc.option(mostly(fc.oneof(
        fc.record({ tipo: fc.constant('valor_dia'), valor_centavos: mostly(fc.integer({ min: 1, max: 10 ** 6 }), hostile) }),
        fc.record({ tipo: fc.constant('taxa_mensal'), taxa: rate }), fc.constant({ tipo: 'isento' }),
      ), hostile), { nil: undefined }),
      multa_percentual: fc.option(rate, { nil: undefined }),
      desconto: fc.option(mostly(fc.record({ valor_centavos: mostly(fc.integer({ min: 1, max: 3_000_000 }), hostile),
        ate: mostly(fc.constantFrom('2026-10-30', '2026-11-04', '2026-12-31', '2026-02-30'), text) }), hostile), { nil: undefined }),
      protesto_dias: fc.option(mostly(fc.integer({ min: 0, max: 99 }), hostile), { nil: undefined }),
      extra: fc.option(text, { nil: undefined }),
    }, { requiredKeys: ['titulo_id', 'conta_cobranca_id'] })
    // Charges that should be made (while the título has none): each título with a confirmed account, the terms in range.
    const good = fc.record({
      titulo_id: fc.constantFrom(...titulos), conta_cobranca_id: fc.constantFrom(contas[0]!, contas[2]!),
      multa_percentual: fc.option(fc.constantFrom('0', '0.01', '0.02'), { nil: undefined }),
      juros: fc.option(fc.constantFrom({ tipo: 'isento' }, { tipo: 'valor_dia', valor_centavos: 33 }, { tipo: 'taxa_mensal', taxa: '0.01' }),
        { nil: undefined }),
      protesto_dias: fc.option(fc.integer({ min: 0, max: 99 }), { nil: undefined }),
    }, { requiredKeys: ['titulo_id', 'conta_cobranca_id'] })
    const request = fc.oneof(
      fc.tuple(fc.oneof(good, body), fc.boolean()).map(([b, keyed]) => ({ method: 'POST', url: '/api/cobrancas', b, keyed })),
      id(charges).map((c) => ({ method: 'GET', url: `/api/cobrancas/${encodeURIComponent(c)}`, b: undefined, keyed: false })),
      fc.tuple(id(charges), fc.option(fc.oneof(fc.constantFrom('pdf', 'html', 'md'), text), { nil: undefined })).map(([c, f]) => ({
        method: 'GET', url: `/api/cobrancas/${encodeURIComponent(c)}/boleto${f === undefined ? '' : `?formato=${encodeURIComponent(f)}`}`,
        b: undefined, keyed: false,
      })),
      fc.record({ limite: fc.oneof(fc.constantFrom('1', '201'), text), estado: fc.oneof(fc.constantFrom('a_registrar', 'paga'), text),
        titulo_id: id(titulos), conta_cobranca_id: id(contas) }, { requiredKeys: [] })
        .map((q) => ({ method: 'GET', url: `/api/cobrancas?${new URLSearchParams(Object.entries(q))}`, b: undefined, keyed: false })),
    )
    const statuses = new Map<number, number>()
    await fc.assert(fc.asyncProperty(request, async (r: { method: string, url: string, b: unknown, keyed: boolean }) => {
      const res = await w.operador.call(r.method as 'POST', r.url, r.b as object | undefined, r.keyed ? key() : undefined)
      assert.ok(res.statusCode < 500, `${r.method} ${r.url} ${JSON.stringify(r.b)}: ${res.statusCode} ${res.body}`)
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
      if (res.statusCode === 201) {
        const c = res.json() as { id: string, codigo_barras: string, linha_digitavel: string }
        charges.unshift(c.id)
        assert.ok(validator.boletoBancarioCodigoBarras(c.codigo_barras) && validator.boletoBancarioLinhaDigitavel(c.linha_digitavel), res.body)
      }
    }), { seed: SEED, numRuns: RUNS })
    assert.deepEqual(logs, [], 'nothing logged at error level')
    for (const status of [200, 201, 400, 404, 409, 422]) assert.ok(statuses.get(status), `some ${status} among ${JSON.stringify([...statuses])}`)
    const live = await rowsAs<{ n: string }>(ctx.db, w.clienteId,
      `SELECT count(*) AS n FROM cobrancas WHERE estado IN ('a_registrar', 'registrada') GROUP BY titulo_id HAVING count(*) > 1`)
    assert.deepEqual(live, [])
  })
})

// Fuzzing the product's operations, payments, simulations and ledger (part of `npm run test:fuzz`, issue 19):
// random and hostile bodies and queries on every product route (fractional, huge and negative centavos, days that
// do not exist or out of range, unknown enums, mismatched types, unknown fields, other ids), pricing terms and their
// versions, the IOF table, and each resource read by its id or by text that is not one. Never a 5xx, never a
// line logged at error level; every quote kept has totals that are the sums of its lines. The seed is printed;
// FUZZ_SEED=<seed> replays a failure.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { unthrottledEnv } from './kit.ts'
import { useTestApp } from '../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, EXAMPLE_PRODUCT, exampleRegisters, settableClock } from '../modules/operations/helpers.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 19_2027)
const RUNS = Number(process.env.FUZZ_OPERATION_RUNS ?? 250)
console.log(`fuzz (operations): seed ${SEED}, ${RUNS} requests (replay with FUZZ_SEED=${SEED})`)

const HOSTILE = ['\x1b[31m', '\u202e', '\n', '\u0000', 'a\u0000b', '😀', '<script>', '"', ' ', '']
const text = fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 20 }))
/** Mostly values the rules accept, so that requests reach the stores as often as the refusals. */
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 5 }, { arbitrary: bad, weight: 1 })
const day = mostly(fc.constantFrom('2026-10-05', '2026-10-06', '2026-11-04', '2026-11-20', '2026-12-04', '2027-01-01'), fc.oneof(
  fc.constantFrom('2026-02-30', '2026-13-01', '0000-01-01', '9999-12-31', '2199-12-31', '1999-12-31', '2036-10-05', '2026-1-5', '05/10/2026'), text))
const centavos = mostly(fc.integer({ min: 1, max: 10_000_000 }), fc.constantFrom(2 ** 53, 2 ** 53 - 1, -1, 0, 1.5, 0.01, 1e300, '100', null, true, [], {}))
const rate = mostly(fc.constantFrom('0.035', '0.5', '0.999999999999', '0.000000000001'), fc.oneof(fc.constantFrom('0', '1', '-0.01', '1e-3', '.5',
  'NaN'), text, fc.double()))
const tipo = mostly(fc.constantFrom('duplicata_mercantil', 'duplicata_servico', 'cheque', 'nota_promissoria', 'ccb', 'cte'), text)
const chave = fc.constantFrom(undefined, '52060433009911002506550120000007800267301615', '43150108287693000157651010000000971000001251',
  '52060433009911002506550120000007800267301614', '1'.repeat(44), 'x')

const hostile = fc.oneof(text, centavos, rate, day, fc.constantFrom(randomUUID(), '00000000-0000-4000-8000-000000000000', 'not-a-uuid'))

describe('fuzz: operations, payments, simulations, ledger', () => {
  const logs: object[] = []
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp(() => ({ env: unthrottledEnv(), deps: { clock }, logs, logLevel: 'error' }))

  it('random requests on every product route: never a 5xx or a logged error; quotes kept add up', async () => {
    const { admin } = await backOffice(ctx.db, ctx.app, clock)
    const { produto, cedente, sacados } = await exampleRegisters(admin.call)
    const sacado = mostly(fc.constantFrom(...sacados.map((s: { id: string }) => s.id)), fc.constantFrom(randomUUID(), 'x'))
    const titulo = fc.record({
      tipo, numero: mostly(fc.constant('T'), text), sacado_id: sacado, emissao: day, vencimento: day, valor_face_centavos: centavos, chave_nfe: chave,
    }, { requiredKeys: ['tipo', 'numero', 'sacado_id', 'emissao', 'vencimento', 'valor_face_centavos'] })
    const ops: string[] = []
    const payments: string[] = []
    const titles: string[] = []
    const products: string[] = [produto.id]
    const target = (list: string[]) => mostly(fc.nat(3), fc.constantFrom(randomUUID(),
      'x')).map((x) => (typeof x === 'number' ? list[x] ?? list[0] : x) ?? randomUUID())

    const request = fc.oneof(
      fc.record({ t: fc.array(titulo, { maxLength: 4 }), d: fc.option(day, { nil: undefined }), c: mostly(fc.constant(cedente.id), hostile) }).map((r) => ({
        method: 'POST', url: '/api/operacoes', b: { cedente_id: r.c, produto_id: produto.id, titulos: r.t, ...(r.d ? { data_operacao: r.d } : {}) },
      })),
      fc.tuple(target(ops), fc.array(titulo, { maxLength: 3 })).map(([id, t]) => ({ method: 'POST', url: `/api/operacoes/${id}/titulos`, b: { titulos: t } })),
      target(ops).map((id) => ({ method: 'POST', url: `/api/operacoes/${id}/cotacao`, b: undefined })),
      fc.tuple(target(ops), mostly(fc.integer({ min: 1, max: 3 }), hostile)).map(([id, v]) => ({
        method: 'POST', url: `/api/operacoes/${id}/aceite`, b: { cotacao_versao: v }, key: true,
      })),
      fc.tuple(target(ops), mostly(fc.constant('a'.repeat(64)), text), day, mostly(fc.constant('11144477735'), text)).map(([id, h, d, doc]) => ({
        method: 'POST', url: `/api/operacoes/${id}/formalizacao`, b: { termo_sha256: h, assinado_em: `${d}T10:00:00Z`, signatarios: [{ nome: 'Sócio',
          documento: doc }] },
      })),
      target(ops).map((id) => ({ method: 'POST', url: `/api/operacoes/${id}/desembolso`, b: {}, key: true })),
      fc.tuple(target(ops), mostly(fc.constant('desistência'), text)).map(([id, m]) => ({ method: 'POST', url: `/api/operacoes/${id}/cancelamento`,
        b: { motivo: m } })),
      fc.tuple(target(payments), fc.constantFrom('aprovacao', 'pagamento', 'falha', 'recusa'), text, day).map(([id, step, t, d]) => ({
        method: 'POST', url: `/api/desembolsos/${id}/${step}`,
          b: step === 'aprovacao' ? undefined : step === 'falha' || step === 'recusa' ? { motivo: t } : { id_transacao: t, pago_em: `${d}T12:00:00Z` },
        key: true,
      })),
      fc.record({ d: day, p: mostly(fc.constantFrom('pj', 'pj_simples', 'pf', 'isento'), text), r: rate, t: fc.array(titulo,
        { maxLength: 3 }) }).map((s) => ({
        method: 'POST', url: '/api/simulacoes', b: { ...EXAMPLE_PRODUCT, nome: undefined, data_operacao: s.d, perfil_iof: s.p, taxa_mensal: s.r, titulos: s.t },
      })),
      // Each resource read by its id: a known one, another customer's or nobody's, or not an id at all (hostile text).
      fc.tuple(fc.constantFrom('operacao', 'bordero', 'titulo', 'desembolso', 'produto'), fc.nat(3), fc.oneof(fc.constant(undefined), hostile),
        fc.constantFrom(undefined, 'text/markdown', 'text/html', 'application/json', '*/*', 'text/markdown;q=0, */*;q=0')).map(([kind, n, other, accept]) => {
        const list = kind === 'titulo' ? titles : kind === 'desembolso' ? payments : kind === 'produto' ? products : ops
        const id = other === undefined ? list[n] ?? list[0] ?? randomUUID() : encodeURIComponent(String(other))
        const url = kind === 'operacao' ? `/api/operacoes/${id}` : kind === 'bordero' ? `/api/operacoes/${id}/bordero`
          : kind === 'titulo' ? `/api/titulos/${id}` : kind === 'desembolso' ? `/api/desembolsos/${id}` : `/api/produtos/${id}`
        return { method: 'GET', url, b: undefined, headers: accept ? { accept } : undefined }
      }),
      fc.tuple(target(ops), mostly(fc.nat(5).map((n) => titles[n] ?? randomUUID()), hostile)).map(([id, t]) => ({
        method: 'DELETE', url: `/api/operacoes/${id}/titulos/${encodeURIComponent(String(t))}`, b: undefined,
      })),
      // Pricing terms: a product and its versions, every field now and then hostile.
      fc.record({ base: mostly(fc.constantFrom('simples_30', 'composta_30'), text), taxa_mensal: rate, taxa_ad_valorem: rate,
        tarifa_por_titulo_centavos: centavos, tac_centavos: centavos, dias_float: mostly(fc.dictionary(tipo, mostly(fc.nat(10), hostile), { maxKeys: 3 }),
          hostile), iof: mostly(fc.constantFrom('calcular', 'isento'), text), motivo_isencao: fc.option(text, { nil: undefined }),
        nome: fc.option(mostly(fc.constant('Produto'), text), { nil: undefined }), versao: fc.boolean(), n: fc.nat(3) },
      { requiredKeys: ['versao', 'n'] }).map(({ versao, n, nome, ...terms }) => (versao
        ? { method: 'POST', url: `/api/produtos/${products[n] ?? produto.id}/versoes`, b: terms }
        : { method: 'POST', url: '/api/produtos', b: { ...terms, nome } })),
      fc.constantFrom('/api/iof/aliquotas', '/api/produtos').chain((path) => fc.record({ limite: fc.oneof(fc.constantFrom('1', '201', '0'), text),
        antes: fc.oneof(fc.constantFrom('1', '1e300', '-1'), text), perfil: text }, { requiredKeys: [] })
        .map((q) => ({ method: 'GET', url: `${path}?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`, b: undefined }))),
      mostly(fc.constant({}), fc.record({
        de: day, ate: day, conta: text, limite: fc.oneof(fc.constantFrom('1', '201', '0'), text),
        // Issue 32's list parameters on every list: a search, an order, a page, the periods and filters of each.
        busca: fc.oneof(fc.constantFrom('%', '_', '\\', 'nº 1', 'operação', '1', ''), text),
        ordem: fc.oneof(fc.constantFrom('numero', '-numero', 'data_operacao', 'vencimento', '-valor_face', 'criado', 'valor', 'data', 'estado'), text),
        pagina: fc.oneof(fc.constantFrom('1', '2', '999999', '0'), text), antes: fc.oneof(fc.constantFrom('1', '5'), text),
        data_operacao_de: day, data_operacao_ate: day, vencimento_de: day, vencimento_ate: day, criado_de: day, criado_ate: day,
        estado: fc.oneof(fc.constantFrom('rascunho', 'adquirido', 'aguardando_aprovacao'), text), sacado_id: text, cedente_id: text,
      }, { requiredKeys: [] })).chain((q) =>
        fc.constantFrom('/api/lancamentos', `/api/cedentes/${cedente.id}/extrato`, '/api/contabil/balancete', '/api/operacoes', '/api/titulos',
          '/api/desembolsos')
          .chain((path) => fc.constantFrom<Record<string, string>>({}, { accept: 'text/csv' }).map((headers) => ({
            method: 'GET', url: `${path}?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`, b: undefined, headers,
          })))),
      // The borderô in each of its forms, by Accept or formato; the signed term sent (any bytes, any type) and read back;
      // a formalization that names no hash, taking the term sent's (issue 32 item 4).
      fc.tuple(target(ops), fc.option(mostly(fc.constantFrom('pdf', 'md', 'html'), text), { nil: undefined }),
        fc.constantFrom(undefined, 'application/pdf', 'text/markdown', 'application/pdf;q=0, */*;q=0')).map(([id, formato, accept]) => ({
        method: 'GET', url: `/api/operacoes/${id}/bordero${formato === undefined ? '' : `?formato=${encodeURIComponent(formato)}`}`, b: undefined,
        headers: accept ? { accept } : undefined,
      })),
      fc.tuple(target(ops), fc.uint8Array({ maxLength: 2048 }), fc.constantFrom(undefined, 'application/pdf', 'image/png', 'text/html', 'application/json',
        'multipart/form-data', 'x'), fc.option(mostly(fc.constant('termo assinado.pdf'), text), { nil: undefined })).map(([id, bytes, type, nome]) => ({
        method: 'PUT', url: `/api/operacoes/${id}/termo${nome === undefined ? '' : `?nome_arquivo=${encodeURIComponent(nome)}`}`, b: Buffer.from(bytes),
        headers: type ? { 'content-type': type } : undefined,
      })),
      target(ops).map((id) => ({ method: 'GET', url: `/api/operacoes/${id}/termo`, b: undefined })),
      fc.tuple(target(ops), day).map(([id, d]) => ({
        method: 'POST', url: `/api/operacoes/${id}/formalizacao`,
        b: { assinado_em: `${d}T10:00:00Z`, signatarios: [{ nome: 'Sócia', documento: '11144477735' }] },
      })),
    )
    const statuses = new Map<number, number>()
    await fc.assert(fc.asyncProperty(request, async (r: { method: string, url: string, b: unknown, key?: boolean, headers?: Record<string, string> }) => {
      const headers = { ...r.headers, ...(r.key ? { 'idempotency-key': randomUUID() } : {}) }
      const res = await admin.call(r.method as 'POST', r.url, r.b as object | undefined, headers)
      assert.ok(res.statusCode < 500, `${r.method} ${r.url} ${JSON.stringify(r.b)}: ${res.statusCode} ${res.body}`)
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
      if (res.statusCode === 201 && r.url === '/api/operacoes') {
        ops.unshift(res.json().id)
        titles.unshift(...res.json().titulos.map((t: { id: string }) => t.id))
      }
      if (res.statusCode === 201 && r.url === '/api/produtos') products.unshift(res.json().id)
      if (res.statusCode === 201 && r.url.endsWith('/desembolso')) payments.unshift(res.json().id)
      if (res.statusCode === 201 && r.url.endsWith('/cotacao')) {
        const q = res.json()
        const sum = (k: string) => q.linhas.reduce((s: number, l: Record<string, number>) => s + l[k]!, 0)
        assert.equal(q.totais.valor_face_centavos, sum('valor_face_centavos'))
        assert.equal(q.totais.valor_liquido_centavos, sum('preco_compra_centavos') - q.totais.tac_centavos)
      }
    }), { seed: SEED, numRuns: RUNS })
    assert.deepEqual(logs, [], 'nothing logged at error level')
    for (const status of [200, 201, 404, 409, 422]) assert.ok(statuses.get(status), `some ${status} among ${JSON.stringify([...statuses])}`)
    created(await admin.call('GET', '/api/operacoes'), 200)
  })

  // Manual ledger entries (issue 32 item 10): random and hostile proposals by an administrador, confirmations and
  // refusals by an aprovador of known, unknown and malformed ids, lists with hostile queries. Never a 5xx or a logged
  // error; every entry a confirmation posted balances, and the trial balance's totals stay equal.
  it('random requests on the manual entries\' routes: never a 5xx or a logged error; what is posted balances', async () => {
    const { admin, aprovador } = await backOffice(ctx.db, ctx.app, clock)
    const entries: string[] = []
    const conta = mostly(fc.constantFrom('banco', 'capital_social', 'emprestimos_financiamentos', 'despesas_bancarias', 'receita_tarifas'),
      fc.oneof(fc.constantFrom('conta_grafica_cedentes', 'direitos_creditorios'), text))
    const linha = fc.record({ conta, debito_centavos: fc.option(centavos, { nil: undefined }), credito_centavos: fc.option(centavos, { nil: undefined }) },
      { requiredKeys: ['conta'] })
    /** Mostly two lines of one amount (balanced), now and then any lines at all. */
    const linhas = mostly(fc.tuple(fc.integer({ min: 1, max: 10_000_000 }), conta, conta).map(([v, d, c]) => [{ conta: d, debito_centavos: v },
      { conta: c, credito_centavos: v }]), fc.array(linha, { maxLength: 22 }))
    const request = fc.oneof(
      // The clock's day mostly: a manual entry records what happened, so the other good days are in its future.
      fc.record({
        data: mostly(fc.constant('2026-10-05'), day), historico: mostly(fc.constant('Aporte'), text),
        motivo: mostly(fc.constantFrom('aporte_capital', 'funding_recebido', 'tarifa_bancaria', 'ajuste'), text),
        justificativa: mostly(fc.constant('Extrato do dia'), text), linhas,
      }, { requiredKeys: ['linhas'] })
        .map((b) => ({ by: 'admin', method: 'POST', url: '/api/lancamentos-manuais', b, key: true })),
      fc.tuple(mostly(fc.nat(3), hostile), fc.constantFrom('confirmacao', 'recusa'), text, fc.boolean()).map(([n, step, motivo, own]) => {
        const id = typeof n === 'number' ? entries[n] ?? randomUUID() : encodeURIComponent(String(n))
        return { by: own ? 'admin' : 'aprovador', method: 'POST', url: `/api/lancamentos-manuais/${id}/${step}`,
          b: step === 'recusa' ? { motivo } : undefined, key: true }
      }),
      fc.tuple(mostly(fc.nat(3), hostile), mostly(fc.constant({}), fc.record({
        estado: text, limite: fc.oneof(fc.constantFrom('1', '201', '0'), text), antes: fc.oneof(fc.constantFrom('1', '1e300', '-1'), text),
      }, { requiredKeys: [] }))).map(([n, q]) => ({
        by: 'aprovador', method: 'GET', b: undefined, key: false, url: typeof n === 'number' && n < 2
          ? `/api/lancamentos-manuais/${entries[n] ?? randomUUID()}` : `/api/lancamentos-manuais?${new URLSearchParams(Object.entries(q))}`,
      })),
    )
    const statuses = new Map<number, number>()
    await fc.assert(fc.asyncProperty(request, async (r: { by: string, method: string, url: string, b: unknown, key: boolean }) => {
      const who = r.by === 'admin' ? admin : aprovador
      const res = await who.call(r.method as 'POST', r.url, r.b as object | undefined, r.key ? { 'idempotency-key': randomUUID() } : undefined)
      assert.ok(res.statusCode < 500, `${r.method} ${r.url} ${JSON.stringify(r.b)}: ${res.statusCode} ${res.body}`)
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
      if (res.statusCode === 201) entries.unshift(res.json().id)
    }), { seed: SEED, numRuns: Math.ceil(RUNS / 2) })
    assert.deepEqual(logs, [], 'nothing logged at error level')
    for (const status of [200, 201, 403, 404, 409, 422]) assert.ok(statuses.get(status), `some ${status} among ${JSON.stringify([...statuses])}`)
    const posted = created(await admin.call('GET', '/api/lancamentos?limite=200'), 200).itens as { linhas: { debito_centavos: number,
      credito_centavos: number }[] }[]
    assert.ok(posted.length > 0, 'some entries were confirmed and posted')
    for (const e of posted) assert.equal(e.linhas.reduce((s, l) => s + l.debito_centavos - l.credito_centavos, 0), 0)
    const trial = created(await admin.call('GET', '/api/contabil/balancete?data=2199-12-31'), 200)
    assert.equal(trial.totais.debitos_centavos, trial.totais.creditos_centavos)
  })
})

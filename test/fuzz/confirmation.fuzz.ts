// Fuzzing confirmation with the sacado and the registry (part of `npm run test:fuzz`, issue 34): random and hostile
// bodies on every /api/titulos/{id}/confirmacao route (each meio and resultado, values around the face value, evidence
// that is not base64, types and names with controls, unknown fields), ids that are not ids or are nobody's, by an
// operador and an aprovador; the sacado's page read and answered with random tokens, real ones, hostile reasons and
// bodies of every kind; registry queries and reads, and the registradora's callback with hostile bodies, with the
// worker's passes in between against the in-process sandbox registradora. Never a 5xx, never a line logged at error
// level; what is kept keeps the table's rules. The seed is printed; FUZZ_SEED=<seed> replays a failure.
import assert from 'node:assert/strict'
import { randomBytes, randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { hostileText, unthrottledEnv } from './kit.ts'
import { rowsAs } from '../helpers/credentials.ts'
import { useTestApp } from '../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, exampleRegisters, exampleTitles, settableClock } from '../modules/operations/helpers.ts'
import { freshCnpj } from '../helpers/cnpj.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 34_2027)
const RUNS = Number(process.env.FUZZ_CONFIRMATION_RUNS ?? 300)
console.log(`fuzz (confirmation): seed ${SEED}, ${RUNS} requests (replay with FUZZ_SEED=${SEED})`)

const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 5 }, { arbitrary: bad, weight: 1 })
const hostile = fc.oneof(hostileText, fc.constantFrom(-1, 0, 1.5, 2 ** 53, 1e300, null, true, [], {}, '1'))
const base64 = fc.oneof(fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => Buffer.from(b).toString('base64')),
  fc.constantFrom('não é base64', 'AAA', '====', '', 'A'.repeat(8) + '\u0000'), hostileText)
const evidencia = fc.record({
  conteudo_base64: base64, tipo: mostly(fc.constantFrom('application/pdf', 'audio/mpeg', 'text/html', 'image/svg+xml'), hostileText),
  nome_arquivo: fc.option(mostly(fc.constantFrom('ligação.mp3', 'e-mail.pdf'), hostileText), { nil: undefined }),
  extra: fc.option(hostileText, { nil: undefined }),
}, { requiredKeys: ['conteudo_base64', 'tipo'] })
const body = fc.oneof(
  fc.record({ meio: mostly(fc.constant('link'), hostile), email: fc.option(mostly(fc.constantFrom('a@sacado.example', 'x'), hostileText), { nil: undefined }) },
    { requiredKeys: ['meio'] }),
  fc.record({
    meio: mostly(fc.constantFrom('telefone', 'email'), hostile),
    resultado: mostly(fc.constantFrom('confirmado', 'parcial', 'contestado', 'sem_contato'), hostile),
    observacao: fc.option(mostly(fc.constantFrom('Confirmado por telefone', 'linha 1\nlinha 2'), hostileText), { nil: undefined }),
    valor_confirmado_centavos: fc.option(mostly(fc.constantFrom(1, 999_999, 1_000_000, 2_500_000), hostile), { nil: undefined }),
    evidencia: fc.option(mostly(evidencia, hostile), { nil: undefined }),
  }, { requiredKeys: ['meio', 'resultado'] }),
  hostile,
)
const motivo = fc.record({ motivo: mostly(fc.constantFrom('Contrato com o sacado', 'a\nb\nc'), hostileText) }, { requiredKeys: [] })

describe('fuzz: confirmation with the sacado', () => {
  const logs: object[] = []
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp(() => ({ env: { ...unthrottledEnv(), PUBLIC_URL: 'http://fomento.example' }, logs, logLevel: 'error', deps: { clock } }))

  it('random requests on every confirmation route and the sacado\'s page: never a 5xx or a logged error', async () => {
    const w = await backOffice(ctx.db, ctx.app, clock)
    await ctx.db.ownerTransaction((tx) => tx.query('UPDATE clientes SET documento = $2 WHERE id = $1', [w.clienteId, freshCnpj()]))
    const regs = await exampleRegisters(w.admin.call, { sacado: { email: 'contas@sacado.example' } })
    const op = created(await w.admin.call('POST', '/api/operacoes', {
      cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-05',
      titulos: exampleTitles(regs.sacados.map((s: { id: string }) => s.id)),
    }))
    const titles: string[] = op.titulos.map((t: { id: string }) => t.id)
    const confirmations: string[] = []
    const pick = (list: string[]) => mostly(fc.nat(5), fc.constantFrom(randomUUID(), 'x', '%00', '00000000-0000-4000-8000-000000000000', '..'))
      .map((x) => (typeof x === 'number' ? list[x % Math.max(list.length, 1)] ?? randomUUID() : x))
    const tokens = async () => (await rowsAs<{ texto: string | null }>(ctx.db, undefined, "SELECT texto FROM outbox WHERE tipo = 'confirmacao_link'"))
      .map((r) => /\/confirmacao\/([A-Za-z0-9_-]{43})/.exec(r.texto ?? '')?.[1]).filter((t): t is string => Boolean(t))
    const token = fc.oneof(fc.constant('real'), fc.constantFrom(randomBytes(32).toString('base64url'), 'abc', '%2e%2e', 'A'.repeat(43), 'A'.repeat(44)))
    const form = fc.record({ resposta: mostly(fc.constantFrom('confirmo', 'contesto'), hostileText), motivo: hostileText }, { requiredKeys: [] })
    const by = fc.constantFrom('operador', 'operador', 'aprovador')
    const request = fc.oneof(
      fc.tuple(by, pick(titles), body).map(([who, id, b]) => ({ who, method: 'POST', url: `/api/titulos/${encodeURIComponent(id)}/confirmacao`, b })),
      fc.tuple(by, pick(titles), fc.oneof(motivo, hostile)).map(([who, id, b]) => ({ who, method: 'POST',
        url: `/api/titulos/${encodeURIComponent(id)}/confirmacao/dispensa`, b })),
      fc.tuple(by, pick(titles)).map(([who, id]) => ({ who, method: 'GET', url: `/api/titulos/${encodeURIComponent(id)}/confirmacoes`, b: undefined })),
      fc.tuple(by, pick(titles), pick(confirmations)).map(([who, id, c]) => ({ who, method: 'GET',
        url: `/api/titulos/${encodeURIComponent(id)}/confirmacoes/${encodeURIComponent(c)}/evidencia`, b: undefined })),
      fc.tuple(by, pick(titles), fc.boolean()).map(([who, id, ask]) => ({ who, method: ask ? 'POST' : 'GET',
        url: `/api/titulos/${encodeURIComponent(id)}/registro${ask ? '/consulta' : ''}`, b: undefined })),
      fc.oneof(fc.record({ protocolo: mostly(fc.constantFrom('SBX-1', 'x'.repeat(100)), hostileText) }), hostile).map((b) => ({ who: 'registradora',
        method: 'POST', url: '/api/registradora/callback', b })),
      fc.tuple(token, fc.boolean(), form, fc.constantFrom('form', 'json', 'none')).map(([t, post, f, kind]) => ({ who: 'sacado', method: post ? 'POST' : 'GET',
        url: t, b: post ? { f, kind } : undefined })),
    )
    const statuses = new Map<number, number>()
    await fc.assert(fc.asyncProperty(request, async (r: { who: string, method: string, url: string, b: unknown }) => {
      let res
      if (r.who === 'sacado') {
        const real = await tokens()
        const path = `/confirmacao/${r.url === 'real' ? real[real.length - 1] ?? 'nenhum' : encodeURIComponent(r.url)}`
        const sent = r.b as { f: Record<string, string>, kind: string } | undefined
        res = await ctx.app.inject({
          method: r.method as 'GET', url: path,
          headers: { accept: 'text/html', origin: 'http://fomento.example', ...(sent?.kind === 'form' ? { 'content-type': 'application/x-www-form-urlencoded' }
            : sent?.kind === 'json' ? { 'content-type': 'application/json' } : {}) },
          ...(sent && sent.kind !== 'none' ? { payload: sent.kind === 'form' ? new URLSearchParams(sent.f).toString() : JSON.stringify(sent.f) } : {}),
        })
      } else if (r.who === 'registradora') {
        res = await ctx.app.inject({ method: 'POST', url: r.url, payload: JSON.stringify(r.b), headers: { 'content-type': 'application/json' } })
        // The worker's pass between requests, as its job would run: the sandbox registradora answers in-process.
        await ctx.app.deps.jobs.list().find((j) => j.name === 'registro-pedidos')!.run(clock.now())
      } else {
        const caller = r.who === 'aprovador' ? w.aprovador : w.operador
        res = await caller.call(r.method as 'POST', r.url, r.b as object | undefined, { 'idempotency-key': randomUUID() })
        if (res.statusCode === 201) confirmations.unshift(res.json().id)
      }
      assert.ok(res.statusCode < 500, `${r.method} ${r.url} ${JSON.stringify(r.b)}: ${res.statusCode} ${res.body}`)
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
    }), { seed: SEED, numRuns: RUNS })
    assert.deepEqual(logs, [], 'nothing logged at error level')
    for (const status of [200, 201, 403, 404, 409, 422]) assert.ok(statuses.get(status), `some ${status} among ${JSON.stringify([...statuses])}`)
    const kept = await rowsAs<{ observacao: string | null, estado: string }>(ctx.db, w.clienteId, 'SELECT observacao, estado FROM confirmacoes')
    assert.ok(kept.length > 0, 'some confirmations were kept')
    // Two writes that must agree (the code's, not a CHECK's): each título's state is its newest confirmation's.
    const drift = await rowsAs(ctx.db, w.clienteId, `SELECT t.numero, t.confirmacao_estado, c.estado FROM titulos t
      JOIN LATERAL (SELECT estado FROM confirmacoes c WHERE c.titulo_id = t.id ORDER BY c.seq DESC LIMIT 1) c ON true
      WHERE c.estado <> t.confirmacao_estado`)
    assert.deepEqual(drift, [], 'every título\'s confirmacao_estado is its newest confirmation\'s')
  })
})

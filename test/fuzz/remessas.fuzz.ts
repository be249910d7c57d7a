// Fuzzing instructions and CNAB remessas (part of `npm run test:fuzz`, issue 33): random and hostile instructions on
// registered, waiting, other and non-existent charges (each kind with and without its field, dates and amounts in and
// out of range, unknown fields), remessas of cnab, api and unknown accounts in 240 and 400, and hostile reads. Never
// a 5xx, never a line logged at error level; no charge nor instruction in two files; each account's NSAs are 1, 2, 3…
// in order; every file stored re-reads line by line at its layout's width, and hashes as recorded.
// The seed is printed; FUZZ_SEED=<seed> replays a failure.
import { freshCnpj } from '../helpers/cnpj.ts'
import assert from 'node:assert/strict'
import { createHash, randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { hostileText, unthrottledEnv } from './kit.ts'
import { mod10 } from '../../src/modules/collections/boleto/modulos.ts'
import { rowsAs } from '../helpers/credentials.ts'
import { useTestApp } from '../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, exampleRegisters, formalizedExample, key, settableClock } from '../modules/operations/helpers.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 33_2040)
const RUNS = Number(process.env.FUZZ_REMESSA_RUNS ?? 200)
console.log(`fuzz (remessas): seed ${SEED}, ${RUNS} requests (replay with FUZZ_SEED=${SEED})`)

const ENDERECO = { logradouro: 'Rua das Acácias', numero: '100', bairro: 'Centro', cep: '13010000', cidade: 'Campinas', uf: 'SP' }
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 5 }, { arbitrary: bad, weight: 1 })
const hostile = fc.oneof(hostileText, fc.constantFrom(-1, 0, 1.5, 2 ** 53, 1e300, null, true, [], {}, '1'))

describe('fuzz: instructions and remessas', () => {
  const logs: object[] = []
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp(() => ({ env: unthrottledEnv(), logs, logLevel: 'error', deps: { clock } }))

  it('random instructions, remessas and reads: never a 5xx or a logged error; no item in two files; NSAs in order; files re-read', async () => {
    const w = await backOffice(ctx.db, ctx.app, clock)
    await ctx.db.ownerTransaction((tx) => tx.query('UPDATE clientes SET documento = $2 WHERE id = $1', [w.clienteId, freshCnpj()]))
    // The example's sacados (one with an alphanumeric CNPJ), with an address but for the third.
    const regs = await exampleRegisters(w.admin.call, { sacado: ENDERECO })
    created(await w.admin.call('PATCH', `/api/sacados/${regs.sacados[2].id}`, { cep: null }), 200)
    // The first sacado has an address to e-mail boletos to; the others have none.
    created(await w.admin.call('PATCH', `/api/sacados/${regs.sacados[0].id}`, { email: 'boletos@sacado.example' }), 200)
    const contas: string[] = []
    for (const [conta, over] of [['11111', { layout_cnab: '240' }], ['22222', { layout_cnab: '400' }], ['33333', { transporte: 'api' }]] as const) {
      const made = created(await w.operador.call('POST', '/api/contas-cobranca', {
        nome: `Itaú ${conta}`, banco: '341', agencia: '1234', conta, conta_digito: String(mod10(`1234${conta}`)), carteira: '109', ...over,
      }))
      created(await w.aprovador.call('POST', `/api/contas-cobranca/${made.id}/confirmacao`, undefined, key()), 200)
      contas.push(made.id)
    }
    // Two operations: six charges over the three accounts; half registered (as a retorno would make them).
    const charges: string[] = []
    for (let n = 0; n < 2; n++) {
      const { op } = await formalizedExample(w.admin.call, regs)
      for (const [i, t] of (op.titulos as { id: string }[]).entries()) {
        const made = created(await w.operador.call('POST', '/api/cobrancas', { titulo_id: t.id, conta_cobranca_id: contas[i] }, key()))
        charges.push(made.id)
        if (n === 0) await ctx.db.ownerTransaction((tx) => tx.query('UPDATE cobrancas SET estado = \'registrada\' WHERE id = $1', [made.id]))
      }
    }
    const remessas: string[] = []
    const pick = (list: string[]) => mostly(fc.nat(7), fc.constantFrom(randomUUID(), 'x', '%00', '00000000-0000-4000-8000-000000000000'))
      .map((x) => (typeof x === 'number' ? list[x % Math.max(list.length, 1)] ?? randomUUID() : x))
    const day = mostly(fc.constantFrom('2026-10-05', '2026-10-06', '2026-12-20', '2027-11-04', '2027-11-05', '2027-12-31', '2026-02-30'), hostile)
    const instrucao = fc.record({
      instrucao: mostly(fc.constantFrom('alteracao_vencimento', 'abatimento', 'baixa', 'protestar', 'sustar_protesto'), hostile),
      vencimento: fc.option(day, { nil: undefined }),
      abatimento_centavos: fc.option(mostly(fc.integer({ min: 1, max: 3_000_000 }), hostile), { nil: undefined }),
      extra: fc.option(hostileText, { nil: undefined }),
    }, { requiredKeys: [] })
    const request = fc.oneof(
      fc.tuple(pick(charges), instrucao, fc.boolean()).map(([c, b, keyed]) => ({
        method: 'POST', url: `/api/cobrancas/${encodeURIComponent(c)}/instrucoes`, b, keyed,
      })),
      fc.tuple(mostly(pick(contas).map((id) => ({ conta_cobranca_id: id })), fc.record({ conta_cobranca_id: hostile, extra: hostileText },
        { requiredKeys: [] })), fc.boolean()).map(([b, keyed]) => ({ method: 'POST', url: '/api/cnab/remessas', b, keyed })),
      pick(charges).map((c) => ({ method: 'GET', url: `/api/cobrancas/${encodeURIComponent(c)}/instrucoes`, b: undefined, keyed: false })),
      fc.tuple(pick(charges), fc.option(fc.oneof(fc.constant({}), fc.record({ extra: hostileText })), { nil: undefined }), fc.boolean())
        .map(([c, b, keyed]) => ({ method: 'POST', url: `/api/cobrancas/${encodeURIComponent(c)}/email`, b, keyed })),
      fc.tuple(pick(remessas), fc.boolean()).map(([r, file]) => ({
        method: 'GET', url: `/api/cnab/remessas/${encodeURIComponent(r)}${file ? '/arquivo' : ''}`, b: undefined, keyed: false,
      })),
      fc.record({ limite: fc.oneof(fc.constantFrom('1', '201'), hostileText), antes: fc.oneof(fc.constantFrom('1', '-1'), hostileText),
        conta_cobranca_id: pick(contas) }, { requiredKeys: [] })
        .map((q) => ({ method: 'GET', url: `/api/cnab/remessas?${new URLSearchParams(Object.entries(q))}`, b: undefined, keyed: false })),
    )
    const statuses = new Map<number, number>()
    await fc.assert(fc.asyncProperty(request, async (r: { method: string, url: string, b: unknown, keyed: boolean }) => {
      const res = await w.operador.call(r.method as 'POST', r.url, r.b as object | undefined, r.keyed ? key() : undefined)
      assert.ok(res.statusCode < 500, `${r.method} ${r.url} ${JSON.stringify(r.b)}: ${res.statusCode} ${res.body}`)
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
      if (res.statusCode === 201 && r.url === '/api/cnab/remessas') remessas.unshift(res.json().id)
    }), { seed: SEED, numRuns: RUNS })
    assert.deepEqual(logs, [], 'nothing logged at error level')
    // A boleto goes only to the register's address of its own sacado.
    const sentTo = await ctx.db.ownerTransaction((tx) => tx.query(`SELECT DISTINCT destino FROM outbox WHERE tipo = 'boleto' AND cliente_id = $1`,
      [w.clienteId]))
    assert.ok((sentTo as { destino: string }[]).every((r) => r.destino === 'boletos@sacado.example'), JSON.stringify(sentTo))
    for (const status of [200, 201, 400, 404, 409, 422]) assert.ok(statuses.get(status), `some ${status} among ${JSON.stringify([...statuses])}`)

    const files = await rowsAs<{ conta_cobranca_id: string, nsa: number, layout: string, conteudo: string, sha256: string }>(ctx.db, w.clienteId,
      'SELECT conta_cobranca_id, nsa, layout, conteudo, sha256 FROM remessas ORDER BY conta_cobranca_id, nsa')
    assert.ok(files.length >= 1, 'some file made')
    const byAccount = new Map<string, number[]>()
    for (const f of files) {
      byAccount.set(f.conta_cobranca_id, [...byAccount.get(f.conta_cobranca_id) ?? [], f.nsa])
      assert.equal(createHash('sha256').update(f.conteudo, 'latin1').digest('hex'), f.sha256)
      const lines = f.conteudo.split('\r\n')
      assert.equal(lines.pop(), '', 'the file ends with CR LF')
      assert.ok(lines.every((l) => l.length === Number(f.layout)), `every line of a CNAB ${f.layout} has ${f.layout} positions`)
    }
    for (const [conta, nsas] of byAccount) assert.deepEqual(nsas, nsas.map((_, i) => i + 1), `${conta}: 1, 2, 3…`)
    const twice = await rowsAs(ctx.db, w.clienteId, `SELECT coalesce(cobranca_id, instrucao_id) AS id FROM remessa_itens
      GROUP BY coalesce(cobranca_id, instrucao_id) HAVING count(*) > 1`)
    assert.deepEqual(twice, [])
  })
})

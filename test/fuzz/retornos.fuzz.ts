// Fuzzing the retornos' route (part of `npm run test:fuzz`, issue 33: "property tests over random retorno files
// (partial payments, fees, juros, reversals) keep every entry balanced and each título's balance equal to face minus
// what was applied"; "fuzz the new routes … with hostile files: a clear refusal, never a 5xx, never a half-applied
// file"). Random Banco do Brasil files of the customer's charges and of numbers it never gave (entradas, payments
// whole, partial and above the balance, with juros, discounts and fees, bounced cheques, write-offs), sent whole or
// broken. After each: never a 5xx or a logged error; a refused file leaves no row; every line of an accepted one is
// applied or ignored; and at the end the trial balance closes and each título's open balance is its face less what
// its applied payments settled (less what bounced cheques gave back).
// The seed is printed; FUZZ_SEED=<seed> replays a failure.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { retornoSandbox240, type MovimentoSandbox } from '../../src/modules/collections/sandbox/retorno240.ts'
import { issueToken } from '../helpers/api-credentials.ts'
import { rowsAs } from '../helpers/credentials.ts'
import { useTestApp } from '../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, formalizedExample, key, settableClock } from '../modules/operations/helpers.ts'
import { broken, damage } from './cnab-damage.ts'
import { unthrottledEnv } from './kit.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 39_2026)
const RUNS = Number(process.env.FUZZ_RETORNO_RUNS ?? 120)
console.log(`fuzz (retornos): seed ${SEED}, ${RUNS} files (replay with FUZZ_SEED=${SEED})`)

const BB = { nome: 'BB cobrança', banco: '001', agencia: '3064', conta: '123456', conta_digito: 'X', carteira: '17', convenio: '1234567' }
const CONTA = { banco: '001' as const, agencia: '3064', conta: '123456', contaDigito: 'X', convenio: '1234567', inscricao: '11444777000161',
  empresa: 'FACTORING EXEMPLO' }

describe('fuzz: CNAB retornos sent to the service', () => {
  const logs: object[] = []
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp(() => ({ env: unthrottledEnv(), logs, logLevel: 'error', deps: { clock } }))

  it('random and broken files: never a 5xx; refused whole or applied line by line; balances kept to the centavo', { timeout: 600_000 }, async () => {
    const office = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await formalizedExample(office.admin.call)
    const account = created(await office.operador.call('POST', '/api/contas-cobranca', BB))
    created(await office.aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    const charges: { id: string, nosso_numero_sequencia: string, valor_centavos: number, vencimento: string, titulo_id: string }[] = []
    for (const t of op.titulos as { id: string }[]) {
      charges.push(created(await office.operador.call('POST', '/api/cobrancas', { titulo_id: t.id, conta_cobranca_id: account.id }, key())))
    }
    const { token } = await issueToken(ctx.db, office.clienteId, { escopos: ['cobranca'], clock })
    const rows = <R>(q: string) => rowsAs<R>(ctx.db, office.clienteId, q)

    const movimento = fc.record({
      who: fc.oneof({ arbitrary: fc.nat(charges.length - 1), weight: 6 }, { arbitrary: fc.constant(-1), weight: 1 }),
      codigo: fc.constantFrom('02', '03', '06', '06', '06', '09', '17', '28', '44', '50'),
      pago: fc.bigInt({ min: 0n, max: 3_000_000n }),
      juros: fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 50_000n })),
      desconto: fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 20_000n })),
      tarifa: fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 900n })),
      dia: fc.integer({ min: 0, max: 40 }),
    }).map((m): MovimentoSandbox => {
      const c = charges[m.who]
      const dataOcorrencia = new Date(Date.UTC(2026, 9, 6) + m.dia * 86_400_000).toISOString().slice(0, 10)
      return {
        codigo: m.codigo, sequencia: c ? c.nosso_numero_sequencia : '987654', seuNumero: 'F', vencimento: c?.vencimento ?? '2026-11-20',
        valorCentavos: BigInt(c?.valor_centavos ?? 100), pagoCentavos: m.pago, jurosMultaCentavos: m.juros, descontoCentavos: m.desconto,
        tarifaCentavos: m.tarifa, dataOcorrencia, dataCredito: dataOcorrencia,
      }
    })
    let nsa = 0
    const seen = { refused: 0, accepted: 0 }
    await fc.assert(fc.asyncProperty(fc.array(movimento, { minLength: 1, maxLength: 8 }),
      fc.oneof({ arbitrary: fc.constant([]), weight: 3 }, { arbitrary: fc.array(damage, { minLength: 1, maxLength: 3 }), weight: 1 }),
      async (movimentos, damages) => {
        const file = broken(retornoSandbox240(CONTA, ++nsa, '2026-11-24', movimentos), damages)
        const [{ n: before }] = await rows<{ n: number }>('SELECT count(*)::int AS n FROM retornos') as [{ n: number }]
        const res = await ctx.app.inject({ method: 'POST', url: `/api/cnab/retornos?conta_cobranca_id=${account.id}`,
          payload: Buffer.from(file, 'latin1'), headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' } })
        assert.ok(res.statusCode < 500, `${res.statusCode} ${res.body}`)
        const [{ n: after }] = await rows<{ n: number }>('SELECT count(*)::int AS n FROM retornos') as [{ n: number }]
        if (res.statusCode === 422) {
          assert.equal(res.json().detail, 'arquivo_cnab_recusado', res.body)
          assert.ok(damages.length > 0, `an intact file was refused: ${res.body}`)
          assert.equal(after, before, 'a refused file leaves no row')
          seen.refused++
          return
        }
        assert.ok([200, 201].includes(res.statusCode), res.body)
        const r = res.json()
        assert.equal(r.estado, 'aplicado')
        assert.equal(r.aplicadas + r.ignoradas, r.titulos)
        if (res.statusCode === 201) assert.equal(after, before + 1)
        seen.accepted++
      }), { seed: SEED, numRuns: RUNS, endOnFailure: true })

    // The run reached what it is about: files refused and applied, payments settled and undone, lines ignored.
    const [kinds] = await rows<{ liquidacoes: number, estornadas: number, ignoradas: number }>(`SELECT
        count(*) FILTER (WHERE ocorrencia = 'liquidacao' AND resultado = 'aplicada')::int AS liquidacoes,
        count(*) FILTER (WHERE estornada_em IS NOT NULL)::int AS estornadas, count(*) FILTER (WHERE resultado = 'ignorada')::int AS ignoradas
      FROM retorno_linhas`)
    console.log(`fuzz (retornos): ${seen.accepted} files applied, ${seen.refused} refused; ${JSON.stringify(kinds)}`)
    assert.ok(seen.refused > 0 && seen.accepted > 0 && kinds!.liquidacoes > 0 && kinds!.estornadas > 0 && kinds!.ignoradas > 0, JSON.stringify(kinds))
    assert.deepEqual(logs.filter((l) => (l as { level?: number }).level! >= 50), [], 'no error was logged')
    const [trial] = await rows<{ d: string, c: string }>('SELECT sum(debito_centavos)::text AS d, sum(credito_centavos)::text AS c FROM lancamento_linhas')
    assert.equal(trial!.d, trial!.c, 'the trial balance closes')
    // Each título: face less what its applied, not undone payments settled.
    const titulos = await rows<{ id: string, face: string, saldo: string, settled: string }>(`SELECT t.id, t.valor_face_centavos::text AS face,
        t.saldo_centavos::text AS saldo, coalesce((SELECT sum(x.principal_centavos) FROM retorno_linhas x
          WHERE x.titulo_id = t.id AND x.resultado = 'aplicada' AND x.estornada_em IS NULL), 0)::text AS settled
      FROM titulos t WHERE t.id IN (${charges.map((c) => `'${c.titulo_id}'`).join(', ')})`)
    for (const t of titulos) assert.equal(BigInt(t.saldo), BigInt(t.face) - BigInt(t.settled), `título ${t.id}`)
    // Each entry a retorno posted is some applied line's: none twice, none without its line.
    const [orphans] = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM lancamentos l WHERE l.origem_tipo = 'retorno'
      AND NOT EXISTS (SELECT 1 FROM retorno_linhas x WHERE x.lancamento_id = l.id AND x.resultado = 'aplicada')`)
    assert.equal(orphans!.n, 0)
  })
})

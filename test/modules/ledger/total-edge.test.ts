// Totals past 2^53 − 1 centavos (issue 31 item 12): the trial balance once served …984 for the …982 the database
// held. Every total the ledger serves is at most the customer's debits ever posted, and a posting that would take
// those past 2^53 − 1 is refused (409 total_contabil_excedido, nothing posted). At the edge, the trial balance and
// an exposure serve exactly what the database holds.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'
import { rowsAs } from '../../helpers/credentials.ts'
import { backOffice, created, EXAMPLE_NOW, exampleRegisters, key, settableClock } from '../operations/helpers.ts'

const MAX = Number.MAX_SAFE_INTEGER // 9007199254740991

describe('the ledger\'s totals at 2^53 − 1 centavos', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('up to the edge the trial balance is served exactly; an acceptance past it is refused and nothing is posted', async () => {
    const { operador, clienteId } = await backOffice(ctx.db, ctx.app, clock)
    const regs = await exampleRegisters(operador.call)
    const sacado = regs.sacados[0].id
    let n = 0
    const bought = async (face: number) => {
      const op = created(await operador.call('POST', '/api/operacoes', { cedente_id: regs.cedente.id, produto_id: regs.produto.id, titulos: [
        { tipo: 'duplicata_mercantil', numero: `E${++n}`, sacado_id: sacado, emissao: '2026-10-01', vencimento: '2026-11-04', valor_face_centavos: face }] }))
      created(await operador.call('POST', `/api/operacoes/${op.id}/cotacao`))
      return { op, accept: () => operador.call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key()) }
    }
    created(await (await bought(MAX - 1_000_000)).accept(), 200)
    created(await (await bought(1_000_000)).accept(), 200)

    // The database's own sums, as text, against what is served.
    const held = await rowsAs<{ conta: string, debitos: string, creditos: string }>(ctx.db, clienteId, `SELECT conta,
      sum(debito_centavos)::text AS debitos, sum(credito_centavos)::text AS creditos FROM lancamento_linhas GROUP BY conta ORDER BY conta`)
    const trial = await operador.call('GET', '/api/contabil/balancete?data=2026-10-31')
    assert.equal(trial.statusCode, 200, trial.body)
    const served = trial.json().contas as { conta: string, debitos_centavos: number, creditos_centavos: number }[]
    for (const row of held) {
      const account = served.find((c) => c.conta === row.conta)!
      assert.equal(String(account.debitos_centavos), row.debitos, row.conta)
      assert.equal(String(account.creditos_centavos), row.creditos, row.conta)
    }
    assert.equal(trial.json().totais.debitos_centavos, MAX, 'the whole ledger at the edge, exact')
    assert.match(trial.body, /"debitos_centavos":9007199254740991/)

    // An exposure at the edge, in a limit's refusal: exact too.
    created(await operador.call('PATCH', `/api/cedentes/${regs.cedente.id}`, { limite_centavos: MAX }), 200)
    const past = await bought(100_000)
    const overLimit = await past.accept()
    assert.equal(overLimit.statusCode, 409, overLimit.body)
    assert.equal(overLimit.json().detail, 'limite_excedido')
    assert.equal(overLimit.json().limites.find((l: { tipo: string }) => l.tipo === 'cedente').exposicao_centavos, MAX)

    created(await operador.call('PATCH', `/api/cedentes/${regs.cedente.id}`, { limite_centavos: null }), 200)
    const refused = await past.accept()
    assert.equal(refused.statusCode, 409, refused.body)
    assert.deepEqual(refused.json(), { detail: 'total_contabil_excedido', limite_centavos: MAX, lancamento_centavos: 100_000 })
    const entries = await rowsAs<{ n: number }>(ctx.db, clienteId, 'SELECT count(*)::int AS n FROM lancamentos')
    assert.equal(entries[0]!.n, 2, 'nothing posted')
    assert.equal(created(await operador.call('GET', `/api/operacoes/${past.op.id}`), 200).estado, 'cotada', 'the operation did not move')
    assert.equal(created(await operador.call('GET', '/api/contabil/balancete?data=2026-10-31'), 200).totais.debitos_centavos, MAX)
  })
})

// Money steps at once (produto.md §1 "State changes are atomic"): twenty payment requests with different keys for
// one operation make exactly one payment; two acceptances of one quote: one wins, the other is 409 with the state it
// found, and the ledger holds one acquisition. On PostgreSQL (the CI lane with DATABASE_URL) these really race.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'
import { rowsAs } from '../../helpers/credentials.ts'
import { backOffice, created, EXAMPLE_NOW, exampleRegisters, exampleTitles, key, settableClock } from './helpers.ts'

describe('operations under concurrent requests', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off', DATABASE_POOL_MAX: '25' }, deps: { clock } })

  const quoted = async () => {
    const office = await backOffice(ctx.db, ctx.app, clock)
    const { produto, cedente, sacados } = await exampleRegisters(office.operador.call)
    const op = created(await office.operador.call('POST', '/api/operacoes', {
      cedente_id: cedente.id, produto_id: produto.id, titulos: exampleTitles(sacados.map((s: { id: string }) => s.id)),
    }))
    created(await office.operador.call('POST', `/api/operacoes/${op.id}/cotacao`))
    return { ...office, op }
  }

  it('two acceptances of one quote at once: one 200, one 409 estado_invalido (aceita); one acquisition in the ledger', async () => {
    const { operador, op, clienteId } = await quoted()
    const answers = await Promise.all([1, 2].map(() => operador.call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key())))
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 409])
    assert.deepEqual(answers.find((a) => a.statusCode === 409)!.json(), { detail: 'estado_invalido', estado: 'aceita' })
    const entries = await rowsAs<{ n: number }>(ctx.db, clienteId, 'SELECT count(*)::int AS n FROM lancamentos')
    assert.equal(entries[0]!.n, 1)
  })

  it('twenty payment requests with different keys at once: exactly one payment, nineteen 409 estado_invalido', async () => {
    const { operador, op, clienteId } = await quoted()
    created(await operador.call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key()), 200)
    created(await operador.call('POST', `/api/operacoes/${op.id}/formalizacao`,
      { termo_sha256: 'd'.repeat(64), assinado_em: '2026-10-05T12:00:00Z', signatarios: [{ nome: 'Sócio', documento: '11144477735' }] }), 200)
    const answers = await Promise.all(Array.from({ length: 20 }, () => operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key())))
    const codes = answers.map((a) => a.statusCode)
    assert.equal(codes.filter((c) => c === 201).length, 1, JSON.stringify(codes))
    assert.equal(codes.filter((c) => c === 409).length, 19, JSON.stringify(codes))
    for (const a of answers.filter((x) => x.statusCode === 409)) assert.deepEqual(a.json(), { detail: 'estado_invalido', estado: 'em_desembolso' })
    const payments = await rowsAs<{ n: number }>(ctx.db, clienteId, 'SELECT count(*)::int AS n FROM desembolsos')
    assert.equal(payments[0]!.n, 1)
  })
})

// What a customer sees numbered is numbered per customer (issue 31 item 13): borderô numbers, ledger entry numbers
// and audit ids were the tables' global sequences, so customer A saw its numbers jump by B's activity. Now each
// runs 1, 2, 3… within its customer, whatever the other does, and the lists page by them.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, exampleRegisters, exampleTitles, key, settableClock } from './helpers.ts'

type Office = Awaited<ReturnType<typeof backOffice>>

describe('numbers within a customer', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  const drafter = async (office: Office) => {
    const regs = await exampleRegisters(office.operador.call)
    const titulos = exampleTitles(regs.sacados.map((s: { id: string }) => s.id))
    let n = 0
    return async () => created(await office.operador.call('POST', '/api/operacoes', {
      cedente_id: regs.cedente.id, produto_id: regs.produto.id, titulos: titulos.map((t) => ({ ...t, numero: `${t.numero}-${++n}` })),
    }))
  }
  const accept = async (office: Office, op: { id: string }) => {
    created(await office.operador.call('POST', `/api/operacoes/${op.id}/cotacao`))
    created(await office.operador.call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key()), 200)
  }

  it('operations, their borderôs, ledger entries and audit rows count 1, 2, 3… in each customer, interleaved with another\'s', async () => {
    const a = await backOffice(ctx.db, ctx.app, clock)
    const b = await backOffice(ctx.db, ctx.app, clock)
    const [draftA, draftB] = [await drafter(a), await drafter(b)]
    const b1 = await draftB()
    const a1 = await draftA()
    const b2 = await draftB()
    const a2 = await draftA()
    const a3 = await draftA()
    assert.deepEqual([a1, a2, a3].map((o) => o.numero), [1, 2, 3])
    assert.deepEqual([b1, b2].map((o) => o.numero), [1, 2])

    // The list pages by the customer's numbers: newest first, `proximo` is a number of its own.
    const first = created(await a.operador.call('GET', '/api/operacoes?limite=2'), 200)
    assert.deepEqual(first.itens.map((o: { numero: number }) => o.numero), [3, 2])
    assert.equal(first.proximo, 2)
    const rest = created(await a.operador.call('GET', `/api/operacoes?limite=2&antes=${first.proximo}`), 200)
    assert.deepEqual(rest.itens.map((o: { numero: number }) => o.numero), [1])
    assert.equal(rest.proximo, null)

    const bordero = await a.operador.call('GET', `/api/operacoes/${a2.id}/bordero`, undefined, { accept: 'text/markdown' })
    assert.equal(bordero.statusCode, 200)
    assert.match(bordero.body, /^# Borderô da operação nº 2$/m)

    await accept(b, b2)
    await accept(a, a2)
    await accept(b, b1)
    await accept(a, a3)
    const entries = created(await a.operador.call('GET', '/api/lancamentos'), 200).itens as { numero: number, historico: string }[]
    assert.deepEqual(entries.map((e) => [e.numero, e.historico]), [[2, 'Aquisição da operação nº 3'], [1, 'Aquisição da operação nº 2']])
    const older = created(await a.operador.call('GET', '/api/lancamentos?limite=1&antes=2'), 200)
    assert.deepEqual(older.itens.map((e: { numero: number }) => e.numero), [1])

    const trail = created(await a.admin.call('GET', '/api/conta/auditoria?limite=200'), 200).itens as { id: number }[]
    const ids = trail.map((r) => r.id)
    assert.deepEqual(ids, Array.from({ length: ids.length }, (_, i) => ids.length - i), 'A\'s audit ids run without gaps down to 1')
    const trailB = created(await b.admin.call('GET', '/api/conta/auditoria?limite=200'), 200).itens as { id: number }[]
    assert.equal(trailB.at(-1)!.id, 1)
  })
})

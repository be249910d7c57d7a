// The database itself keeps the manual entries' rules (migration 0033), whatever the code does: as the service's
// runtime role, by plain SQL, an unbalanced proposal is refused, a proposal cannot be confirmed by its proposer, an
// entry of origin lancamento_manual is refused at commit unless it posts a confirmed proposal's very lines, and a
// decided proposal is never changed again.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import type { Orm } from '../../../src/platform/db/database.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { activeUser, customer, dbError } from '../../helpers/credentials.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'

const rows = async <R>(tx: Orm, q: ReturnType<typeof sql>) => ((await tx.execute(q)) as unknown as { rows: R[] }).rows
const lines = (pairs: [string, number, number][]) => JSON.stringify(pairs.map(([conta, d, c]) => ({ conta, debito_centavos: d, credito_centavos: c })))
const BALANCED = lines([['banco', 1000, 0], ['capital_social', 0, 1000]])

describe('manual entries, as the database enforces them', () => {
  const tdb = useTestDatabase()
  const setup = async () => {
    const c = await customer(tdb.db)
    const [a, b] = [await activeUser(tdb.db, c.id), await activeUser(tdb.db, c.id)]
    const as = <T>(work: (tx: Orm) => Promise<T>) => withTenant(tdb.db, c.id, work)
    const propose = (tx: Orm, linhas: string) => rows<{ id: string }>(tx, sql`INSERT INTO lancamentos_manuais
      (cliente_id, data, historico, motivo, justificativa, linhas, solicitante_usuario_id)
      VALUES (${c.id}, '2026-10-05', 'Aporte', 'aporte_capital', 'integralização', ${linhas}::jsonb, ${a.id}) RETURNING id`).then((r) => r[0]!.id)
    /** An entry of origin lancamento_manual for `origem`, with `pairs` as its lines. */
    const post = async (tx: Orm, origem: string, pairs: [string, number, number][]) => {
      const [{ id }] = await rows<{ id: string }>(tx, sql`INSERT INTO lancamentos (cliente_id, data, historico, origem_tipo, origem_id)
        VALUES (${c.id}, '2026-10-05', 'Aporte', 'lancamento_manual', ${origem}) RETURNING id`) as [{ id: string }]
      for (const [conta, d, cr] of pairs) {
        await tx.execute(sql`INSERT INTO lancamento_linhas (cliente_id, lancamento_id, data, lancamento_seq, conta, debito_centavos, credito_centavos)
          VALUES (${c.id}, ${id}, '2026-10-05', 1, ${conta}, ${d}, ${cr})`)
      }
      return id
    }
    const confirm = (tx: Orm, id: string, by: string, lancamento: string) => tx.execute(sql`UPDATE lancamentos_manuais
      SET estado = 'confirmado', confirmado_por_usuario_id = ${by}, confirmado_em = now(), lancamento_id = ${lancamento} WHERE id = ${id}`)
    return { c, a, b, as, propose, post, confirm }
  }

  it('refuses a proposal whose lines do not balance, have both sides or neither, or move a sub-ledger of operations', async () => {
    const { as, propose } = await setup()
    for (const bad of [
      lines([['banco', 1000, 0], ['capital_social', 0, 999]]), lines([['banco', 1000, 1000], ['capital_social', 0, 0]]),
      lines([['banco', 1000, 0]]), lines([['direitos_creditorios', 1000, 0], ['capital_social', 0, 1000]]),
      lines([['banco', 1.5, 0], ['capital_social', 0, 1.5]]), '[]',
    ]) {
      await assert.rejects(as((tx) => propose(tx, bad)), dbError('23514', /lancamentos_manuais_balanceado/), bad)
    }
    assert.ok(await as((tx) => propose(tx, BALANCED)))
  })

  it('posts a confirmed proposal\'s lines, once; refuses at commit a posting of a pending proposal, or of other lines', async () => {
    const { a, b, as, propose, post, confirm } = await setup()
    const id = await as((tx) => propose(tx, BALANCED))
    // Posted while it waits: balanced, yet refused.
    await assert.rejects(as((tx) => post(tx, id, [['banco', 1000, 0], ['capital_social', 0, 1000]])), dbError('23514', /not the posting of a confirmed/))
    // Confirmed, but the entry posts other lines (balanced, and of the same total).
    await assert.rejects(as(async (tx) => {
      const e = await post(tx, id, [['banco', 1000, 0], ['emprestimos_financiamentos', 0, 1000]])
      await confirm(tx, id, b.id, e)
    }), dbError('23514', /does not post its manual entry's lines/))
    // Confirmed by its proposer.
    await assert.rejects(as(async (tx) => {
      const e = await post(tx, id, [['banco', 1000, 0], ['capital_social', 0, 1000]])
      await confirm(tx, id, a.id, e)
    }), dbError('23514', /lancamentos_manuais_segunda_pessoa/))
    // Unbalanced lines under a confirmed proposal: the ledger's own check.
    await assert.rejects(as(async (tx) => {
      const e = await post(tx, id, [['banco', 1000, 0], ['capital_social', 0, 999]])
      await confirm(tx, id, b.id, e)
    }), dbError('23514', /does not balance|does not post/))
    const posted = await as(async (tx) => {
      const e = await post(tx, id, [['capital_social', 0, 1000], ['banco', 1000, 0]])
      await confirm(tx, id, b.id, e)
      return e
    })
    assert.ok(posted)
    // A second posting for the same proposal: it names another entry.
    await assert.rejects(as((tx) => post(tx, id, [['banco', 1000, 0], ['capital_social', 0, 1000]])), dbError('23514', /not the posting of a confirmed/))
    // Decided: never changed again, not even its refusal.
    await assert.rejects(as((tx) => tx.execute(sql`UPDATE lancamentos_manuais SET estado = 'recusado', recusado_em = now(), motivo_recusa = 'tarde'
      WHERE id = ${id}`)), dbError('23514', /lancamentos_manuais_decidido|already/))
  })
})

// Release I's money paths under concurrent requests, on PostgreSQL where they really race (issue 31, items 1 and 6):
// a cedente's account replaced while its payment is approved, and an operation cancelled while its payment is asked
// for. Whatever order the database gives them, no payment is approved or recorded to an account that was not a
// confirmed one of its cedente at that moment, and the ledger holds exactly the entries of what won.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { rowsAs } from '../../helpers/credentials.ts'
import { onPostgresOnly } from '../../helpers/database.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { backOffice, CEDENTE_DOC, created, exampleRegisters, formalizedExample, key, settableClock } from './helpers.ts'

const skip = onPostgresOnly('requests that race need PostgreSQL\'s concurrent sessions: runs in the PostgreSQL suite (DATABASE_URL set)')
const OTHER = { banco: '001', agencia: '4321', conta: '98765', digito: '0', titular_documento: CEDENTE_DOC }
const ROUNDS = 6

describe('money paths racing', { skip }, () => {
  const clock = settableClock('2026-10-05T15:00:00Z')
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off', DATABASE_POOL_MAX: '20' }, deps: { clock } })

  it('an account replaced while the payment is approved: approved only to the confirmed account, and never recorded to a replaced one', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      // A customer per round: its cedente's account is replaced in each.
      const { clienteId, operador, aprovador } = await backOffice(ctx.db, ctx.app, clock)
      const { op, cedente } = await formalizedExample(operador.call)
      const payment = created(await operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
      const [swap, approval] = await Promise.all([
        operador.call('PATCH' as 'POST', `/api/cedentes/${cedente.id}`, { contas_bancarias: [OTHER] }),
        aprovador.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key()),
      ])
      assert.equal(swap.statusCode, 200, swap.body)
      if (approval.statusCode !== 200) {
        assert.equal(approval.statusCode, 409, approval.body)
        assert.equal(approval.json().detail, 'conta_bancaria_nao_confirmada')
      }
      const paid = await operador.call('POST', `/api/desembolsos/${payment.id}/pagamento`,
        { id_transacao: `E${round}${Date.now()}`, pago_em: '2026-10-05T15:00:00Z' }, key())
      assert.equal(paid.statusCode, 409, `never recorded to the replaced account: ${paid.body}`)
      assert.ok(['conta_bancaria_nao_confirmada', 'estado_invalido'].includes(paid.json().detail), paid.body)
      const pagos = await rowsAs<{ n: number }>(ctx.db, clienteId, 'SELECT count(*)::int AS n FROM desembolsos WHERE estado = \'pago\'')
      assert.equal(pagos[0]!.n, 0)
    }
  })

  it('drafts made at once by one customer are numbered 1, 2, 3… with no repeat and no gap, beside another customer\'s', async () => {
    const a = await backOffice(ctx.db, ctx.app, clock)
    const b = await backOffice(ctx.db, ctx.app, clock)
    const [regsA, regsB] = [await exampleRegisters(a.operador.call), await exampleRegisters(b.operador.call)]
    const draft = (o: typeof a, r: typeof regsA) => o.operador.call('POST', '/api/operacoes', { cedente_id: r.cedente.id, produto_id: r.produto.id })
    const made = await Promise.all([...Array.from({ length: 12 }, () => draft(a, regsA)), ...Array.from({ length: 6 }, () => draft(b, regsB))])
    const numbers = made.map((r) => created(r).numero as number)
    assert.deepEqual(numbers.slice(0, 12).sort((x, y) => x - y), Array.from({ length: 12 }, (_, i) => i + 1))
    assert.deepEqual(numbers.slice(12).sort((x, y) => x - y), [1, 2, 3, 4, 5, 6])
  })

  it('a cancellation racing the payment request: the operation ends cancelled with any payment asked, the reversal exact', async () => {
    const { clienteId, operador } = await backOffice(ctx.db, ctx.app, clock)
    const regs = await exampleRegisters(operador.call)
    for (let round = 0; round < ROUNDS; round++) {
      const { op } = await formalizedExample(operador.call, regs)
      const [cancel, ask] = await Promise.all([
        operador.call('POST', `/api/operacoes/${op.id}/cancelamento`, { motivo: 'refeita para outro dia' }, key()),
        operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()),
      ])
      // A payment waiting for approval is cancelled with its operation; asked after the cancellation, it is refused.
      assert.equal(cancel.statusCode, 200, cancel.body)
      if (ask.statusCode !== 201) assert.deepEqual([ask.statusCode, ask.json().detail], [409, 'estado_invalido'], ask.body)
      const payments = await rowsAs<{ estado: string }>(ctx.db, clienteId, `SELECT estado FROM desembolsos WHERE operacao_id = '${op.id}'`)
      assert.deepEqual(payments.map((p) => p.estado), ask.statusCode === 201 ? ['cancelado'] : [])
      const net = await rowsAs<{ conta: string, saldo: string, n: number }>(ctx.db, clienteId, `SELECT x.conta, count(DISTINCT l.id)::int AS n,
        sum(x.debito_centavos - x.credito_centavos)::text AS saldo
        FROM lancamentos l JOIN lancamento_linhas x ON x.lancamento_id = l.id WHERE l.origem_id = '${op.id}' GROUP BY x.conta`)
      assert.ok(net.length > 0 && net.every((r) => r.saldo === '0' && r.n === 2), `the acquisition and its exact reversal: ${JSON.stringify(net)}`)
    }
  })
})

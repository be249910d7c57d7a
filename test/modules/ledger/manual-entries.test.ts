// Manual ledger entries through the API (issue 32 item 10): an administrador proposes a balanced entry, a second
// person confirms it and only then is it posted, where the entries and the trial balance show it; an unbalanced one
// is refused line by line; the proposer cannot confirm; a refused one posts nothing; roles, another customer's
// entry and a retried request are answered as for a payment.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { auditRows } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { backOffice, created, formalizedExample, key, settableClock, type Caller } from '../operations/helpers.ts'

const URL = '/api/lancamentos-manuais'
const APORTE = {
  data: '2026-10-05', historico: 'Aporte de capital dos sócios', motivo: 'aporte_capital', justificativa: 'Integralização do capital, TED de 05/10',
  linhas: [{ conta: 'banco', debito_centavos: 10_000_000 }, { conta: 'capital_social', credito_centavos: 10_000_000 }],
}

type Entry = { id: string, origem: { tipo: string, id: string }, linhas: { conta: string, debito_centavos: number, credito_centavos: number }[] }
type Account = { conta: string, debitos_centavos: number, creditos_centavos: number, saldo_devedor_centavos: number, saldo_credor_centavos: number }

async function allEntries(call: Caller): Promise<Entry[]> {
  return created(await call('GET', '/api/lancamentos?limite=200'), 200).itens
}

describe('manual ledger entries', () => {
  const clock = settableClock('2026-10-05T15:00:00Z')
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('a second person confirms it; it is posted then, and the trial balance is what the entries add up to', async () => {
    clock.set('2026-10-05T15:00:00Z')
    const { clienteId, admin, aprovador, operador, integration } = await backOffice(ctx.db, ctx.app, clock)
    // The bank in credit: an operation paid from money the ledger never received.
    const { op } = await formalizedExample(operador.call)
    const payment = created(await operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
    created(await aprovador.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key()), 200)
    created(await operador.call('POST', `/api/desembolsos/${payment.id}/pagamento`, { id_transacao: 'E341234562026100515000001',
      pago_em: '2026-10-05T15:00:00Z' }, key()), 200)
    const inCredit = created(await admin.call('GET', '/api/contabil/balancete?data=2026-10-05'), 200).contas.find((a: Account) => a.conta === 'banco')
    assert.equal(inCredit.saldo_credor_centavos, 4_637_053)
    const before = await allEntries(admin.call)

    const proposed = created(await admin.call('POST', URL, APORTE, key()))
    assert.deepEqual([proposed.estado, proposed.total_centavos, proposed.solicitante_usuario_id, proposed.lancamento_id],
      ['aguardando_confirmacao', 10_000_000, admin.usuarioId, null])
    assert.equal((await allEntries(admin.call)).length, before.length, 'nothing posted while it waits')

    // Not the person who proposed it, nor a token with no person: the payments' two-person code.
    for (const call of [admin.call, integration]) {
      const refused = await call('POST', `${URL}/${proposed.id}/confirmacao`, undefined, key())
      assert.deepEqual([refused.statusCode, refused.json()], [403, { detail: 'aprovacao_pelo_mesmo_usuario' }])
    }
    const byOperador = await operador.call('POST', `${URL}/${proposed.id}/confirmacao`, undefined, key())
    assert.deepEqual([byOperador.statusCode, byOperador.json().detail], [403, 'papel_insuficiente'])

    // The person who confirms reads the lines and amounts first.
    const waiting = created(await aprovador.call('GET', `${URL}?estado=aguardando_confirmacao`), 200).itens
    assert.deepEqual(waiting.map((e: { id: string, linhas: unknown }) => [e.id, e.linhas]), [[proposed.id, [
      { conta: 'banco', debito_centavos: 10_000_000, credito_centavos: 0 }, { conta: 'capital_social', debito_centavos: 0, credito_centavos: 10_000_000 },
    ]]])
    const confirmed = created(await aprovador.call('POST', `${URL}/${proposed.id}/confirmacao`, undefined, key()), 200)
    assert.deepEqual([confirmed.estado, confirmed.confirmado_por_usuario_id], ['confirmado', aprovador.usuarioId])

    const entries = await allEntries(admin.call)
    assert.equal(entries.length, before.length + 1)
    const posted = entries.find((e) => e.id === confirmed.lancamento_id)!
    assert.deepEqual([posted.origem, posted.linhas.map((l) => [l.conta, l.debito_centavos, l.credito_centavos])],
      [{ tipo: 'lancamento_manual', id: proposed.id }, [['banco', 10_000_000, 0], ['capital_social', 0, 10_000_000]]])

    // The trial balance, recomputed here from every entry the API lists.
    const trial = created(await admin.call('GET', '/api/contabil/balancete?data=2026-10-05'), 200)
    const sums = new Map<string, [number, number]>()
    for (const e of entries) for (const l of e.linhas) {
      const [d, c] = sums.get(l.conta) ?? [0, 0]
      sums.set(l.conta, [d + l.debito_centavos, c + l.credito_centavos])
    }
    for (const a of trial.contas as Account[]) {
      const [d, c] = sums.get(a.conta) ?? [0, 0]
      assert.deepEqual([a.debitos_centavos, a.creditos_centavos, a.saldo_devedor_centavos, a.saldo_credor_centavos],
        [d, c, Math.max(d - c, 0), Math.max(c - d, 0)], a.conta)
    }
    const byAccount = Object.fromEntries((trial.contas as Account[]).map((a) => [a.conta, a]))
    assert.equal(byAccount.capital_social!.saldo_credor_centavos, 10_000_000)
    assert.deepEqual([byAccount.banco!.saldo_devedor_centavos, byAccount.banco!.saldo_credor_centavos], [10_000_000 - 4_637_053, 0],
      'the bank is no longer in credit')
    assert.equal(trial.totais.debitos_centavos, trial.totais.creditos_centavos)

    // Decided once: a second confirmation finds it confirmed.
    const again = await aprovador.call('POST', `${URL}/${proposed.id}/confirmacao`, undefined, key())
    assert.deepEqual([again.statusCode, again.json()], [409, { detail: 'estado_invalido', estado: 'confirmado' }])

    // Both the request and the confirmation are in the audit trail, each with its person (their sessions' tokens).
    const trail = (await auditRows(ctx.db, clienteId)).filter((r) => r.alvo_id === proposed.id)
    assert.deepEqual(trail.map((r) => r.acao), ['lancamento_manual.solicitado', 'lancamento_manual.confirmado'])
    assert.notEqual(trail[0]!.ator_id, trail[1]!.ator_id)
  })

  it('refuses an unbalanced entry with an item on every line, and every other broken rule at once', async () => {
    clock.set('2026-10-05T15:00:00Z')
    const { admin } = await backOffice(ctx.db, ctx.app, clock)
    const unbalanced = await admin.call('POST', URL, { ...APORTE, linhas: [{ conta: 'banco', debito_centavos: 1000 },
      { conta: 'capital_social', credito_centavos: 900 }] }, key())
    assert.equal(unbalanced.statusCode, 422, unbalanced.body)
    assert.deepEqual(unbalanced.json().detail.map((i: { loc: unknown[], ctx: unknown }) => [i.loc, i.ctx]), [
      [['body', 'linhas', 0], { debitos_centavos: '1000', creditos_centavos: '900' }],
      [['body', 'linhas', 1], { debitos_centavos: '1000', creditos_centavos: '900' }],
    ])

    const broken = await admin.call('POST', URL, { ...APORTE, data: '2026-10-06', linhas: [{ conta: 'banco', debito_centavos: 5, credito_centavos: 5 },
      { conta: 'capital_social' }] }, key())
    assert.equal(broken.statusCode, 422, broken.body)
    assert.deepEqual(broken.json().detail.map((i: { loc: unknown[] }) => i.loc), [['body', 'data'], ['body', 'linhas', 0], ['body', 'linhas', 1]])

    // The cedentes' conta gráfica and the receivables move with operations only; a float is not centavos.
    const shape = await admin.call('POST', URL, { ...APORTE, linhas: [{ conta: 'conta_grafica_cedentes', debito_centavos: 1.5 },
      { conta: 'capital_social', credito_centavos: 1 }] }, key())
    assert.equal(shape.statusCode, 422, shape.body)
    assert.deepEqual(shape.json().detail.map((i: { loc: unknown[] }) => i.loc.join('.')).sort(), ['body.linhas.0.conta', 'body.linhas.0.debito_centavos'])

    // Text others read: no control, break or bidi character, and blanks around a letter are not a reason.
    const text = await admin.call('POST', URL, { ...APORTE, historico: 'Tarifa \u202eR$ 1.000.000\r\n## x', justificativa: '    ' }, key())
    assert.equal(text.statusCode, 422, text.body)
    assert.deepEqual(text.json().detail.map((i: { loc: unknown[] }) => i.loc.join('.')).sort(), ['body.historico', 'body.justificativa'])
    assert.equal(created(await admin.call('GET', URL), 200).itens.length, 0, 'nothing kept')
  })

  it('only an administrador proposes; reading needs financeiro; a refused entry posts nothing; the proposer may withdraw it', async () => {
    clock.set('2026-10-05T15:00:00Z')
    const { admin, aprovador, operador, integration } = await backOffice(ctx.db, ctx.app, clock)
    for (const call of [operador.call, aprovador.call, integration]) {
      const res = await call('POST', URL, APORTE, key())
      assert.deepEqual([res.statusCode, res.json().detail], [403, 'papel_insuficiente'])
    }
    const before = (await allEntries(admin.call)).length
    const fee = created(await admin.call('POST', URL, { ...APORTE, historico: 'Tarifa de TED', motivo: 'tarifa_bancaria', justificativa: 'Extrato de 05/10',
      linhas: [{ conta: 'despesas_bancarias', debito_centavos: 1_090 }, { conta: 'banco', credito_centavos: 1_090 }] }, key()))
    const refused = created(await aprovador.call('POST', `${URL}/${fee.id}/recusa`, { motivo: 'A tarifa foi estornada pelo banco' }), 200)
    assert.deepEqual([refused.estado, refused.recusado_por_usuario_id, refused.motivo_recusa, refused.lancamento_id],
      ['recusado', aprovador.usuarioId, 'A tarifa foi estornada pelo banco', null])
    const late = await aprovador.call('POST', `${URL}/${fee.id}/confirmacao`, undefined, key())
    assert.deepEqual([late.statusCode, late.json()], [409, { detail: 'estado_invalido', estado: 'recusado' }])
    assert.equal((await allEntries(admin.call)).length, before, 'a refused entry posts nothing')

    const mine = created(await admin.call('POST', URL, APORTE, key()))
    assert.equal(created(await admin.call('POST', `${URL}/${mine.id}/recusa`, { motivo: 'Valor digitado errado' }), 200).estado, 'recusado')
    const short = await admin.call('POST', `${URL}/${mine.id}/recusa`, { motivo: 'x' })
    assert.equal(short.statusCode, 422)
    assert.deepEqual(created(await operador.call('GET', URL), 200).itens.map((e: { estado: string }) => e.estado), ['recusado', 'recusado'])
  })

  it('another customer\'s entry is not found; a retried request gets its first answer and does nothing twice', async () => {
    clock.set('2026-10-05T15:00:00Z')
    const mine = await backOffice(ctx.db, ctx.app, clock)
    const theirs = await backOffice(ctx.db, ctx.app, clock)
    const entry = created(await theirs.admin.call('POST', URL, APORTE, key()))
    for (const [method, path] of [['GET', `${URL}/${entry.id}`], ['POST', `${URL}/${entry.id}/confirmacao`], ['POST', `${URL}/${entry.id}/recusa`]] as const) {
      const res = await mine.aprovador.call(method, path, method === 'POST' ? { motivo: 'não é meu' } : undefined, key())
      assert.deepEqual([res.statusCode, res.json().detail], [404, 'nao_encontrado'], path)
    }
    assert.equal(created(await mine.admin.call('GET', URL), 200).itens.length, 0)
    assert.equal((await mine.admin.call('GET', `${URL}/not-an-id`)).statusCode, 404)

    const missing = await mine.admin.call('POST', URL, APORTE)
    assert.deepEqual([missing.statusCode, missing.json().detail], [400, 'chave_idempotencia_ausente'])
    const k = key()
    const first = await mine.admin.call('POST', URL, APORTE, k)
    const replay = await mine.admin.call('POST', URL, APORTE, k)
    assert.equal(replay.statusCode, 201)
    assert.equal(replay.headers['idempotent-replayed'], 'true')
    assert.equal(replay.body, first.body)
    const id = first.json().id
    const ck = key()
    const confirmed = await mine.aprovador.call('POST', `${URL}/${id}/confirmacao`, undefined, ck)
    const twice = await mine.aprovador.call('POST', `${URL}/${id}/confirmacao`, undefined, ck)
    assert.deepEqual([confirmed.statusCode, twice.statusCode, twice.headers['idempotent-replayed'], twice.body], [200, 200, 'true', confirmed.body])
    const posted = (await allEntries(mine.admin.call)).filter((e) => e.origem.id === id)
    assert.equal(posted.length, 1, 'posted once')
    assert.equal(created(await mine.admin.call('GET', URL), 200).itens.length, 1)
  })
})

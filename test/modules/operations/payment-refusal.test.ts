// An approver refuses a payment with a reason (issue 32, item 7): POST /api/desembolsos/{id}/recusa, under the
// approval's scope and two-person rule, with a required Idempotency-Key; the payment ends `recusado`, nothing is
// posted, the operation may ask again, and the refusal is in the audit trail.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import { usuarios } from '../../../src/platform/db/schema.ts'
import type { Database } from '../../../src/platform/db/database.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { readExport } from '../../helpers/csv.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { backOffice, created, formalizedExample, key, settableClock, EXAMPLE_NOW } from './helpers.ts'

describe('refusing a payment', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })
  const REASON = { motivo: 'Conta do cedente divergente do contrato' }

  it('by a person who may approve and did not ask: recusado, nothing posted, audited, the operation asks again', async () => {
    clock.set(EXAMPLE_NOW)
    const { operador, aprovador } = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await formalizedExample(operador.call)
    const payment = created(await operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))

    const k = key()
    const refused = created(await aprovador.call('POST', `/api/desembolsos/${payment.id}/recusa`, REASON, k), 200)
    assert.equal(refused.estado, 'recusado')
    assert.deepEqual(refused.recusa, { motivo: REASON.motivo, por_usuario_id: aprovador.usuarioId, em: EXAMPLE_NOW.replace('Z', '.000Z'),
      por_nome: 'Pessoa de Teste' })
    // The same key again: the same answer, not a second refusal (nor a conflict with the state it left).
    assert.deepEqual(created(await aprovador.call('POST', `/api/desembolsos/${payment.id}/recusa`, REASON, k), 200), refused)

    assert.equal(created(await operador.call('GET', `/api/operacoes/${op.id}`), 200).estado, 'formalizada')
    assert.equal(created(await operador.call('GET', `/api/desembolsos/${payment.id}`), 200).estado, 'recusado')
    // The export says who was refused, when and why.
    const csv = readExport((await operador.call('GET', '/api/desembolsos', undefined, { accept: 'text/csv' })).body)
    assert.deepEqual(csv.rows.map((r) => [r['Estado'], r['Motivo da recusa'], r['Recusado em']]), [['recusado', REASON.motivo, '05/10/2026 12:00:00']])
    const entries = created(await operador.call('GET', '/api/lancamentos'), 200).itens as { origem: { tipo: string } }[]
    assert.deepEqual(entries.map((e) => e.origem.tipo), ['operacao'], 'only the acquisition: a refusal posts nothing')

    // Ended: neither refused again nor approved.
    const again = await aprovador.call('POST', `/api/desembolsos/${payment.id}/recusa`, REASON, key())
    assert.equal(again.statusCode, 409)
    assert.deepEqual(again.json(), { detail: 'estado_invalido', estado: 'recusado' })
    assert.equal((await aprovador.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key())).statusCode, 409)

    // The operation asks again, and that payment goes on as any other.
    const second = created(await operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
    assert.notEqual(second.id, payment.id)
    assert.equal(created(await aprovador.call('POST', `/api/desembolsos/${second.id}/aprovacao`, undefined, key()), 200).estado, 'aprovado')
    const refusedList = created(await operador.call('GET', '/api/desembolsos?estado=recusado'), 200).itens as { id: string }[]
    assert.deepEqual(refusedList.map((p) => p.id), [payment.id])

    const audit = created(await operador.call('GET', '/api/conta/auditoria?limite=200'), 200).itens as { acao: string, alvo_id: string, ator_id: string }[]
    const row = audit.find((a) => a.acao === 'desembolso.recusado')
    assert.ok(row, 'the refusal is audited')
    assert.equal(row.alvo_id, payment.id)
    assert.equal(audit.filter((a) => a.acao === 'desembolso.recusado').length, 1, 'the replay wrote no second row')
  })

  it('the approval\'s rules: the requester, a token with no person and a role without approval are refused; a key is required', async () => {
    clock.set(EXAMPLE_NOW)
    const { admin, operador, aprovador, integration } = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await formalizedExample(admin.call)
    // The administrador may approve; having asked, they may not refuse either.
    const payment = created(await admin.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
    const url = `/api/desembolsos/${payment.id}/recusa`

    const own = await admin.call('POST', url, REASON, key())
    assert.equal(own.statusCode, 403)
    assert.equal(own.json().detail, 'aprovacao_pelo_mesmo_usuario')
    const token = await integration('POST', url, REASON, key())
    assert.equal(token.statusCode, 403)
    assert.equal(token.json().detail, 'aprovacao_pelo_mesmo_usuario')
    const role = await operador.call('POST', url, REASON, key())
    assert.equal(role.statusCode, 403)
    assert.equal(role.json().detail, 'papel_insuficiente')
    const noKey = await aprovador.call('POST', url, REASON)
    assert.equal(noKey.statusCode, 400)
    assert.equal(noKey.json().detail, 'chave_idempotencia_ausente')

    for (const body of [{}, { motivo: 'ok' }, { motivo: '   ab   ' }, { motivo: 'x'.repeat(501) }, { motivo: 'válido', extra: 1 }]) {
      const bad = await aprovador.call('POST', url, body, key())
      assert.equal(bad.statusCode, 422, JSON.stringify(body))
      assert.deepEqual([...new Set(bad.json().detail.map((i: { loc: string[] }) => i.loc[0]))], ['body'])
    }
    assert.equal(created(await admin.call('GET', `/api/desembolsos/${payment.id}`), 200).estado, 'aguardando_aprovacao', 'nothing refused it')

    // Approved already: too late to refuse (the transfer's failure is recorded instead).
    created(await aprovador.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key()), 200)
    const late = await aprovador.call('POST', url, REASON, key())
    assert.equal(late.statusCode, 409)
    assert.deepEqual(late.json(), { detail: 'estado_invalido', estado: 'aprovado' })
  })

  it('another customer\'s payment, or no payment, is not found', async () => {
    clock.set(EXAMPLE_NOW)
    const mine = await backOffice(ctx.db, ctx.app, clock)
    const theirs = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await formalizedExample(theirs.operador.call)
    const payment = created(await theirs.operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
    for (const id of [payment.id, '00000000-0000-4000-8000-000000000000', 'não-é-id']) {
      const res = await mine.aprovador.call('POST', `/api/desembolsos/${encodeURIComponent(id)}/recusa`, REASON, key())
      assert.equal(res.statusCode, 404, id)
      assert.equal(res.json().detail, 'nao_encontrado')
    }
    assert.equal(created(await theirs.operador.call('GET', `/api/desembolsos/${payment.id}`), 200).estado, 'aguardando_aprovacao')
  })
})

describe('a payment names what an approver decides on', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('the operation\'s number, the cedente, and the names of who asked and who refused', async () => {
    clock.set(EXAMPLE_NOW)
    const { clienteId, operador, aprovador } = await backOffice(ctx.db, ctx.app, clock)
    const { op, cedente } = await formalizedExample(operador.call)
    await rename(ctx.db, clienteId, operador.usuarioId, 'Olga Operadora')
    await rename(ctx.db, clienteId, aprovador.usuarioId, 'Abel Aprovador')
    const asked = created(await operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
    assert.equal(asked.operacao_numero, op.numero)
    assert.deepEqual(asked.cedente, { razao_social: cedente.razao_social, documento: cedente.documento })
    assert.equal(asked.solicitante_usuario_id, operador.usuarioId)
    assert.equal(asked.solicitante_nome, 'Olga Operadora')
    assert.equal(asked.solicitado_por.nome, 'token da pessoa', 'the credential it came by: the person\'s token')
    assert.equal(asked.conta_bancaria.historico.incluida_por_nome, 'Olga Operadora', 'who registered the cedente with its account')
    assert.equal(asked.conta_bancaria.historico.confirmada_por_nome, null, 'confirmed by the registration itself, by no second person')
    const refused = created(await aprovador.call('POST', `/api/desembolsos/${asked.id}/recusa`, { motivo: 'Sem contrato' }, key()), 200)
    assert.equal(refused.recusa.por_nome, 'Abel Aprovador')
    const listed = created(await operador.call('GET', '/api/desembolsos'), 200).itens[0]
    assert.deepEqual(listed, refused)
  })
})

/** People's names as they would have typed them at their invitation (the helpers' people are all "Pessoa de Teste"). */
async function rename(db: Database, clienteId: string, id: string, nome: string) {
  const done = await withTenant(db, clienteId, (tx) => tx.update(usuarios).set({ nome }).where(eq(usuarios.id, id)).returning({ id: usuarios.id }))
  assert.equal(done.length, 1)
}

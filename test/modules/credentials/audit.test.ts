// The customer's audit trail: who, what, about what, which request, the address as an HMAC with the
// installation's salt (never the address), paged newest first, a customer's own rows only.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { appendAudit, listAudit, AUDIT_PAGE_MAX } from '../../../src/platform/tenancy/audit/store.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { ipHash } from '../../../src/platform/lib/ip-hash.ts'
import { auditRows, customer, dbError, operatorNow } from '../../helpers/credentials.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'

describe('the customer\'s audit trail', () => {
  const tdb = useTestDatabase()

  it('keeps the actor, the action, what it was about, the request id and an HMAC of the address; never the address', async () => {
    const { id: clienteId } = await customer(tdb.db)
    const tokenId = crypto.randomUUID()
    const now = new Date('2026-11-20T12:00:00Z')
    await withTenant(tdb.db, clienteId, (tx) => appendAudit(tx, clienteId, {
      actor: { tipo: 'token', id: tokenId }, now, requestId: 'abc-123', requestIdCliente: 'do-cliente', ip: '203.0.113.9',
    }, 'token.recusado', { alvoId: tokenId, motivo: 'dpop_invalido' }))
    const [{ sal_ip: salt }] = await tdb.db.ownerTransaction((tx) => tx.query<{ sal_ip: string }>('SELECT sal_ip FROM instalacao')) as [{ sal_ip: string }]
    const rows = await auditRows(tdb.db, clienteId)
    const row = rows.at(-1)!
    assert.equal(Number(row.numero), rows.length, 'numbered within its customer')
    assert.deepEqual({ ...row, id: undefined, numero: undefined }, {
      id: undefined, numero: undefined, cliente_id: clienteId, em: now, ator_tipo: 'token', ator_id: tokenId, acao: 'token.recusado', alvo_id: tokenId,
      motivo: 'dpop_invalido', request_id: 'abc-123', request_id_cliente: 'do-cliente', ip_hash: ipHash(salt, '203.0.113.9'), alteracoes: null,
    })
  })

  it('pages newest first with a cursor, and lists only the customer of the transaction', async () => {
    const a = await customer(tdb.db)
    const b = await customer(tdb.db)
    for (let i = 0; i < 4; i++) {
      await withTenant(tdb.db, a.id, (tx) => appendAudit(tx, a.id, operatorNow(), 'cliente.suspenso', { motivo: `passo_${'abcd'[i]}` }))
    }
    const page = (before?: number) => withTenant(tdb.db, a.id, (tx) => listAudit(tx, a.id, { limit: 2, before }))
    const first = await page()
    assert.deepEqual(first.items.map((r) => r.motivo), ['passo_d', 'passo_c'])
    const second = await page(first.next!)
    assert.deepEqual(second.items.map((r) => r.motivo), ['passo_b', 'passo_a'])
    const last = await page(second.next!)
    assert.deepEqual([last.items.map((r) => r.acao), last.next], [['cliente.criado'], null])
    assert.ok(!('ipHash' in first.items[0]!), 'the address hash stays in the database')
    assert.deepEqual(await withTenant(tdb.db, b.id, (tx) => listAudit(tx, a.id)), { items: [], next: null }, 'B reads nothing of A')
    assert.equal((await withTenant(tdb.db, a.id, (tx) => listAudit(tx, a.id, { limit: 10_000 }))).items.length, 5)
    assert.equal(AUDIT_PAGE_MAX, 200)
  })

  it('an action outside the catalogue\'s shape is refused by the database', async () => {
    const { id } = await customer(tdb.db)
    await assert.rejects(withTenant(tdb.db, id, (tx) => appendAudit(tx, id, operatorNow(), 'Token criado com fct_pat_xyz' as never)),
      dbError('23514', /auditoria_cliente_acao_check/))
  })
})

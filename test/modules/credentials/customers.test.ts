// Customers: created active (CNPJ checked), listed for the operator, suspended and reactivated, each change
// audited once in the customer's own trail as the operator's.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createCustomer, getCustomer, listCustomers, reactivateCustomer, suspendCustomer } from '../../../src/modules/credentials/customers/store.ts'
import { CredentialInputError } from '../../../src/modules/credentials/errors.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { auditRows, customer, operatorNow } from '../../helpers/credentials.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'

describe('customers', () => {
  const tdb = useTestDatabase()

  it('a new customer is active, its CNPJ kept without punctuation, and its creation is in its audit trail as the operator\'s', async () => {
    const now = new Date('2026-11-20T12:00:00Z')
    const made = await createCustomer(tdb.db, { nome: '  Fomento Paulista Ltda  ', documento: '11.222.333/0001-81' }, operatorNow(now))
    assert.deepEqual({ ...made, id: undefined }, {
      id: undefined, nome: 'Fomento Paulista Ltda', documento: '11222333000181', estado: 'ativo', criadoEm: now, estadoEm: now,
    })
    const audit = await auditRows(tdb.db, made.id)
    assert.deepEqual(audit.map((r) => [r.acao, r.ator_tipo, r.ator_id, r.alvo_id, r.request_id, r.ip_hash]),
      [['cliente.criado', 'operador', null, made.id, null, null]])
  })

  it('refuses a CNPJ whose check digits do not hold, a CNPJ already used, and an empty or overlong name, creating nothing', async () => {
    const before = (await listCustomers(tdb.db.orm)).length
    const refused = (pattern: RegExp) => (err: Error) => err instanceof CredentialInputError && pattern.test(err.message)
    await assert.rejects(createCustomer(tdb.db, { nome: 'X', documento: '11.222.333/0001-82' }, operatorNow()), refused(/not a valid CNPJ/))
    await createCustomer(tdb.db, { nome: 'Primeira', documento: '04.252.011/0001-10' }, operatorNow())
    await assert.rejects(createCustomer(tdb.db, { nome: 'Segunda', documento: '04252011000110' }, operatorNow()), refused(/CNPJ exists already/))
    await assert.rejects(createCustomer(tdb.db, { nome: '   ' }, operatorNow()), refused(/1 to 200 characters/))
    await assert.rejects(createCustomer(tdb.db, { nome: 'x'.repeat(201) }, operatorNow()), refused(/1 to 200 characters/))
    assert.equal((await listCustomers(tdb.db.orm)).length, before + 1)
  })

  it('the operator\'s list has every customer, oldest first, without anything of their people or tokens', async () => {
    const a = await customer(tdb.db, 'Lista A')
    const b = await customer(tdb.db, 'Lista B')
    const all = await listCustomers(tdb.db.orm)
    const ids = all.map((c) => c.id)
    assert.ok(ids.indexOf(a.id) >= 0 && ids.indexOf(a.id) < ids.indexOf(b.id))
    assert.deepEqual(Object.keys(all[0]!).sort(), ['criadoEm', 'documento', 'estado', 'estadoEm', 'id', 'nome'])
  })

  it('suspend and reactivate: audited when the state changes, a no-op (unaudited) when it does not', async () => {
    const { id } = await customer(tdb.db)
    const t1 = new Date(Date.now() + 1000)
    const first = await withTenant(tdb.db, id, (tx) => suspendCustomer(tx, id, operatorNow(t1)))
    assert.deepEqual([first?.changed, first?.customer.estado, first?.customer.estadoEm], [true, 'suspenso', t1])
    const again = await withTenant(tdb.db, id, (tx) => suspendCustomer(tx, id, operatorNow()))
    assert.deepEqual([again?.changed, again?.customer.estado, again?.customer.estadoEm], [false, 'suspenso', t1])
    const back = await withTenant(tdb.db, id, (tx) => reactivateCustomer(tx, id, operatorNow()))
    assert.deepEqual([back?.changed, back?.customer.estado], [true, 'ativo'])
    assert.deepEqual((await auditRows(tdb.db, id)).map((r) => r.acao), ['cliente.criado', 'cliente.suspenso', 'cliente.reativado'])
  })

  it('another customer\'s id, from this customer\'s transaction, is no customer at all', async () => {
    const a = await customer(tdb.db)
    const b = await customer(tdb.db)
    assert.equal(await withTenant(tdb.db, a.id, (tx) => suspendCustomer(tx, b.id, operatorNow())), undefined)
    assert.equal(await withTenant(tdb.db, a.id, (tx) => getCustomer(tx, b.id)), undefined)
    assert.equal((await withTenant(tdb.db, b.id, (tx) => getCustomer(tx, b.id)))?.estado, 'ativo')
  })
})

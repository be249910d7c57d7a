// A credentialed request writes its credential's use only when it is news (issue 19, performance): a token's
// first use (with its audit row), a use from another address, or one more than a minute after the last recorded;
// a session's access at most once a minute. Every other request writes nothing before its handler, and reads its
// token from what the instance kept for half a second (lookup-cache.ts): a revocation through an instance takes
// effect there at the very next request, and on every other instance within a second, by the database's notice
// or, that lost, by the half second alone.
import assert from 'node:assert/strict'
import { describe, it, type TestContext } from 'node:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../../src/platform/db/database.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { bearer, issueToken } from '../../helpers/api-credentials.ts'
import { auditRows, customer, operatorNow } from '../../helpers/credentials.ts'
import { suspendCustomer } from '../../../src/modules/credentials/customers/store.ts'
import { revokeToken } from '../../../src/modules/credentials/tokens/store.ts'
import { CREDENTIALS_CHANNEL } from '../../../src/modules/credentials/http/setup.ts'
import { testApp, useTestApp } from '../../helpers/fixture.ts'
import { until } from '../../helpers/wait.ts'
import type { App } from '../../../src/app.ts'
import { settableClock } from '../operations/helpers.ts'

const T0 = '2026-11-27T12:00:00.000Z'
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString()

describe('a credential\'s use, written at a coarse grain', () => {
  const clock = settableClock(T0)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  // As text in UTC ISO form: both drivers answer the same string, whatever their date parsing.
  const lastUse = async (clienteId: string, id: string) => (await withTenant(ctx.db, clienteId, (tx) => queryRows<{ em: string, ip: string }>(tx,
    sql`SELECT to_char(ultimo_uso_em AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS em, host(ultimo_uso_ip) AS ip FROM tokens WHERE id = ${id}`)))[0]!

  it('a token: the first use and its audit row, then nothing within the minute from the same address; another address or a minute later writes', async () => {
    clock.set(T0)
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id, { escopos: ['conta'], clock })
    const get = (ip: string) => bearer(ctx.app, t.token, 'GET', '/api/conta', { remoteAddress: ip })
    assert.equal((await get('203.0.113.1')).statusCode, 200)
    assert.deepEqual(await lastUse(c.id, t.id), { em: T0, ip: '203.0.113.1' })

    clock.set(at(30))
    assert.equal((await get('203.0.113.1')).statusCode, 200)
    assert.deepEqual(await lastUse(c.id, t.id), { em: T0, ip: '203.0.113.1' }, 'nothing written within the minute')
    assert.equal((await get('203.0.113.2')).statusCode, 200)
    assert.deepEqual(await lastUse(c.id, t.id), { em: at(30), ip: '203.0.113.2' }, 'another address is news')

    clock.set(at(95))
    assert.equal((await get('203.0.113.2')).statusCode, 200)
    assert.deepEqual(await lastUse(c.id, t.id), { em: at(95), ip: '203.0.113.2' }, 'a minute later is news')
    assert.equal((await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'token.primeiro_uso').length, 1)
  })

  it('a revocation takes effect at the next request, however recent the last use', async () => {
    clock.set(T0)
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id, { escopos: ['conta', 'tokens'], clock })
    assert.equal((await bearer(ctx.app, t.token, 'GET', '/api/conta')).statusCode, 200)
    assert.equal((await bearer(ctx.app, t.token, 'DELETE', `/api/conta/tokens/${t.id}`)).statusCode, 204)
    clock.set(at(1))
    const after = await bearer(ctx.app, t.token, 'GET', '/api/conta')
    assert.equal(after.statusCode, 401)
    assert.equal(after.json().detail, 'token_invalido')
  })

  // A second instance of the service on the same database, with its own kept lookups and its own listener.
  const secondInstance = (t: TestContext) => testApp(t, { db: ctx.db, env: { MAIL_WORKER: 'off' }, deps: { clock } })
  const status = async (app: App, token: string) => (await bearer(app, token, 'GET', '/api/conta')).statusCode

  it('a revocation through one instance: refused there at the next request, and on another instance within a second', async (t) => {
    clock.set(T0)
    const other = await secondInstance(t)
    const c = await customer(ctx.db)
    const tk = await issueToken(ctx.db, c.id, { escopos: ['conta', 'tokens'], clock })
    assert.equal(await status(ctx.app, tk.token), 200)
    assert.equal(await status(other, tk.token), 200, 'both instances keep the lookup')
    assert.equal((await bearer(ctx.app, tk.token, 'DELETE', `/api/conta/tokens/${tk.id}`)).statusCode, 204)
    assert.equal(await status(ctx.app, tk.token), 401)
    await until('the other instance to refuse the revoked token', async () => await status(other, tk.token) === 401, 1000)
  })

  it('with the database\'s notice lost, a suspension still takes effect on another instance within a second', async (t) => {
    clock.set(T0)
    const other = await secondInstance(t)
    const c = await customer(ctx.db)
    const tk = await issueToken(ctx.db, c.id, { escopos: ['conta'], clock })
    assert.equal(await status(other, tk.token), 200)
    await ctx.db.ownerTransaction((tx) => tx.exec('ALTER TABLE clientes DISABLE TRIGGER clientes_mudou'))
    t.after(() => ctx.db.ownerTransaction((tx) => tx.exec('ALTER TABLE clientes ENABLE TRIGGER clientes_mudou')))
    await withTenant(ctx.db, c.id, (tx) => suspendCustomer(tx, c.id, operatorNow()))
    await until('the other instance to refuse the suspended customer', async () => await status(other, tk.token) === 403, 1000)
  })

  it('the database notifies each change to what a lookup reads, and nothing for a recorded use', async (t) => {
    clock.set(T0)
    const notices: number[] = []
    const stop = await ctx.db.listen(CREDENTIALS_CHANNEL, () => notices.push(1))
    t.after(stop)
    const c = await customer(ctx.db)
    const tk = await issueToken(ctx.db, c.id, { escopos: ['conta', 'tokens'], clock })
    // Absence is waited for (a notice would have arrived by then); presence is polled for.
    const quiet = async () => { await new Promise((r) => setTimeout(r, 300)); return notices.splice(0).length }
    const noticed = (what: string) => until(what, () => notices.splice(0).length > 0, 5000)
    await quiet()
    assert.equal((await bearer(ctx.app, tk.token, 'GET', '/api/conta', { remoteAddress: '203.0.113.9' })).statusCode, 200)
    assert.equal(await quiet(), 0, 'the first use, recorded, is no change to the lookup')
    await withTenant(ctx.db, c.id, (tx) => suspendCustomer(tx, c.id, operatorNow()))
    await noticed('the notice of a customer suspended')
    await withTenant(ctx.db, c.id, (tx) => revokeToken(tx, { clienteId: c.id, tokenId: tk.id }, operatorNow()))
    await noticed('the notice of a token revoked')
  })
})

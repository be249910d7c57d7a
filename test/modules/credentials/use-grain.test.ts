// A credentialed request writes its credential's use only when it is news (issue 19, performance): a token's
// first use (with its audit row), a use from another address, or one more than a minute after the last recorded;
// a session's access at most once a minute. Every other request reads and writes nothing before its handler,
// and a revocation or a suspension still takes effect at the very next request (there is no cache to wait for).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../../src/platform/db/database.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { bearer, issueToken } from '../../helpers/api-credentials.ts'
import { auditRows, customer } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
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
    const t = await issueToken(ctx.db, c.id, { escopos: ['conta'], expiraEm: new Date(Date.parse(T0) + 86_400_000) })
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
    const t = await issueToken(ctx.db, c.id, { escopos: ['conta', 'tokens'], expiraEm: new Date(Date.parse(T0) + 86_400_000) })
    assert.equal((await bearer(ctx.app, t.token, 'GET', '/api/conta')).statusCode, 200)
    assert.equal((await bearer(ctx.app, t.token, 'DELETE', `/api/conta/tokens/${t.id}`)).statusCode, 204)
    clock.set(at(1))
    const after = await bearer(ctx.app, t.token, 'GET', '/api/conta')
    assert.equal(after.statusCode, 401)
    assert.equal(after.json().detail, 'token_invalido')
  })
})

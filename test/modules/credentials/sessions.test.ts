// Web sessions: the cookie's secret returned once, stored as its digest; idle and absolute expiry; each use
// pushes the idle one forward (never past the absolute one); logout and "sair de todos os dispositivos", audited.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { newToken, tokenHash, tokenKind } from '../../../src/modules/credentials/token-format.ts'
import {
  createSession, DEFAULT_SESSION_LIMITS, endSession, endUserSessions, findSession, listSessions, sessionRefusal, touchSession,
} from '../../../src/modules/credentials/sessions/store.ts'
import { activeUser, auditRows, customer } from '../../helpers/credentials.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'

const MIN = 60_000

describe('web sessions', () => {
  const tdb = useTestDatabase()

  async function person() {
    const { id: clienteId } = await customer(tdb.db)
    const user = await activeUser(tdb.db, clienteId)
    const as = (now: Date) => ({ actor: { tipo: 'usuario' as const, id: user.id }, now, requestId: 'req-s', ip: '192.0.2.10' })
    const open = (now: Date, limits = { idleMs: 30 * MIN, absoluteMs: 120 * MIN }) =>
      withTenant(tdb.db, clienteId, (tx) => createSession(tx, { clienteId, usuarioId: user.id }, as(now), limits))
    return { clienteId, usuarioId: user.id, as, open }
  }

  it('a new session: the cookie\'s secret (kind sessao) once, its digest stored, idle and absolute expiry set, audited', async () => {
    const p = await person()
    const now = new Date('2026-11-20T12:00:00Z')
    const { token, session } = await p.open(now)
    assert.equal(tokenKind(token), 'sessao')
    assert.deepEqual([session.criadaEm, session.expiraOciosaEm, session.expiraEm, session.encerradaEm],
      [now, new Date(now.getTime() + 30 * MIN), new Date(now.getTime() + 120 * MIN), null])
    const [row] = await tdb.db.ownerTransaction((tx) => tx.query<{ hash: string }>('SELECT hash FROM sessoes WHERE id = $1', [session.id]))
    assert.equal(row!.hash, tokenHash(token))
    const audit = (await auditRows(tdb.db, p.clienteId)).at(-1)!
    assert.deepEqual([audit.acao, audit.ator_id, audit.alvo_id], ['sessao.criada', p.usuarioId, session.id])
    assert.ok(!JSON.stringify(audit).includes(token))
    assert.deepEqual(DEFAULT_SESSION_LIMITS, { idleMs: 30 * MIN, absoluteMs: 12 * 60 * MIN })
  })

  it('found by the cookie alone; refused once idle too long or past its absolute expiry; another secret finds nothing', async () => {
    const p = await person()
    const now = new Date()
    const { token, session } = await p.open(now)
    const found = (await findSession(tdb.db.orm, token))!
    assert.deepEqual([found.id, found.clienteId, found.usuarioId, found.usuarioEstado, found.clienteEstado],
      [session.id, p.clienteId, p.usuarioId, 'ativo', 'ativo'])
    assert.equal(sessionRefusal(found, new Date(now.getTime() + 29 * MIN)), undefined)
    assert.equal(sessionRefusal(found, new Date(now.getTime() + 30 * MIN)), 'expirada')
    for (const other of [newToken('sessao'), newToken('pat'), token.toUpperCase()]) assert.equal(await findSession(tdb.db.orm, other), undefined)
  })

  it('each use pushes the idle expiry forward, never past the absolute one; an expired session is not revived', async () => {
    const p = await person()
    const t0 = new Date()
    const { token, session } = await p.open(t0)
    const ref = { clienteId: p.clienteId, sessaoId: session.id }
    const limits = { idleMs: 30 * MIN, absoluteMs: 120 * MIN }
    const touch = (at: Date) => withTenant(tdb.db, p.clienteId, (tx) => touchSession(tx, ref, at, limits))
    assert.equal(await touch(new Date(t0.getTime() + 20 * MIN)), true)
    assert.equal((await findSession(tdb.db.orm, token))!.expiraOciosaEm.getTime(), t0.getTime() + 50 * MIN)
    assert.equal(await touch(new Date(t0.getTime() + 100 * MIN)), false, 'idle since minute 50')
    assert.equal(await touch(new Date(t0.getTime() + 45 * MIN)), true)
    assert.equal(await touch(new Date(t0.getTime() + 70 * MIN)), true)
    assert.equal(await touch(new Date(t0.getTime() + 99 * MIN)), true)
    assert.equal((await findSession(tdb.db.orm, token))!.expiraOciosaEm.getTime(), t0.getTime() + 120 * MIN, 'capped by the absolute expiry')
    assert.equal(await touch(new Date(t0.getTime() + 120 * MIN)), false)
  })

  it('logout ends one session for good, audited once; "sair de todos os dispositivos" ends the person\'s others, each audited', async () => {
    const p = await person()
    const colleague = await activeUser(tdb.db, p.clienteId)
    const now = new Date()
    const [one, two, three] = [await p.open(now), await p.open(now), await p.open(now)]
    const theirs = await withTenant(tdb.db, p.clienteId, (tx) => createSession(tx, { clienteId: p.clienteId, usuarioId: colleague.id }, p.as(now)))
    const end = (sessaoId: string) => withTenant(tdb.db, p.clienteId, (tx) => endSession(tx, { clienteId: p.clienteId, sessaoId }, p.as(new Date())))
    assert.equal(await end(one.session.id), true)
    assert.equal(await end(one.session.id), false)
    assert.equal(sessionRefusal((await findSession(tdb.db.orm, one.token))!, new Date()), 'encerrada')
    const live = await withTenant(tdb.db, p.clienteId, (tx) => listSessions(tx, { clienteId: p.clienteId, usuarioId: p.usuarioId }, new Date()))
    assert.deepEqual(live.map((s) => s.id).sort(), [two.session.id, three.session.id].sort())

    const ended = await withTenant(tdb.db, p.clienteId, (tx) => endUserSessions(tx, { clienteId: p.clienteId, usuarioId: p.usuarioId }, p.as(new Date())))
    assert.equal(ended, 2)
    assert.deepEqual(await withTenant(tdb.db, p.clienteId, (tx) => listSessions(tx, { clienteId: p.clienteId, usuarioId: p.usuarioId }, new Date())), [])
    assert.equal(sessionRefusal((await findSession(tdb.db.orm, theirs.token))!, new Date()), undefined, 'a colleague\'s session goes on')
    const endings = (await auditRows(tdb.db, p.clienteId)).filter((r) => r.acao === 'sessao.encerrada').map((r) => r.alvo_id)
    assert.deepEqual(endings.sort(), [one.session.id, two.session.id, three.session.id].sort())
  })
})

// People and their invitations: invited with a one-time link good for 72 hours (stored as a digest), accepted
// once with an argon2id hash, found for login by e-mail in any case; e-mails unique across the platform.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { suspendCustomer } from '../../../src/modules/credentials/customers/store.ts'
import { CredentialInputError, EmailInUseError, InactiveCustomerError, InvitationUnusableError } from '../../../src/modules/credentials/errors.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { newToken, tokenHash, tokenKind } from '../../../src/modules/credentials/token-format.ts'
import { acceptInvitation, findInvitation, findLogin, getUser, INVITATION_TTL_MS, inviteUser, listUsers } from '../../../src/modules/credentials/users/store.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import { ARGON2ID_HASH, auditRows, customer, operatorNow } from '../../helpers/credentials.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'

describe('people and invitations', () => {
  const tdb = useTestDatabase()
  const invite = (clienteId: string, email: string, now = new Date()) =>
    withTenant(tdb.db, clienteId, (tx) => inviteUser(tx, { clienteId, email, nome: ' Ana Souza ' }, operatorNow(now)))

  it('invites: a waiting person (e-mail lower-cased), a one-time link for 72 hours stored as its digest, audited', async () => {
    const { id: clienteId } = await customer(tdb.db)
    const now = new Date('2026-11-20T12:00:00Z')
    const { user, invitation } = await invite(clienteId, '  Ana.Souza@Cliente.COM.br ', now)
    assert.deepEqual([user.email, user.nome, user.estado, user.ativadoEm], ['ana.souza@cliente.com.br', 'Ana Souza', 'convidado', null])
    assert.equal(tokenKind(invitation.token), 'convite')
    assert.equal(invitation.expiraEm.getTime(), now.getTime() + INVITATION_TTL_MS)
    assert.equal(INVITATION_TTL_MS, 72 * 3_600_000)
    const [stored] = await tdb.db.ownerTransaction((tx) => tx.query<{ hash: string }>('SELECT hash FROM convites WHERE id = $1', [invitation.id]))
    assert.equal(stored!.hash, tokenHash(invitation.token))
    const audit = await auditRows(tdb.db, clienteId)
    assert.deepEqual(audit.at(-1)!.acao, 'convite.enviado')
    assert.equal(audit.at(-1)!.alvo_id, user.id)
    assert.ok(!JSON.stringify(audit).includes(invitation.token) && !JSON.stringify(audit).includes('ana.souza'), 'no secret, no e-mail')
  })

  it('an e-mail belongs to one person on the whole platform; the refusal leaves the transaction usable', async () => {
    const a = await customer(tdb.db)
    const b = await customer(tdb.db)
    await invite(a.id, 'unica@cliente.com.br')
    const after = await withTenant(tdb.db, b.id, async (tx) => {
      await assert.rejects(inviteUser(tx, { clienteId: b.id, email: 'UNICA@cliente.com.br', nome: 'Outra' }, operatorNow()), EmailInUseError)
      return queryRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM usuarios`)
    })
    assert.deepEqual(after, [{ n: 0 }])
  })

  it('refuses a malformed e-mail, an empty name, and a suspended customer', async () => {
    const { id: clienteId } = await customer(tdb.db)
    await assert.rejects(invite(clienteId, 'sem-arroba'), (err: Error) => err instanceof CredentialInputError && /e-mail is not valid/.test(err.message))
    await assert.rejects(withTenant(tdb.db, clienteId, (tx) => inviteUser(tx, { clienteId, email: 'x@cliente.com.br', nome: ' ' }, operatorNow())),
      CredentialInputError)
    await withTenant(tdb.db, clienteId, (tx) => suspendCustomer(tx, clienteId, operatorNow()))
    await assert.rejects(invite(clienteId, 'tarde@cliente.com.br'), InactiveCustomerError)
  })

  it('an invitation is found by its link alone, accepted once, and then the person logs in by e-mail in any case', async () => {
    const { id: clienteId } = await customer(tdb.db)
    const { user, invitation } = await invite(clienteId, 'aceita@cliente.com.br')
    const found = await findInvitation(tdb.db.orm, invitation.token)
    assert.deepEqual(found, { id: invitation.id, clienteId, usuarioId: user.id, expiraEm: invitation.expiraEm, usadoEm: null, clienteEstado: 'ativo' })
    for (const other of [newToken('convite'), newToken('pat'), invitation.token.slice(0, -1)]) assert.equal(await findInvitation(tdb.db.orm, other), undefined)

    const as = { actor: { tipo: 'usuario' as const, id: user.id }, now: new Date(), requestId: 'req-ativar', ip: '198.51.100.4' }
    const active = await withTenant(tdb.db, clienteId, (tx) => acceptInvitation(tx, found!, ARGON2ID_HASH, as))
    assert.deepEqual([active.estado, active.ativadoEm], ['ativo', as.now])
    assert.notEqual((await findInvitation(tdb.db.orm, invitation.token))?.usadoEm, null)
    await assert.rejects(withTenant(tdb.db, clienteId, (tx) => acceptInvitation(tx, found!, ARGON2ID_HASH, as)), InvitationUnusableError)

    assert.deepEqual(await findLogin(tdb.db.orm, ' ACEITA@Cliente.com.br'), {
      usuarioId: user.id, clienteId, senhaHash: ARGON2ID_HASH, usuarioEstado: 'ativo', clienteEstado: 'ativo',
    })
    assert.equal(await findLogin(tdb.db.orm, 'ninguem@cliente.com.br'), undefined)
    const audit = (await auditRows(tdb.db, clienteId)).at(-1)!
    assert.deepEqual([audit.acao, audit.ator_tipo, audit.ator_id, audit.request_id], ['convite.aceito', 'usuario', user.id, 'req-ativar'])
    assert.ok(!JSON.stringify(audit).includes(ARGON2ID_HASH) && !JSON.stringify(audit).includes('198.51.100.4'))
  })

  it('an expired invitation, or a hash that is not argon2id, sets no password', async () => {
    const { id: clienteId } = await customer(tdb.db)
    const now = new Date()
    const { user, invitation } = await invite(clienteId, 'expirou@cliente.com.br', now)
    const found = (await findInvitation(tdb.db.orm, invitation.token))!
    const later = { actor: { tipo: 'usuario' as const, id: user.id }, now: new Date(now.getTime() + INVITATION_TTL_MS) }
    await assert.rejects(withTenant(tdb.db, clienteId, (tx) => acceptInvitation(tx, found, ARGON2ID_HASH, later)), InvitationUnusableError)
    await assert.rejects(withTenant(tdb.db, clienteId, (tx) => acceptInvitation(tx, found, '$2b$10$bcrypt', { ...later, now })), CredentialInputError)
    assert.equal((await withTenant(tdb.db, clienteId, (tx) => getUser(tx, user.id)))?.estado, 'convidado')
    assert.equal((await findLogin(tdb.db.orm, 'expirou@cliente.com.br'))?.senhaHash, null)
  })

  it('lists the customer\'s people without their password hashes', async () => {
    const { id: clienteId } = await customer(tdb.db)
    await invite(clienteId, 'um@cliente.com.br', new Date(Date.now() - 1000))
    await invite(clienteId, 'dois@cliente.com.br')
    const people = await withTenant(tdb.db, clienteId, (tx) => listUsers(tx, clienteId))
    assert.deepEqual(people.map((p) => p.email), ['um@cliente.com.br', 'dois@cliente.com.br'])
    assert.deepEqual(Object.keys(people[0]!).sort(), ['ativadoEm', 'clienteId', 'criadoEm', 'email', 'estado', 'id', 'nome', 'papel'])
  })
})

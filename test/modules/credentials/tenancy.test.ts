// Forced row-level security as the service meets it: the runtime role, in customer A's transaction, sees and
// writes A's rows only, whatever the query; without a customer it sees nothing and writes nothing.
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { withTenant, InvalidTenantError } from '../../../src/platform/tenancy/tenancy.ts'
import { createSession } from '../../../src/modules/credentials/sessions/store.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import { activeUser, customer, dbError, operatorToken, rowsAs } from '../../helpers/credentials.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'

type Side = { id: string, user: string, token: string, session: string }

const rlsRefused = dbError('42501', /row-level security/)
const denied = dbError('42501', /permission denied/)

describe('row-level security', () => {
  const tdb = useTestDatabase()
  const a = {} as Side
  const b = {} as Side

  before(async () => {
    for (const side of [a, b]) {
      side.id = (await customer(tdb.db)).id
      side.user = (await activeUser(tdb.db, side.id)).id
      side.token = (await operatorToken(tdb.db, side.id)).id
      side.session = (await withTenant(tdb.db, side.id, (tx) => createSession(tx, { clienteId: side.id, usuarioId: side.user }, {
        actor: { tipo: 'usuario', id: side.user }, now: new Date(),
      }))).session.id
    }
  })

  it('a deliberately unscoped SELECT * in customer A\'s transaction sees only A\'s tokens, sessions, invitations and audit rows', async () => {
    const tokens = await rowsAs<{ id: string, cliente_id: string, hash: string }>(tdb.db, a.id, 'SELECT * FROM tokens')
    assert.deepEqual(tokens.map((t) => [t.id, t.cliente_id]), [[a.token, a.id]])
    const sessions = await rowsAs<{ id: string, cliente_id: string }>(tdb.db, a.id, 'SELECT * FROM sessoes')
    assert.deepEqual(sessions.map((s) => [s.id, s.cliente_id]), [[a.session, a.id]])
    const invitations = await rowsAs<{ cliente_id: string }>(tdb.db, a.id, 'SELECT * FROM convites')
    assert.deepEqual(invitations.map((i) => i.cliente_id), [a.id])
    const audit = await rowsAs<{ cliente_id: string }>(tdb.db, a.id, 'SELECT * FROM auditoria_cliente')
    assert.ok(audit.length >= 4, 'created, invited, accepted, token, session')
    assert.ok(audit.every((r) => r.cliente_id === a.id))
    assert.deepEqual((await rowsAs<{ id: string }>(tdb.db, a.id, 'SELECT * FROM clientes')).map((c) => c.id), [a.id])
  })

  it('people: an unscoped SELECT sees A\'s alone, and SELECT * is refused outright, since no one may read a password hash back', async () => {
    const people = await rowsAs<{ id: string, cliente_id: string }>(tdb.db, a.id, 'SELECT id, cliente_id, email, nome, estado FROM usuarios')
    assert.deepEqual(people.map((p) => [p.id, p.cliente_id]), [[a.user, a.id]])
    await assert.rejects(rowsAs(tdb.db, a.id, 'SELECT * FROM usuarios'), denied)
    await assert.rejects(rowsAs(tdb.db, a.id, 'SELECT senha_hash FROM usuarios'), denied)
  })

  it('without a customer a query sees nothing: no setting, and the empty string a finished transaction leaves', async () => {
    for (const table of ['clientes', 'tokens', 'sessoes', 'convites', 'auditoria_cliente']) {
      assert.deepEqual(await rowsAs(tdb.db, undefined, `SELECT * FROM ${table}`), [], table)
    }
    assert.deepEqual(await rowsAs(tdb.db, undefined, 'SELECT id FROM usuarios'), [])
    const afterOne = await tdb.db.orm.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('app.cliente_id', '', true)`)
      return queryRows(tx, sql`SELECT id FROM tokens`)
    })
    assert.deepEqual(afterOne, [])
  })

  it('the customer of a transaction ends with it: unscoped queries on every pooled connection afterwards see nothing', async () => {
    await Promise.all(Array.from({ length: 8 }, () => withTenant(tdb.db, a.id, (tx) => queryRows(tx, sql`SELECT pg_sleep(0.01), id FROM tokens`))))
    const seen = await Promise.all(Array.from({ length: 16 }, () => rowsAs(tdb.db, undefined, 'SELECT id FROM tokens')))
    assert.deepEqual(seen.flat(), [])
  })

  it('A may not write a row of B: INSERTs with B\'s id are refused by the policy', async () => {
    const inserts = [
      `INSERT INTO tokens (cliente_id, nome, hash, escopos, expira_em) VALUES ('${b.id}', 'x', '${'a'.repeat(64)}', '{conta}', now() + interval '1 day')`,
      `INSERT INTO usuarios (cliente_id, email, nome) VALUES ('${b.id}', 'intruso@x.com.br', 'x')`,
      `INSERT INTO sessoes (cliente_id, usuario_id, hash, expira_ociosa_em, expira_em) VALUES ('${b.id}', '${b.user}', '${'b'.repeat(64)}', now(), now())`,
      `INSERT INTO auditoria_cliente (cliente_id, ator_tipo, acao) VALUES ('${b.id}', 'operador', 'token.criado')`,
      `INSERT INTO clientes (id, nome) VALUES ('${b.id.replace(/^./, 'f')}', 'outro')`,
    ]
    for (const statement of inserts) await assert.rejects(rowsAs(tdb.db, a.id, statement), rlsRefused, statement)
    // Without a customer, the same is refused too.
    await assert.rejects(rowsAs(tdb.db, undefined, inserts[0]!), rlsRefused)
  })

  it('A\'s UPDATEs do not reach B\'s rows, and nothing may be deleted', async () => {
    const revoked = await rowsAs(tdb.db, a.id, `UPDATE tokens SET revogado_em = now() WHERE id = '${b.token}' RETURNING id`)
    assert.deepEqual(revoked, [])
    assert.deepEqual(await rowsAs(tdb.db, a.id, `UPDATE clientes SET estado = 'suspenso' WHERE id = '${b.id}' RETURNING id`), [])
    assert.deepEqual(await rowsAs(tdb.db, b.id, `SELECT revogado_em FROM tokens WHERE id = '${b.token}'`), [{ revogado_em: null }])
    await assert.rejects(rowsAs(tdb.db, a.id, 'DELETE FROM tokens'), denied)
    await assert.rejects(rowsAs(tdb.db, a.id, `UPDATE tokens SET cliente_id = '${b.id}'`), denied, 'a token cannot be moved to another customer')
  })

  it('withTenant refuses an id that is not a UUID before any query', async () => {
    await assert.rejects(withTenant(tdb.db, "x' OR true --", async () => 'ran'), InvalidTenantError)
  })
})

// mutationRoute (src/platform/idempotency/mutation-route.ts) on a throwaway route registered here, as a future money route
// would be declared: a required Idempotency-Key, the change and its audit row in the customer's transaction, the
// answer stored with them. What a client sees (status, body, headers) and what the database keeps (the change, the
// audit row, the stored answer): all of it, or none of it.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { and, eq, isNull, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { ActionContext } from '../../../src/platform/tenancy/audit/store.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { systemClock } from '../../../src/platform/lib/clock.ts'
import { queryRows, type Database } from '../../../src/platform/db/database.ts'
import { tokens } from '../../../src/platform/db/schema.ts'
import { jsonAnswer } from '../../../src/platform/idempotency/http.ts'
import { mutationRoute } from '../../../src/platform/idempotency/mutation-route.ts'
import { byCredential } from '../../../src/modules/credentials/http/by-credential.ts'
import { makeIdempotency } from '../../../src/platform/idempotency/run.ts'
import { API_ENV, bearer, issueToken } from '../../helpers/api-credentials.ts'
import { auditRows, customer } from '../../helpers/credentials.ts'
import { asOwner } from '../../helpers/database.ts'
import { useTestApp } from '../../helpers/fixture.ts'

const URL_ = (id: string) => `/api/teste/tokens/${id}/suspender`

/** A money route's shape: the key required, a change, its audit row; `falhar` makes the work fail after its change. */
function throwawayRoute(db: () => Database) {
  return (app: FastifyInstance) => {
    const idempotency = makeIdempotency({ db: db(), clock: systemClock, ttlMs: 3_600_000 })
    mutationRoute<{ Params: { id: string }, Body: { falhar?: boolean } }, ActionContext>(app, { idempotency, clock: systemClock, dbTimeoutMs: 2000 }, {
      method: 'POST', url: '/api/teste/tokens/:id/suspender', idempotency: 'required', timeoutFactor: 4,
      config: { credencial: { escopo: 'tokens' } },
      schema: {
        params: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'] },
        body: { type: 'object', properties: { falhar: { type: 'boolean' } }, additionalProperties: false },
      },
      caller: byCredential,
      work: async ({ tx, req, action }) => {
        const { id } = req.params
        const [row] = await tx.update(tokens).set({ revogadoEm: action.now })
          .where(and(eq(tokens.id, id), isNull(tokens.revogadoEm))).returning({ id: tokens.id })
        if (req.body.falhar) throw new Error('the work failed after its change')
        return { answer: jsonAnswer(200, { id, alterado: row !== undefined, em: action.now.toISOString() }), audit: { acao: 'token.revogado', alvoId: id } }
      },
    })
  }
}

describe('mutationRoute: a route that changes data, declared once', () => {
  const ctx = useTestApp(() => ({ env: API_ENV, beforeReady: (app) => throwawayRoute(() => ctx.db)(app) }))

  const post = (token: string, id: string, body: object, key?: string) =>
    bearer(ctx.app, token, 'POST', URL_(id), { payload: body, headers: key === undefined ? {} : { 'idempotency-key': key } })
  const revoked = async (clienteId: string, id: string) =>
    (await withTenant(ctx.db, clienteId, (tx) => tx.select({ em: tokens.revogadoEm }).from(tokens).where(eq(tokens.id, id))))[0]!.em !== null
  const audited = async (clienteId: string, id: string) =>
    (await auditRows(ctx.db, clienteId)).filter((r) => r.acao === 'token.revogado' && r.alvo_id === id)
  const storedKeys = async (clienteId: string) =>
    (await withTenant(ctx.db, clienteId, (tx) => queryRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM chaves_idempotencia`)))[0]!.n

  it('a required key that is missing: 400 chave_idempotencia_ausente, and nothing changed', async () => {
    const c = await customer(ctx.db)
    const actor = await issueToken(ctx.db, c.id)
    const target = await issueToken(ctx.db, c.id)
    const res = await post(actor.token, target.id, {})
    assert.equal(res.statusCode, 400)
    assert.deepEqual(res.json(), { detail: 'chave_idempotencia_ausente' })
    assert.equal(await revoked(c.id, target.id), false)
    assert.deepEqual(await audited(c.id, target.id), [])
  })

  it('a retry replays the first answer byte for byte; the change and its audit row (with the request id) happened once', async () => {
    const c = await customer(ctx.db)
    const actor = await issueToken(ctx.db, c.id)
    const target = await issueToken(ctx.db, c.id)
    const first = await post(actor.token, target.id, {}, 'suspender-1')
    assert.equal(first.statusCode, 200, first.body)
    assert.equal(first.headers['idempotent-replayed'], undefined)
    assert.equal(first.json<{ alterado: boolean }>().alterado, true)
    const again = await post(actor.token, target.id, {}, 'suspender-1')
    assert.equal(again.statusCode, 200)
    assert.equal(again.headers['idempotent-replayed'], 'true')
    assert.equal(again.headers['content-type'], first.headers['content-type'])
    assert.equal(again.body, first.body, 'the stored bytes, not a second run (which would answer alterado: false)')
    const rows = await audited(c.id, target.id)
    assert.equal(rows.length, 1)
    assert.equal(rows[0]!.ator_tipo, 'token')
    assert.equal(rows[0]!.ator_id, actor.id)
    assert.equal(rows[0]!.request_id, first.headers['x-request-id'], 'the audit row names the request')
    assert.equal(await storedKeys(c.id), 1)
  })

  it('a work that fails after its change leaves nothing: no change, no audit row, no stored answer; the key then works', async () => {
    const c = await customer(ctx.db)
    const actor = await issueToken(ctx.db, c.id)
    const target = await issueToken(ctx.db, c.id)
    const failed = await post(actor.token, target.id, { falhar: true }, 'falha-1')
    assert.equal(failed.statusCode, 500)
    assert.deepEqual(failed.json(), { detail: 'erro_interno' })
    assert.equal(await revoked(c.id, target.id), false)
    assert.deepEqual(await audited(c.id, target.id), [])
    assert.equal(await storedKeys(c.id), 0)
    // Nothing was stored under the key, so the fixed request runs with it.
    const fixed = await post(actor.token, target.id, {}, 'falha-2')
    assert.equal(fixed.statusCode, 200)
    assert.equal(await revoked(c.id, target.id), true)
  })

  it('the answer failing to be stored, last of all, takes back the change and its audit row written before it', async () => {
    const c = await customer(ctx.db)
    const actor = await issueToken(ctx.db, c.id)
    const target = await issueToken(ctx.db, c.id)
    await asOwner(ctx.db, `CREATE FUNCTION test_recusa_chave() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.chave = 'recusada' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER test_recusa_chave BEFORE INSERT ON chaves_idempotencia FOR EACH ROW EXECUTE FUNCTION test_recusa_chave();`)
    const res = await post(actor.token, target.id, {}, 'recusada')
    assert.equal(res.statusCode, 500)
    assert.equal(await revoked(c.id, target.id), false)
    assert.deepEqual(await audited(c.id, target.id), [])
    assert.equal(await storedKeys(c.id), 0)
  })
})

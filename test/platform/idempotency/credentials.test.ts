// Idempotency-Key on the credential side: DELETE /api/conta/tokens/{id}, the web app's token form (its key a hidden
// field), and the MCP tool enviar_contato (its key derived from the call). Keys are the caller's, and the database
// keeps customers' keys apart (row-level security), not only the scope in the key.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import { API_ENV, bearer, issueToken } from '../../helpers/api-credentials.ts'
import { accountPage, csrfOf, login, PASSWORD, personWithPassword, postForm } from '../../helpers/account-web.ts'
import { auditRows, customer, dbError } from '../../helpers/credentials.ts'
import { contactBody } from '../../helpers/app.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { holdInAnotherSession, onPostgresOnly } from '../../helpers/database.ts'
import { until } from '../../helpers/wait.ts'
import { resultJson, rpc, toolCall } from '../../modules/mcp/helpers.ts'

const keyCount = async (db: Parameters<typeof withTenant>[0], clienteId: string | undefined) => {
  const count = sql`SELECT count(*)::int AS n FROM chaves_idempotencia`
  const [row] = clienteId === undefined
    ? await queryRows<{ n: number }>(db.orm, count)
    : await withTenant(db, clienteId, (tx) => queryRows<{ n: number }>(tx, count))
  return row!.n
}

describe('Idempotency-Key on DELETE /api/conta/tokens/{id}', () => {
  const ctx = useTestApp({ env: API_ENV })

  it('the same key again: the stored 204 with Idempotent-Replayed, audited once; another id with the key: 422', async () => {
    const c = await customer(ctx.db)
    const actor = await issueToken(ctx.db, c.id)
    const victim = await issueToken(ctx.db, c.id)
    const other = await issueToken(ctx.db, c.id)
    const del = (id: string, key: string) => bearer(ctx.app, actor.token, 'DELETE', `/api/conta/tokens/${id}`, { headers: { 'idempotency-key': key } })
    const first = await del(victim.id, 'revogar-1')
    assert.equal(first.statusCode, 204, first.body)
    assert.equal(first.headers['idempotent-replayed'], undefined)
    const again = await del(victim.id, 'revogar-1')
    assert.equal(again.statusCode, 204)
    assert.equal(again.headers['idempotent-replayed'], 'true')
    assert.equal(again.body, '')
    assert.equal((await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'token.revogado').length, 1)
    const reused = await del(other.id, 'revogar-1')
    assert.equal(reused.statusCode, 422)
    assert.deepEqual(reused.json(), { detail: 'chave_idempotencia_reutilizada' })
    assert.equal((await bearer(ctx.app, other.token, 'GET', '/api/conta')).statusCode, 200, 'the other token was not revoked')
  })

  it('a 404 is an answer too: stored and replayed', async () => {
    const c = await customer(ctx.db)
    const actor = await issueToken(ctx.db, c.id)
    const id = '00000000-0000-4000-8000-000000000000'
    const first = await bearer(ctx.app, actor.token, 'DELETE', `/api/conta/tokens/${id}`, { headers: { 'idempotency-key': 'k404' } })
    const again = await bearer(ctx.app, actor.token, 'DELETE', `/api/conta/tokens/${id}`, { headers: { 'idempotency-key': 'k404' } })
    assert.deepEqual([first.statusCode, again.statusCode], [404, 404])
    assert.equal(again.headers['idempotent-replayed'], 'true')
    assert.equal(again.body, first.body)
  })

  it('a malformed key: 400 chave_idempotencia_invalida, after the credential is checked (no credential: 401)', async () => {
    const c = await customer(ctx.db)
    const actor = await issueToken(ctx.db, c.id)
    const victim = await issueToken(ctx.db, c.id)
    const bad = await bearer(ctx.app, actor.token, 'DELETE', `/api/conta/tokens/${victim.id}`, { headers: { 'idempotency-key': '"sem fim' } })
    assert.equal(bad.statusCode, 400)
    assert.deepEqual(bad.json(), { detail: 'chave_idempotencia_invalida' })
    assert.equal((await bearer(ctx.app, victim.token, 'GET', '/api/conta')).statusCode, 200, 'nothing was revoked')
    const anonymous = await ctx.app.inject({ method: 'DELETE', url: `/api/conta/tokens/${victim.id}`, headers: { 'idempotency-key': '"sem fim' } })
    assert.equal(anonymous.statusCode, 401)
  })

  it('keys are per credential and per customer: the same key of two customers never meet, and row security keeps their rows apart', async () => {
    const a = await customer(ctx.db)
    const b = await customer(ctx.db)
    const actorA = await issueToken(ctx.db, a.id)
    const actorB = await issueToken(ctx.db, b.id)
    const victimA = await issueToken(ctx.db, a.id)
    const victimB = await issueToken(ctx.db, b.id)
    const ra = await bearer(ctx.app, actorA.token, 'DELETE', `/api/conta/tokens/${victimA.id}`, { headers: { 'idempotency-key': 'compartilhada' } })
    const rb = await bearer(ctx.app, actorB.token, 'DELETE', `/api/conta/tokens/${victimB.id}`, { headers: { 'idempotency-key': 'compartilhada' } })
    assert.deepEqual([ra.statusCode, rb.statusCode], [204, 204])
    assert.equal(rb.headers['idempotent-replayed'], undefined, 'B\'s request ran: A\'s key is not B\'s')
    assert.equal((await bearer(ctx.app, victimB.token, 'GET', '/api/conta')).statusCode, 401, 'B\'s token was revoked')
    assert.equal(await keyCount(ctx.db, a.id), 1, 'A sees its own key only')
    assert.equal(await keyCount(ctx.db, b.id), 1, 'B sees its own key only')
    // Outside any customer's transaction (the public routes' context), no customer's key is visible.
    const [anon] = await queryRows<{ n: number }>(ctx.db.orm, sql`SELECT count(*)::int AS n FROM chaves_idempotencia WHERE cliente_id IS NOT NULL`)
    assert.equal(anon!.n, 0)
    // And a customer's transaction cannot write a key in another's name.
    await assert.rejects(withTenant(ctx.db, a.id, (tx) => tx.execute(sql`
      INSERT INTO chaves_idempotencia (escopo, chave, cliente_id, impressao, status, corpo, criada_em, expira_em)
      VALUES ('x', 'y', ${b.id}, 'z', 204, '', now(), now() + interval '1 hour')`)), dbError('42501', /row-level security/))
  })
})

describe('a keyed DELETE when the database does not answer in time', () => {
  const skip = onPostgresOnly('PGlite has one connection: no second session can hold the row the revocation waits for')
  const ctx = useTestApp({ env: { ...API_ENV, DB_TIMEOUT_MS: '100' } }, { skip })

  it('503 banco_indisponivel with Retry-After; once the database moves on, the retry gets the answer that committed', { skip }, async (t) => {
    const c = await customer(ctx.db)
    const actor = await issueToken(ctx.db, c.id)
    const victim = await issueToken(ctx.db, c.id)
    // Another session holds the token's row: the revocation's UPDATE waits past its budget (4 × DB_TIMEOUT_MS).
    const held = await holdInAnotherSession(t, ctx.url, [{ text: 'SELECT id FROM tokens WHERE id = $1 FOR UPDATE', values: [victim.id] }])
    const del = () => bearer(ctx.app, actor.token, 'DELETE', `/api/conta/tokens/${victim.id}`, { headers: { 'idempotency-key': 'lenta' } })
    const first = await del()
    assert.equal(first.statusCode, 503, first.body)
    assert.deepEqual(first.json(), { detail: 'banco_indisponivel' })
    assert.equal(first.headers['retry-after'], '5')
    await held.release()
    // The abandoned transaction still commits the revocation and its key: the retry replays that 204, and the
    // token was revoked once.
    const again = await until('the retry to find the committed answer', async () => {
      const r = await del()
      return r.statusCode === 409 ? undefined : r
    }, 5000)
    assert.equal(again.statusCode, 204, again.body)
    assert.equal(again.headers['idempotent-replayed'], 'true')
    assert.equal((await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'token.revogado').length, 1)
    assert.equal((await bearer(ctx.app, victim.token, 'GET', '/api/conta')).statusCode, 401)
  })
})

describe('a keyed DELETE while another request holds the key', () => {
  const skip = onPostgresOnly('PGlite has one connection: no second session can hold the key\'s lock')
  const ctx = useTestApp({ env: API_ENV }, { skip })

  it('409 chave_idempotencia_em_uso with Retry-After 1, nothing done; once the key is free the request runs', { skip }, async (t) => {
    const c = await customer(ctx.db)
    const actor = await issueToken(ctx.db, c.id)
    const victim = await issueToken(ctx.db, c.id)
    // The lock the first request's transaction holds while it runs (src/platform/idempotency/store.ts), held by another session.
    const lock = { text: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', values: [`idempotencia\npat:${actor.id}\nsegurada`] }
    const held = await holdInAnotherSession(t, ctx.url, [lock])
    const del = () => bearer(ctx.app, actor.token, 'DELETE', `/api/conta/tokens/${victim.id}`, { headers: { 'idempotency-key': 'segurada' } })
    const busy = await del()
    assert.equal(busy.statusCode, 409, busy.body)
    assert.deepEqual(busy.json(), { detail: 'chave_idempotencia_em_uso' })
    assert.equal(busy.headers['retry-after'], '1')
    assert.equal((await bearer(ctx.app, victim.token, 'GET', '/api/conta')).statusCode, 200, 'nothing was revoked')
    await held.release()
    const done = await del()
    assert.equal(done.statusCode, 204, done.body)
    assert.equal(done.headers['idempotent-replayed'], undefined)
    assert.equal((await bearer(ctx.app, victim.token, 'GET', '/api/conta')).statusCode, 401)
  })
})

describe('Idempotency-Key on the web app\'s token form (a hidden field)', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' } })

  it('the form posted twice makes one token; the second answer is a redirect to the list, and no secret is stored', async () => {
    const p = await personWithPassword(ctx.db)
    const cookie = await login(ctx.app, p.email, PASSWORD, '198.51.100.21')
    const page = await accountPage(ctx.app, cookie)
    const key = /name="chave_idempotencia" value="([^"]+)"/.exec(page.body)?.[1]
    assert.ok(key, 'the form carries its key')
    const fields = { csrf: csrfOf(page.body), chave_idempotencia: key, nome: 'ERP', escopos: 'conta', validade_dias: '30' }
    const first = await postForm(ctx.app, '/conta/tokens', fields, { cookie })
    assert.equal(first.statusCode, 201)
    const secret = /<code id="token-novo">(fct_pat_[0-9A-Za-z]+)<\/code>/.exec(first.body)?.[1]
    assert.ok(secret)
    const again = await postForm(ctx.app, '/conta/tokens', fields, { cookie })
    assert.equal(again.statusCode, 303)
    assert.equal(again.headers.location, '/conta/pessoas?aviso=token-ja-criado')
    assert.equal(again.headers['idempotent-replayed'], 'true')
    const listed = await ctx.app.inject({ url: again.headers.location as string, headers: { cookie, accept: 'text/html' } })
    assert.match(listed.body, /Este formulário já criou um token/)
    assert.ok(!listed.body.includes(secret), 'the secret is never shown again')
    const made = (await auditRows(ctx.db, p.clienteId)).filter((r) => r.acao === 'token.criado')
    assert.equal(made.length, 1, 'one token')
    const stored = await withTenant(ctx.db, p.clienteId,
      (tx) => queryRows<{ corpo: string, cabecalhos: unknown }>(tx, sql`SELECT corpo, cabecalhos FROM chaves_idempotencia`))
    assert.equal(stored.length, 1)
    assert.ok(!JSON.stringify(stored).includes(secret), 'no secret in the stored answer')
    // The same key with other values: refused, nothing made.
    const other = await postForm(ctx.app, '/conta/tokens', { ...fields, nome: 'Outro' }, { cookie })
    assert.equal(other.statusCode, 422)
    assert.match(other.body, /Formulário já usado/)
    assert.equal((await auditRows(ctx.db, p.clienteId)).filter((r) => r.acao === 'token.criado').length, 1)
    // A tampered key is refused.
    const tampered = await postForm(ctx.app, '/conta/tokens', { ...fields, chave_idempotencia: 'com espaço' }, { cookie })
    assert.equal(tampered.statusCode, 400)
  })
})

describe('enviar_contato (MCP): the agent\'s key, or the message\'s, through the same mechanism', () => {
  const logs: { msg?: string }[] = []
  const ctx = useTestApp({ env: { ...API_ENV, MAIL_WORKER: 'off' }, listen: true, logs, contactBudget: 100 })
  type Result = { structuredContent?: { protocolo: string }, isError?: boolean, content: unknown }
  let rpcId = 1
  // Each call a new JSON-RPC request (a new id), as an agent's retry is.
  const call = async (token: string, args: Record<string, unknown>): Promise<Result> =>
    ((await (await rpc(ctx.base, toolCall(rpcId++, 'enviar_contato', args), { authorization: `Bearer ${token}` })).json()) as { result: Result }).result
  const protocolo = (r: Result) => {
    assert.ok(!r.isError, JSON.stringify(r))
    return r.structuredContent!.protocolo
  }
  const accepted = () => logs.filter((l) => l.msg === 'contact accepted').length
  const ageContacts = () => ctx.db.ownerTransaction((tx) => tx.query(`UPDATE contato SET criado_em = criado_em - interval '1 hour'`))

  it('without a key: the same message again answers the first protocolo without running, past the double-submit window', async () => {
    const c = await customer(ctx.db)
    const agent = await issueToken(ctx.db, c.id, { escopos: ['mcp'] })
    const body = contactBody()
    const before = accepted()
    const first = protocolo(await call(agent.token, body))
    // Past the contact store's ten-minute window, the double-submit rule would store it again; the key does not.
    await ageContacts()
    assert.equal(protocolo(await call(agent.token, body)), first)
    assert.equal(accepted() - before, 1, 'the second call did not run')
    assert.equal(await keyCount(ctx.db, c.id), 1, 'the key is the customer\'s')
    // Another credential sending the same message is another caller.
    const other = await issueToken(ctx.db, c.id, { escopos: ['mcp'] })
    assert.notEqual(protocolo(await call(other.token, body)), first)
  })

  it('with the agent\'s chave_idempotencia: its retries answer the first protocolo; the key on another message is refused; a bad key is refused', async () => {
    const c = await customer(ctx.db)
    const agent = await issueToken(ctx.db, c.id, { escopos: ['mcp'] })
    const body = contactBody()
    const before = accepted()
    const first = protocolo(await call(agent.token, { ...body, chave_idempotencia: 'pedido-42' }))
    await ageContacts()
    assert.equal(protocolo(await call(agent.token, { ...body, chave_idempotencia: 'pedido-42' })), first)
    const reused = await call(agent.token, { ...contactBody(), chave_idempotencia: 'pedido-42' })
    assert.equal(reused.isError, true)
    assert.deepEqual(resultJson(reused), { detail: 'chave_idempotencia_reutilizada' })
    // Another key is another message, by the agent's choice, even with the same fields.
    assert.notEqual(protocolo(await call(agent.token, { ...body, chave_idempotencia: 'pedido-43' })), first)
    for (const bad of ['com espaço', '', 'x'.repeat(256), 42]) {
      const refused = await call(agent.token, { ...contactBody(), chave_idempotencia: bad })
      assert.equal(refused.isError, true, JSON.stringify(bad))
      assert.deepEqual(resultJson(refused), { detail: 'chave_idempotencia_invalida' }, JSON.stringify(bad))
    }
    assert.equal(accepted() - before, 2, 'two messages ran: pedido-42\'s and pedido-43\'s')
    assert.equal(await keyCount(ctx.db, c.id), 2, 'pedido-42 and pedido-43')
  })
})

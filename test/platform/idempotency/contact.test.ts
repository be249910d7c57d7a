// Idempotency-Key on the public contact form (POST /api/site/contato): what a client sees (the first answer again,
// byte for byte, with Idempotent-Replayed), what the database keeps (one key row, one contact), and that the work
// ran once (one "contact accepted" line): the double-submit rule would also answer one protocolo, so the log line,
// not the protocolo, shows that a replay did not run the work again.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { eq, sql } from 'drizzle-orm'
import type { App } from '../../../src/app.ts'
import { chavesIdempotencia, contato } from '../../../src/platform/db/schema.ts'
import { expiredKeysJob } from '../../../src/platform/idempotency/store.ts'
import { contactBody } from '../../helpers/app.ts'
import { holdInAnotherSession, onPostgresOnly } from '../../helpers/database.ts'
import { until } from '../../helpers/wait.ts'
import { testApp, useTestApp } from '../../helpers/fixture.ts'
import { runJobOnce } from '../../helpers/jobs.ts'

const URL_ = '/api/site/contato'
type Line = { msg?: string, protocolo?: string }

const accepted = (logs: object[]) => (logs as Line[]).filter((l) => l.msg === 'contact accepted')
const keyRows = (ctx: { db: { orm: App['deps']['db']['orm'] } }, chave: string) =>
  ctx.db.orm.select().from(chavesIdempotencia).where(eq(chavesIdempotencia.chave, chave))

describe('Idempotency-Key on POST /api/site/contato', () => {
  const logs: object[] = []
  const ctx = useTestApp({ contactBudget: 10_000, env: { MAIL_WORKER: 'off' }, logs })
  const post = (payload: unknown, headers: Record<string, string> = {}, remoteAddress?: string) =>
    ctx.app.inject({ method: 'POST', url: URL_, payload: payload as object, headers, ...(remoteAddress ? { remoteAddress } : {}) })
  const newKey = () => `k-${Math.random().toString(36).slice(2)}`

  it('the same key and body again: the first answer byte for byte, Idempotent-Replayed: true, and the work ran once', async () => {
    const key = newKey()
    const body = contactBody({ assunto: 'financeiro', empresa: 'Ipiranga' })
    const before = accepted(logs).length
    const first = await post(body, { 'idempotency-key': key })
    assert.equal(first.statusCode, 202)
    assert.equal(first.headers['idempotent-replayed'], undefined)
    // The same body with its keys in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse())
    const again = await post(reordered, { 'idempotency-key': key })
    assert.equal(again.statusCode, 202)
    assert.equal(again.headers['idempotent-replayed'], 'true')
    assert.equal(again.headers['content-type'], first.headers['content-type'])
    assert.equal(again.body, first.body)
    assert.equal(accepted(logs).length - before, 1, 'one contact accepted: the replay did not run the work')
    const rows = await keyRows(ctx, key)
    assert.equal(rows.length, 1)
    assert.equal(rows[0]!.status, 202)
    assert.equal(rows[0]!.clienteId, null)
    assert.equal(rows[0]!.corpo, first.body)
    assert.ok(rows[0]!.expiraEm.getTime() - rows[0]!.criadaEm.getTime() === 24 * 3_600_000, 'kept 24 hours by default')
    assert.match(rows[0]!.escopo, /^ip:[0-9a-f]{32}$/, 'scoped by the hashed address, never the address itself')
  })

  it('a quoted key (RFC 8941 String, as the draft writes it) is the same key as the bare one', async () => {
    const key = newKey()
    const body = contactBody()
    const first = await post(body, { 'idempotency-key': key })
    const quoted = await post(body, { 'idempotency-key': `"${key}"` })
    assert.equal(quoted.headers['idempotent-replayed'], 'true')
    assert.equal(quoted.body, first.body)
  })

  it('the same key with another body: 422 chave_idempotencia_reutilizada, and nothing stored or sent', async () => {
    const key = newKey()
    const first = await post(contactBody(), { 'idempotency-key': key })
    assert.equal(first.statusCode, 202)
    const before = accepted(logs).length
    const other = contactBody({ mensagem: 'Outra mensagem, outra requisição, a mesma chave.' })
    const res = await post(other, { 'idempotency-key': key })
    assert.equal(res.statusCode, 422)
    assert.deepEqual(res.json(), { detail: 'chave_idempotencia_reutilizada' })
    assert.equal(accepted(logs).length, before)
    const stored = await ctx.db.orm.select().from(contato).where(eq(contato.mensagem, other.mensagem as string))
    assert.equal(stored.length, 0)
  })

  it('a body that fails validation stores nothing under the key: the fixed request then runs with it', async () => {
    const key = newKey()
    const bad = await post(contactBody({ email: 'não é e-mail' }), { 'idempotency-key': key })
    assert.equal(bad.statusCode, 422)
    assert.ok(Array.isArray(bad.json().detail), 'the validation list, not a key error')
    assert.equal((await keyRows(ctx, key)).length, 0)
    const fixed = await post(contactBody(), { 'idempotency-key': key })
    assert.equal(fixed.statusCode, 202)
    assert.equal(fixed.headers['idempotent-replayed'], undefined)
  })

  for (const [what, value] of [
    ['empty', ''], ['only spaces', '   '], ['256 characters', 'a'.repeat(256)], ['a space inside', 'duas partes'],
    ['beyond ASCII', 'chave-ção'], ['an unclosed quote', '"aberta'], ['two items', '"a", "b"'], ['a bad escape', '"a\\nb"'],
    ['a control character', 'a\tb'],
  ] as const) {
    it(`a key that is ${what}: 400 chave_idempotencia_invalida, before the body is looked at`, async () => {
      const res = await post({ nome: 1 }, { 'idempotency-key': value })
      assert.equal(res.statusCode, 400)
      assert.deepEqual(res.json(), { detail: 'chave_idempotencia_invalida' })
    })
  }

  it('255 characters is a key', async () => {
    const res = await post(contactBody(), { 'idempotency-key': 'x'.repeat(254) + newKey().slice(-1) })
    assert.equal(res.statusCode, 202)
  })

  it('keys are the caller\'s: the same key from another address runs again', async () => {
    const key = newKey()
    const body = contactBody()
    const before = accepted(logs).length
    const a = await post(body, { 'idempotency-key': key }, '198.51.100.10')
    const b = await post(body, { 'idempotency-key': key }, '198.51.100.11')
    assert.equal(a.statusCode, 202)
    assert.equal(b.statusCode, 202)
    assert.equal(b.headers['idempotent-replayed'], undefined)
    assert.equal(accepted(logs).length - before, 2)
    assert.equal((await keyRows(ctx, key)).length, 2)
  })

  it('20 requests at once with one key: the work runs once; the others replay it or get 409 with Retry-After', async () => {
    const key = newKey()
    const body = contactBody()
    const before = accepted(logs).length
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(body, { 'idempotency-key': key })))
    const fresh = answers.filter((r) => r.statusCode === 202 && r.headers['idempotent-replayed'] === undefined)
    const replayed = answers.filter((r) => r.statusCode === 202 && r.headers['idempotent-replayed'] === 'true')
    const busy = answers.filter((r) => r.statusCode === 409)
    assert.equal(fresh.length, 1, `one fresh answer: ${answers.map((r) => r.statusCode).join(' ')}`)
    assert.equal(fresh.length + replayed.length + busy.length, 20)
    for (const r of replayed) assert.equal(r.body, fresh[0]!.body)
    for (const r of busy) {
      assert.deepEqual(r.json(), { detail: 'chave_idempotencia_em_uso' })
      assert.equal(r.headers['retry-after'], '1')
    }
    assert.equal(accepted(logs).length - before, 1)
  })

  it('an expired key is not replayed, and the retention purge deletes it', async () => {
    const key = newKey()
    const body = contactBody()
    await post(body, { 'idempotency-key': key })
    const past = new Date(Date.now() - 1000)
    await ctx.db.orm.update(chavesIdempotencia).set({ criadaEm: new Date(past.getTime() - 1000), expiraEm: past })
      .where(eq(chavesIdempotencia.chave, key))
    const again = await post(body, { 'idempotency-key': key })
    assert.equal(again.statusCode, 202)
    assert.equal(again.headers['idempotent-replayed'], undefined, 'past its expiry the key is new')
    await ctx.db.orm.update(chavesIdempotencia).set({ criadaEm: new Date(past.getTime() - 1000), expiraEm: past })
      .where(eq(chavesIdempotencia.chave, key))
    // The purge as the app's job scheduler runs it, here at once instead of when due.
    const run = await runJobOnce(ctx.db, expiredKeysJob(ctx.db.orm))
    assert.equal(run?.resultado, 'ok')
    assert.deepEqual(await keyRows(ctx, key), [])
    const [{ n } = { n: -1 }] = (await ctx.db.orm.execute(sql`SELECT count(*)::int AS n FROM chaves_idempotencia WHERE expira_em <= now()`) as unknown as
      { rows: { n: number }[] }).rows
    assert.equal(n, 0)
  })

  it('IDEMPOTENCY_KEY_TTL_HOURS sets how long a key is kept, and /docs publishes it', async (t) => {
    const app = await testApp(t, { db: ctx.db, contactBudget: 10_000, env: { IDEMPOTENCY_KEY_TTL_HOURS: '2', MAIL_WORKER: 'off' } })
    const key = newKey()
    assert.equal((await app.inject({ method: 'POST', url: URL_, payload: contactBody(), headers: { 'idempotency-key': key } })).statusCode, 202)
    const [row] = await keyRows(ctx, key)
    assert.equal(row!.expiraEm.getTime() - row!.criadaEm.getTime(), 2 * 3_600_000)
    const docs = await app.inject({ url: '/docs', headers: { accept: 'text/markdown' } })
    assert.match(docs.body, /nas 2 horas seguintes/)
  })

  it('CORS: the site\'s origins may send Idempotency-Key and read Idempotent-Replayed', async (t) => {
    const app = await testApp(t, { db: ctx.db, env: { SITE_ORIGINS: 'https://www.parceiro.com.br', MAIL_WORKER: 'off' } })
    const pre = await app.inject({
      method: 'OPTIONS', url: URL_,
      headers: { origin: 'https://www.parceiro.com.br', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, idempotency-key' },
    })
    assert.equal(pre.statusCode, 204)
    assert.match(String(pre.headers['access-control-allow-headers']), /idempotency-key/)
    const res = await app.inject({ method: 'POST', url: URL_, payload: contactBody(), headers: { origin: 'https://www.parceiro.com.br', 'idempotency-key': newKey() } })
    assert.match(String(res.headers['access-control-expose-headers']), /idempotent-replayed/)
  })
})

describe('Idempotency-Key across processes on one database', () => {
  const ctx = useTestApp({ contactBudget: 10_000, env: { MAIL_WORKER: 'off' } })

  it('a replay after a restart, and from another instance, is the stored answer', async (t) => {
    const key = `restart-${Math.random().toString(36).slice(2)}`
    const body = contactBody()
    const first = await ctx.app.inject({ method: 'POST', url: URL_, payload: body, headers: { 'idempotency-key': key } })
    assert.equal(first.statusCode, 202)
    // Another app on the same database: a second instance, or this one after a restart (nothing is kept in memory).
    const other = await testApp(t, { db: ctx.db, contactBudget: 10_000, env: { MAIL_WORKER: 'off' } })
    const again = await other.inject({ method: 'POST', url: URL_, payload: body, headers: { 'idempotency-key': key } })
    assert.equal(again.headers['idempotent-replayed'], 'true')
    assert.equal(again.body, first.body)
  })

  it('20 requests at once split over two instances: the work runs once', async (t) => {
    const logsA: object[] = []
    const logsB: object[] = []
    const a = await testApp(t, { db: ctx.db, contactBudget: 10_000, env: { MAIL_WORKER: 'off' }, logs: logsA })
    const b = await testApp(t, { db: ctx.db, contactBudget: 10_000, env: { MAIL_WORKER: 'off' }, logs: logsB })
    const key = `split-${Math.random().toString(36).slice(2)}`
    const body = contactBody()
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      (i % 2 ? a : b).inject({ method: 'POST', url: URL_, payload: body, headers: { 'idempotency-key': key } })))
    assert.ok(answers.every((r) => r.statusCode === 202 || r.statusCode === 409), answers.map((r) => r.statusCode).join(' '))
    assert.equal(answers.filter((r) => r.statusCode === 202 && !r.headers['idempotent-replayed']).length, 1)
    assert.equal(accepted(logsA).length + accepted(logsB).length, 1)
  })

  it('an answer lost after the work committed (a 500 on the way out) is what the retry gets', async (t) => {
    let failNext = true
    const app = await testApp(t, {
      db: ctx.db, contactBudget: 10_000, env: { MAIL_WORKER: 'off' },
      // Stands for a crash or a lost connection between the commit and the client: the answer never arrives.
      beforeReady: (a) => a.addHook('onSend', async (req) => {
        if (req.url === URL_ && failNext) { failNext = false; throw new Error('lost on the way out') }
      }),
    })
    const key = `lost-${Math.random().toString(36).slice(2)}`
    const body = contactBody()
    const lost = await app.inject({ method: 'POST', url: URL_, payload: body, headers: { 'idempotency-key': key } })
    assert.equal(lost.statusCode, 500)
    const retry = await app.inject({ method: 'POST', url: URL_, payload: body, headers: { 'idempotency-key': key } })
    assert.equal(retry.statusCode, 202)
    assert.equal(retry.headers['idempotent-replayed'], 'true')
    const [row] = await ctx.db.orm.select().from(contato).where(eq(contato.protocolo, retry.json().protocolo))
    assert.ok(row, 'the contact of the lost answer is stored, once')
  })
})

describe('a keyed contact when the database does not answer in time', () => {
  const logs: object[] = []
  const skip = onPostgresOnly('PGlite has one connection: no second session can hold the table the contact waits for')
  const ctx = useTestApp({ contactBudget: 10_000, env: { MAIL_WORKER: 'off', DB_TIMEOUT_MS: '100' }, logs }, { skip })

  it('503 servico_indisponivel; the transaction left running commits once the database moves on, and the retry gets its 202', { skip }, async (t) => {
    // Another session holds the contact table against writes: the contact's insert waits past its budget.
    const held = await holdInAnotherSession(t, ctx.url, ['LOCK TABLE contato IN EXCLUSIVE MODE'])
    const key = `lenta-${Math.random().toString(36).slice(2)}`
    const body = contactBody()
    const post = () => ctx.app.inject({ method: 'POST', url: URL_, payload: body, headers: { 'idempotency-key': key } })
    const first = await post()
    assert.equal(first.statusCode, 503, first.body)
    assert.deepEqual(first.json(), { detail: 'servico_indisponivel' })
    await held.release()
    const retry = await until('the retry to find the committed answer', async () => {
      const r = await post()
      return r.statusCode === 409 ? undefined : r
    }, 5000)
    assert.equal(retry.statusCode, 202, retry.body)
    assert.equal(retry.headers['idempotent-replayed'], 'true', 'the abandoned transaction committed the contact and its answer together')
    const protocolo = retry.json().protocolo as string
    const [{ n } = { n: -1 }] = (await ctx.db.orm.execute(sql`SELECT count(*)::int AS n FROM contato WHERE mensagem = ${body.mensagem as string}`) as unknown as
      { rows: { n: number }[] }).rows
    assert.equal(n, 1, 'one contact')
    const [queued] = (await ctx.db.orm.execute(sql`SELECT count(*)::int AS n FROM outbox WHERE protocolo = ${protocolo}`) as unknown as
      { rows: { n: number }[] }).rows
    assert.equal(queued!.n, 1, 'its message queued once')
  })
})

describe('a route that requires Idempotency-Key', () => {
  let runs = 0
  const ctx = useTestApp({
    beforeReady: (app) => app.post('/api/teste/idempotente', { config: { idempotency: 'required' } }, async () => { runs++; return { ok: true } }),
  })

  it('without the header: 400 chave_idempotencia_ausente, and the handler does not run', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/teste/idempotente', payload: {} })
    assert.equal(res.statusCode, 400)
    assert.deepEqual(res.json(), { detail: 'chave_idempotencia_ausente' })
    assert.equal(runs, 0)
    const ok = await ctx.app.inject({ method: 'POST', url: '/api/teste/idempotente', payload: {}, headers: { 'idempotency-key': 'abc' } })
    assert.equal(ok.statusCode, 200)
    assert.equal(runs, 1)
  })
})

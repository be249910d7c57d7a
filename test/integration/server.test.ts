// Against real listening servers: readiness following the database, a shared Redis budget, double submits.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { before, describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { openDatabase, type Database } from '../../src/platform/db/database.ts'
import { contato } from '../../src/platform/db/schema.ts'
import { contactBody } from '../helpers/app.ts'
import { useTestApp, useTestDatabase } from '../helpers/fixture.ts'
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts'
import { until } from '../helpers/wait.ts'

const needsPostgres = process.env.DATABASE_URL ? false : 'needs PostgreSQL (DATABASE_URL unset): an embedded database cannot go away and come back'
const needsRedis = process.env.REDIS_URL ? false : 'needs Redis (REDIS_URL unset): the in-memory store is per instance by design'

describe('readiness follows the database', () => {
  // The app reaches its database through a proxy the tests take down and freeze.
  const tdb = useTestDatabase({ skip: needsPostgres })
  let db: Database
  let proxy: TcpProxy
  before(async () => {
    if (needsPostgres) return
    const target = new URL(tdb.url!)
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432))
    tdb.defer(() => proxy.close())
    const viaProxy = new URL(tdb.url!)
    viaProxy.host = `127.0.0.1:${proxy.port}`
    db = await openDatabase({ databaseUrl: viaProxy.toString(), connectTimeoutMs: 500 })
    tdb.defer(() => db.close())
  })
  const ctx = useTestApp(() => ({ db, env: { DB_TIMEOUT_MS: '500' }, listen: true }), { skip: needsPostgres })

  it('200 → 503 banco_indisponivel when the database goes away → 200 when it returns; liveness stays 200', { skip: needsPostgres }, async () => {
    const ready = () => fetch(`${ctx.base}/api/health/ready`)
    assert.equal((await ready()).status, 200)
    await proxy.down()
    const down = await ready()
    assert.equal(down.status, 503)
    assert.deepEqual(await down.json(), { detail: 'banco_indisponivel' })
    assert.equal((await fetch(`${ctx.base}/api/health`)).status, 200)
    const contact = await fetch(`${ctx.base}/api/site/contato`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(contactBody()),
    })
    assert.equal(contact.status, 503)
    await proxy.up()
    await until('readiness to return', async () => (await ready()).status === 200)
  })

  it('a database that stops answering (no refusal, no data): 503s in bounded time, a status that says so, and back', { skip: needsPostgres }, async () => {
    const post = () => fetch(`${ctx.base}/api/site/contato`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(contactBody()),
    })
    assert.equal((await post()).status, 202)
    proxy.freeze()
    try {
      const started = Date.now()
      const contact = await post()
      assert.equal(contact.status, 503)
      assert.deepEqual(await contact.json(), { detail: 'servico_indisponivel' })
      assert.match(String(contact.headers.get('retry-after')), /^\d+$/)
      assert.ok(Date.now() - started < 8000, `answered in ${Date.now() - started} ms`)
      assert.equal((await fetch(`${ctx.base}/api/health/ready`)).status, 503)
      const status = await ctx.app.deps.snapshot.refresh()
      assert.equal(status.status, 'indisponivel')
      assert.equal((await fetch(`${ctx.base}/api/site/contato/estado`)).status, 200)
    } finally {
      proxy.thaw()
    }
    await until('readiness to return', async () => (await fetch(`${ctx.base}/api/health/ready`)).status === 200, 20_000)
  })
})

describe('two instances share one Redis budget', () => {
  const nameSpace = `rl-shared-${randomBytes(6).toString('hex')}:`
  const a = useTestApp({ deps: { rateLimitNamespace: nameSpace }, listen: true }, { skip: needsRedis })
  const b = useTestApp(() => ({ db: a.db, deps: { rateLimitNamespace: nameSpace }, listen: true }), { skip: needsRedis })

  it('five contact posts across both instances use the budget; the sixth, on either, is 429', { skip: needsRedis }, async () => {
    const bases = [a.base, b.base]
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${bases[i % 2]}/api/site/contato`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(contactBody()),
      })
      statuses.push(res.status)
      if (res.status === 429) assert.match(String(res.headers.get('retry-after')), /^\d+$/)
    }
    assert.deepEqual(statuses, [202, 202, 202, 202, 202, 429])
    const other = await fetch(`${bases[0]}/api/site/contato`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(contactBody()),
    })
    assert.equal(other.status, 429)
  })
})

describe('a double submit over HTTP', () => {
  const ctx = useTestApp({ listen: true })

  it('two identical posts at once answer one protocolo and store one contact', async () => {
    const body = JSON.stringify(contactBody())
    const post = () => fetch(`${ctx.base}/api/site/contato`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    const [a, b] = await Promise.all([post(), post()])
    assert.equal(a.status, 202)
    assert.equal(b.status, 202)
    const [pa, pb] = [(await a.json()).protocolo, (await b.json()).protocolo]
    assert.equal(pa, pb)
    const rows = await ctx.db.orm.select({ n: sql<number>`count(*)::int` }).from(contato)
    assert.equal(rows[0]!.n, 1)
  })
})

describe('buildApp owning its resources', () => {
  it('opens, migrates and closes its own embedded database in DATA_DIR', {
    skip: process.env.DATABASE_URL ? 'DATABASE_URL set: this case is about the embedded default' : false,
  }, async () => {
    const { mkdtempSync, rmSync, existsSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const dir = mkdtempSync(join(tmpdir(), 'fps-own-'))
    try {
      const app = await buildApp(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }), { logger: false })
      assert.equal((await app.inject({ url: '/api/health/ready' })).statusCode, 200)
      assert.ok(existsSync(join(dir, 'pglite', 'service.lock')))
      await app.close()
      assert.ok(!existsSync(join(dir, 'pglite', 'service.lock')))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

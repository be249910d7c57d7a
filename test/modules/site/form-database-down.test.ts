// The form without JavaScript (POST /contato) goes through the API's submit path: a database that stops
// answering gives the visitor the 503 page within the API's time budget (not a request that hangs), and no
// log line carries a database error's message or anything the visitor typed.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { App } from '../../../src/app.ts'
import { openDatabase, type Database } from '../../../src/platform/db/database.ts'
import { createTestApp, siteFormToken } from '../../helpers/app.ts'
import { asOwner, createTestDatabase, usingPostgres, type TestDatabase } from '../../helpers/database.ts'
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.ts'
import { assertSiteHeaders } from './headers.ts'

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }
const VISITOR = {
  nome: 'Joana Congelada',
  email: 'joana.congelada@metalurgica.com.br',
  assunto: 'financeiro',
  mensagem: 'Quero antecipar as duplicatas de dezembro, com urgência.',
}

/** A database a test can make stop answering: connections stay open, nothing comes back. */
type Freezable = { db: Database, freeze(): void, thaw(): void, close(): Promise<void> }

async function freezable(tdb: TestDatabase): Promise<Freezable> {
  if (usingPostgres) {
    // The real thing: a TCP proxy in front of PostgreSQL that stops passing bytes.
    const target = new URL(tdb.url!)
    const proxy: TcpProxy = await startTcpProxy(target.hostname, Number(target.port || 5432))
    const viaProxy = new URL(tdb.url!)
    viaProxy.host = `127.0.0.1:${proxy.port}`
    const db = await openDatabase({ databaseUrl: viaProxy.toString(), connectTimeoutMs: 500 })
    return { db, freeze: () => proxy.freeze(), thaw: () => proxy.thaw(), close: async () => { await db.close(); await proxy.close() } }
  }
  // An embedded database cannot be cut off from outside: its transactions stop settling instead.
  let frozen = false
  const orm = new Proxy(tdb.db.orm, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver)
      if (prop !== 'transaction' || typeof value !== 'function') return value
      return (...args: unknown[]) => (frozen ? new Promise(() => {}) : value.apply(target, args))
    },
  })
  return { db: { ...tdb.db, orm } as Database, freeze: () => { frozen = true }, thaw: () => { frozen = false }, close: async () => {} }
}

/** Every log line, as one string: what must not be in any of them. */
const everything = (logs: object[]) => JSON.stringify(logs)

function assertNothingOfTheVisitor(logs: object[]): void {
  for (const value of Object.values(VISITOR).filter((v) => v !== VISITOR.assunto)) {
    assert.ok(!everything(logs).includes(value), `the log holds "${value}"`)
  }
}

describe('POST /contato against a database that stops answering', () => {
  let tdb: TestDatabase
  let frozen: Freezable
  let app: App
  let token: string
  const logs: object[] = []
  before(async () => {
    tdb = await createTestDatabase()
    frozen = await freezable(tdb)
    app = await createTestApp({ db: frozen.db, logs, contactBudget: 100, env: { DB_TIMEOUT_MS: '300', SPAM_MIN_FILL_MS: '0' } })
    token = await siteFormToken(app)
  })
  after(async () => {
    await app?.close()
    await frozen?.close()
    await tdb?.dispose()
  })
  const post = (fields: Record<string, string> = VISITOR) => app.inject({
    method: 'POST', url: '/contato', headers: FORM, payload: new URLSearchParams({ ...fields, token_formulario: token }).toString(),
  })

  // Without the budget the request would wait for the database for ever: the test's own timeout fails it.
  it('answers the 503 page with Retry-After and what was typed, and logs the failure without its message', { timeout: 30_000 }, async () => {
    frozen.freeze()
    let res
    try {
      res = await post()
    } finally {
      frozen.thaw()
    }
    assert.equal(res.statusCode, 503)
    assert.equal(res.headers['retry-after'], '30')
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8')
    assert.equal(res.headers['cache-control'], 'no-store')
    assertSiteHeaders(res.headers, '503')
    assert.match(res.body, /role="alert"><p>Não foi possível registrar sua mensagem agora e nada foi enviado/)
    assert.match(res.body, /value="Joana Congelada"/)
    assert.doesNotMatch(res.body, /id="protocolo"/)

    const failures = logs.filter((l) => (l as { msg?: string }).msg === 'contact could not be stored') as Record<string, unknown>[]
    assert.equal(failures.length, 1)
    assert.match(String(failures[0]!.frames), /timeout\.ts/, 'ended by the time budget')
    assert.equal(failures[0]!.level, 50)
    for (const key of ['err', 'error', 'message']) assert.equal(failures[0]![key], undefined, `the failure line has no "${key}"`)
    assertNothingOfTheVisitor(logs)
  })

  it('a database error that quotes the visitor\'s data: the 503 page, and the log keeps only the error\'s type and code', async () => {
    // As PostgreSQL's own messages do ("Failing row contains (…)"): the refused row's values, in the message.
    await asOwner(tdb.db, `CREATE FUNCTION recusa_contato() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'contato recusado: % <%>: %', NEW.nome, NEW.email, NEW.mensagem; END $$`)
    await asOwner(tdb.db, 'CREATE TRIGGER recusa BEFORE INSERT ON contato FOR EACH ROW EXECUTE FUNCTION recusa_contato()')
    logs.length = 0
    try {
      // Not the payload of the test above: its transaction, released by the thaw, may since have stored it, and the
      // same payload would then be answered as a double click, without an insert.
      const res = await post({ ...VISITOR, mensagem: `${VISITOR.mensagem} Segunda tentativa.` })
      assert.equal(res.statusCode, 503)
      assert.match(res.body, /value="Joana Congelada"/)
    } finally {
      await asOwner(tdb.db, 'DROP TRIGGER recusa ON contato; DROP FUNCTION recusa_contato()')
    }
    const failures = logs.filter((l) => (l as { msg?: string }).msg === 'contact could not be stored') as Record<string, unknown>[]
    assert.equal(failures.length, 1)
    assert.equal(failures[0]!.code, 'P0001', 'the SQLSTATE of RAISE EXCEPTION: the facts are there')
    assertNothingOfTheVisitor(logs)
  })
})

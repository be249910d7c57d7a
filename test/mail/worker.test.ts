// The worker against a database that fails at the worst moment: after the provider accepted the message.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import { makeContactStore } from '../../src/contact/store.ts'
import { DEFAULT_SUBJECTS, makeSubjectRouter } from '../../src/contact/subjects.ts'
import type { Database, Orm } from '../../src/db/database.ts'
import { entregaTentativa, outbox } from '../../src/db/schema.ts'
import type { MailTransport } from '../../src/mail/transport.ts'
import { DeliveryWorker } from '../../src/mail/worker.ts'
import { useTestDatabase } from '../helpers/fixture.ts'

describe('delivery worker', () => {
  const tdb = useTestDatabase()

  it('a database error after a successful send is retried as a write, never as a second send', async () => {
    let t = Date.now()
    const clock = { now: () => new Date(t) }
    const { protocolo } = await makeContactStore(tdb.db.orm, clock).submit({
      fields: { nome: 'Ana Maria', email: 'ana@empresa.com.br', mensagem: 'mensagem longa o bastante', empresa: '', telefone: '', site: '' },
      subject: DEFAULT_SUBJECTS[0]!, requestId: 'r-worker', ip: '192.0.2.1',
    })
    let sends = 0
    const transport: MailTransport = {
      mode: 'smtp', send: async () => { sends++; return { estado: 'enviado', eml: null } }, verify: async () => {}, close() {},
    }
    // The first transaction (recording the outcome) fails as if the connection dropped.
    let failures = 1
    const orm = new Proxy(tdb.db.orm, {
      get(target, p, r) {
        if (p === 'transaction' && failures > 0) {
          failures--
          return async () => { throw new Error('Connection terminated unexpectedly') }
        }
        const v = Reflect.get(target, p, r)
        return typeof v === 'function' ? v.bind(target) : v
      },
    }) as Orm
    const logs: object[] = []
    const push = (o: object, msg?: string) => { logs.push({ ...o, msg }) }
    const log = { info: push, warn: push, error: push }
    const worker = new DeliveryWorker({
      db: { ...tdb.db, orm } as Database, transport, subjects: makeSubjectRouter(DEFAULT_SUBJECTS), mailFrom: 'Contato <c@fomento.example>', clock,
      config: { maxTries: 12, retryBaseMs: 60_000, retryMaxMs: 3_600_000, leaseMs: 120_000, pollMs: 1000 }, log,
    })
    await worker.drain()
    t += 3 * 60_000 // past the lease and any retry
    await worker.drain()
    assert.equal(sends, 1)
    const [row] = await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo))
    assert.equal(row!.estado, 'enviado')
    const attempts = await tdb.db.orm.select().from(entregaTentativa).where(eq(entregaTentativa.outboxId, row!.id))
    assert.deepEqual(attempts.map((a) => a.resultado), ['enviado'])
    assert.ok(logs.some((l) => (l as { msg?: string }).msg === 'could not record a delivery outcome; retrying'))
    assert.ok(!JSON.stringify(logs).includes('ana@empresa.com.br'), 'no personal data in the logs')
  })
})

// The worker against a database that fails at the worst moment: after the provider accepted the message.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { asc, eq } from 'drizzle-orm'
import type Mail from 'nodemailer/lib/mailer/index.js'
import { systemClock } from '../../../src/platform/lib/clock.ts'
import { makeContactStore } from '../../../src/modules/contact/store.ts'
import { DEFAULT_SUBJECTS } from '../../../src/modules/contact/subjects.ts'
import type { Database, Orm } from '../../../src/platform/db/database.ts'
import { auditoria, entregaTentativa, outbox } from '../../../src/platform/db/schema.ts'
import { enqueueMessage } from '../../../src/platform/outbox/enqueue.ts'
import { queueStats } from '../../../src/platform/outbox/queue-stats.ts'
import type { MailTransport } from '../../../src/platform/outbox/transport.ts'
import { DeliveryWorker } from '../../../src/platform/outbox/worker.ts'
import { asOwner } from '../../helpers/database.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'
import { invitationMessage } from '../../helpers/invitation.ts'

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
      db: { ...tdb.db, orm } as Database, transport, mailFrom: 'Contato <c@fomento.example>', clock,
      config: { maxTries: 12, retryBaseMs: 60_000, retryMaxMs: 3_600_000, leaseMs: 120_000, pollMs: 1000 }, log,
    })
    await worker.drain()
    t += 3 * 60_000 // past the lease and any retry
    await worker.drain()
    assert.equal(sends, 1)
    const [row] = await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo))
    assert.equal(row!.estado, 'enviado')
    assert.equal(row!.texto, null, 'delivered, its content is erased (the contact row keeps the data for its retention)')
    const attempts = await tdb.db.orm.select().from(entregaTentativa).where(eq(entregaTentativa.outboxId, row!.id))
    assert.deepEqual(attempts.map((a) => a.resultado), ['enviado'])
    assert.ok(logs.some((l) => (l as { msg?: string }).msg === 'could not record a delivery outcome; retrying'))
    assert.ok(!JSON.stringify(logs).includes('ana@empresa.com.br'), 'no personal data in the logs')
  })
})

describe('a row of a transport this worker lacks', () => {
  const tdb = useTestDatabase()

  it('fails visibly, as the retry policy says, and the rows of its transports are still delivered', async () => {
    // As the release that adds `http` (webhooks) will: its migration lets the CHECK name it.
    await asOwner(tdb.db, "ALTER TABLE outbox DROP CONSTRAINT outbox_transporte_check; ALTER TABLE outbox ADD CHECK (transporte IN ('smtp', 'http'))")
    let t = Date.now()
    const clock = { now: () => new Date(t) }
    const webhook = (await enqueueMessage(tdb.db.orm, invitationMessage().message, clock)).protocolo
    await tdb.db.orm.update(outbox).set({ transporte: 'http' }).where(eq(outbox.protocolo, webhook))
    const mail = (await enqueueMessage(tdb.db.orm, invitationMessage().message, clock)).protocolo
    const sent: string[] = []
    const transport: MailTransport = {
      mode: 'smtp', send: async (_m, protocolo) => { sent.push(protocolo); return { estado: 'enviado', eml: null } }, verify: async () => {}, close() {},
    }
    const worker = new DeliveryWorker({
      db: tdb.db, transport, mailFrom: 'Contato <c@fomento.example>', clock, log: { info() {}, warn() {}, error() {} },
      config: { maxTries: 2, retryBaseMs: 60_000, retryMaxMs: 3_600_000, leaseMs: 120_000, pollMs: 1000 },
    })
    assert.equal(await worker.drain(), 2)
    assert.deepEqual(sent, [mail])
    const row = async () => (await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, webhook)))[0]!
    assert.deepEqual([(await row()).estado, (await row()).ultimoErro], ['pendente', 'no "http" transport in this worker'])
    t += 3_600_000 // past the retry
    assert.equal(await worker.drain(), 1)
    assert.deepEqual([(await row()).estado, (await row()).tentativas], ['falhou', 2])
    assert.equal((await queueStats(tdb.db.orm, clock.now())).falhas, 1, 'counted where the operator looks (estado, status)')
    assert.deepEqual(sent, [mail], 'never handed to another transport')
  })
})

describe('a kind no module of mail/ knows', () => {
  const tdb = useTestDatabase()

  it('is delivered as its producer rendered it, text only, with the headers every message gets', async () => {
    const mails: Mail.Options[] = []
    const transport: MailTransport = {
      mode: 'smtp', send: async (m) => { mails.push(m); return { estado: 'enviado', eml: null } }, verify: async () => {}, close() {},
    }
    const { protocolo } = await enqueueMessage(tdb.db.orm, {
      kind: 'boleto_emitido', name: { prefix: 'BL' }, to: 'financeiro@cliente.com.br', requestId: 'req-boleto', subject: 'Boleto\r\nBcc: x@y.z',
      text: 'Seu boleto vence amanhã.\u001b[31m', headers: { extra: { 'X-Boleto': '123\r\nBcc: x@y.z' } },
    })
    const worker = new DeliveryWorker({
      db: tdb.db, transport, mailFrom: 'Contato <c@fomento.example>', clock: systemClock, log: { info() {}, warn() {}, error() {} },
      config: { maxTries: 2, retryBaseMs: 60_000, retryMaxMs: 3_600_000, leaseMs: 120_000, pollMs: 1000 },
    })
    assert.equal(await worker.drain(), 1)
    assert.match(protocolo, /^BL-\d{8}-/)
    assert.deepEqual(mails.map((m) => [m.to, m.subject, m.text, m.html, m.messageId, m.headers]), [[
      'financeiro@cliente.com.br', 'Boleto Bcc: x@y.z', 'Seu boleto vence amanhã.[31m', undefined, `<${protocolo.toLowerCase()}@fomento.example>`,
      { 'X-Boleto': '123 Bcc: x@y.z', 'X-Request-ID': 'req-boleto' },
    ]])
    const audit = await tdb.db.orm.select().from(auditoria).where(eq(auditoria.protocolo, protocolo)).orderBy(asc(auditoria.id))
    assert.deepEqual(audit.map((a) => a.acao), ['boleto_emitido.enfileirado', 'boleto_emitido.entregue'])
  })
})

// Two workers on one database (each with a pool of its own on PostgreSQL, as two instances have) drain a queue of
// invitations and contacts together: every message reaches the SMTP server once.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { inArray } from 'drizzle-orm'
import { systemClock } from '../../../src/platform/lib/clock.ts'
import { makeContactStore } from '../../../src/modules/contact/store.ts'
import { DEFAULT_SUBJECTS } from '../../../src/modules/contact/subjects.ts'
import { openDatabase, type Database } from '../../../src/platform/db/database.ts'
import { outbox } from '../../../src/platform/db/schema.ts'
import { enqueueMessage } from '../../../src/platform/outbox/enqueue.ts'
import { messageIdFor } from '../../../src/platform/outbox/message-id.ts'
import { smtpTransport } from '../../../src/platform/outbox/transport.ts'
import { DeliveryWorker } from '../../../src/platform/outbox/worker.ts'
import { contactBody } from '../../helpers/app.ts'
import { defer, useTestDatabase } from '../../helpers/fixture.ts'
import { invitationMessage } from '../../helpers/invitation.ts'
import { createTestSmtp } from '../../helpers/smtp.ts'
import { until } from '../../helpers/wait.ts'

const MAIL_FROM = 'Contato <contato@fomento.example>'
const quiet = { info() {}, warn() {}, error() {} }

describe('two workers on one database', () => {
  const tdb = useTestDatabase()

  it('deliver each invitation and contact once', async (t) => {
    const smtp = await createTestSmtp()
    smtp.rcptDelayMs = 20 // both workers hold a message at the same time
    await smtp.start()
    defer(t, () => smtp.stop())
    const protocolos: string[] = []
    for (let i = 0; i < 16; i++) {
      protocolos.push((await enqueueMessage(tdb.db.orm, invitationMessage({ to: `pessoa${i}@empresa.com.br` }).message)).protocolo)
    }
    const store = makeContactStore(tdb.db.orm, systemClock)
    for (let i = 0; i < 4; i++) {
      const b = contactBody() as { nome: string, email: string, mensagem: string }
      const fields = { ...b, empresa: '', telefone: '', site: '' }
      protocolos.push((await store.submit({ fields, subject: DEFAULT_SUBJECTS[0]!, requestId: `w-${i}`, ip: '192.0.2.4' })).protocolo)
    }

    let second: Database = tdb.db // PGlite serves every caller from its one session
    if (tdb.url) {
      const own = await openDatabase({ databaseUrl: tdb.url })
      defer(t, () => own.close())
      second = own
    }
    const workers = [tdb.db, second].map((db) => {
      const transport = smtpTransport(smtp.url)
      defer(t, () => transport.close())
      return new DeliveryWorker({
        db, transport, mailFrom: MAIL_FROM, clock: systemClock, log: quiet,
        config: { maxTries: 12, retryBaseMs: 60_000, retryMaxMs: 3_600_000, leaseMs: 120_000, pollMs: 50 },
      })
    })
    defer(t, () => Promise.all(workers.map((w) => w.stop())))
    await Promise.all(workers.map((w) => w.start()))

    await until('every message', () => smtp.received.length >= protocolos.length, 30_000)
    await new Promise((r) => setTimeout(r, 300)) // a second copy would arrive now
    assert.equal(smtp.received.length, protocolos.length, 'no message twice')
    assert.deepEqual(smtp.received.map((m) => m.parsed.messageId).sort(), protocolos.map((p) => messageIdFor(p, MAIL_FROM)).sort())
    const rows = await tdb.db.orm.select().from(outbox).where(inArray(outbox.protocolo, protocolos))
    assert.deepEqual(new Set(rows.map((r) => `${r.estado} ${r.tentativas}`)), new Set(['enviado 1']))
  })
})

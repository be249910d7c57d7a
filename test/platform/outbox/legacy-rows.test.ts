// Migration 0012 on a queue the previous release left (contact rows rendered only when sent, from the contact): the
// rows still to send get their message and are delivered by a worker that knows nothing of contacts; the others
// hold none; and, while the previous release runs beside this one, each release's contact rows stay sendable by the other.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { eq, sql } from 'drizzle-orm'
import { systemClock } from '../../../src/platform/lib/clock.ts'
import { makeContactStore } from '../../../src/modules/contact/store.ts'
import { DEFAULT_SUBJECTS } from '../../../src/modules/contact/subjects.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import { migrate, readMigrations } from '../../../src/platform/db/migrate.ts'
import { outbox } from '../../../src/platform/db/schema.ts'
import { requeue } from '../../../src/platform/outbox/queue-admin.ts'
import { smtpTransport } from '../../../src/platform/outbox/transport.ts'
import { DeliveryWorker } from '../../../src/platform/outbox/worker.ts'
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts'
import { defer } from '../../helpers/fixture.ts'
import { createTestSmtp } from '../../helpers/smtp.ts'

const MAIL_FROM = 'Contato <contato@fomento.example>'
const quiet = { info() {}, warn() {}, error() {} }
const CONFIG = { maxTries: 12, retryBaseMs: 60_000, retryMaxMs: 3_600_000, leaseMs: 120_000, pollMs: 50 }

/** A contact and its outbox row as the previous release stored them: no content in the row. */
async function legacyContact(tdb: TestDatabase, protocolo: string, estado: string, opts: { erased?: boolean } = {}) {
  const data = opts.erased ? 'NULL, NULL, NULL' : "E'Ana\\r\\nBcc: vitima@fora.example', 'ana@empresa.com.br', 'Quero antecipar duplicatas.'"
  await tdb.db.orm.execute(sql.raw(`
    WITH c AS (INSERT INTO contato (protocolo, criado_em, assunto, destino, nome, email, mensagem, empresa, telefone, site, impressao,
                                    request_id, ip_hash, dados_apagados_em)
               VALUES ('${protocolo}', '2026-11-24T18:30:00Z', 'financeiro', 'financeiro@factoring.example', ${data}, '', '', '',
                       '${protocolo}', 'req-${protocolo}', 'h', ${opts.erased ? 'now()' : 'NULL'}) RETURNING id)
    INSERT INTO outbox (contato_id, protocolo, destino, estado, eml) SELECT id, '${protocolo}', 'financeiro@factoring.example', '${estado}',
      ${estado === 'sandbox' ? "'a sandbox copy'" : 'NULL'} FROM c`))
}

describe('the previous release\'s queue, migrated', () => {
  it('rows to send get their message and are delivered, once, by a worker that never reads the contact', async (t) => {
    const tdb = await createTestDatabase(readMigrations().filter((m) => m.version < 12))
    defer(t, () => tdb.dispose())
    const states = {
      'CT-20261124-AAAAAAAA': 'pendente', 'CT-20261124-BBBBBBBB': 'falhou', 'CT-20261124-CCCCCCCC': 'enviado', 'CT-20261124-DDDDDDDD': 'sandbox',
    }
    for (const [protocolo, estado] of Object.entries(states)) await legacyContact(tdb, protocolo, estado)
    await legacyContact(tdb, 'CT-20261124-EEEEEEEE', 'falhou', { erased: true })
    assert.equal((await migrate(tdb.db))[0]?.name, 'outbox_generico')

    const rows = Object.fromEntries((await tdb.db.orm.select().from(outbox)).map((r) => [r.protocolo, r]))
    const pending = rows['CT-20261124-AAAAAAAA']!
    assert.equal(pending.assuntoEmail, '[Contato] financeiro — Ana\r\nBcc: vitima@fora.example (CT-20261124-AAAAAAAA)')
    assert.deepEqual([pending.tipo, pending.transporte, pending.requestId, pending.conteudoApagadoEm], ['contato', 'smtp', 'req-CT-20261124-AAAAAAAA', null])
    assert.match(pending.texto!, /^Protocolo: CT-20261124-AAAAAAAA\nAssunto: financeiro\nNome: Ana Bcc: vitima@fora\.example\nE-mail: ana@empresa\.com\.br\n/)
    assert.match(pending.texto!, /Empresa: —\n.*Recebido em: 24\/11\/2026, 15:30:00 \(horário de Brasília\) — 2026-11-24T18:30:00\.000Z\nRequest ID: req-/s)
    assert.match(pending.texto!, /\n\nMensagem:\nQuero antecipar duplicatas\.\n/)
    assert.deepEqual(pending.cabecalhos, {
      replyTo: { name: 'Ana\r\nBcc: vitima@fora.example', address: 'ana@empresa.com.br' }, extra: { 'X-Contato-Protocolo': 'CT-20261124-AAAAAAAA' },
    })
    assert.ok(rows['CT-20261124-BBBBBBBB']!.texto && rows['CT-20261124-DDDDDDDD']!.texto, 'a failed row can be re-queued; a sandbox copy is content')
    for (const gone of ['CT-20261124-CCCCCCCC', 'CT-20261124-EEEEEEEE']) {
      assert.deepEqual([rows[gone]!.texto, Boolean(rows[gone]!.conteudoApagadoEm)], [null, true], `${gone} holds no content`)
    }
    assert.deepEqual(await requeue(tdb.db.orm, 'falhas', new Date()), ['CT-20261124-BBBBBBBB'], 'an erased contact is not sent again')

    const smtp = await createTestSmtp()
    await smtp.start()
    defer(t, () => smtp.stop())
    const transport = smtpTransport(smtp.url)
    defer(t, () => transport.close())
    const worker = new DeliveryWorker({ db: tdb.db, transport, mailFrom: MAIL_FROM, clock: systemClock, log: quiet, config: CONFIG })
    assert.equal(await worker.drain(), 2)
    const mails = await smtp.waitFor(2)
    const m = mails.find((x) => x.parsed.messageId === '<ct-20261124-aaaaaaaa@fomento.example>')!.parsed
    assert.equal(m.subject, '[Contato] financeiro — Ana Bcc: vitima@fora.example (CT-20261124-AAAAAAAA)')
    assert.equal(m.bcc, undefined)
    assert.deepEqual([m.replyTo?.value[0]?.address, m.replyTo?.value.length], ['ana@empresa.com.br', 1])
    assert.equal(m.headers.get('x-contato-protocolo'), 'CT-20261124-AAAAAAAA')
    assert.ok(m.text?.includes('Quero antecipar duplicatas.'))
    assert.equal(await worker.drain(), 0, 'delivered once')
  })

  it('while both releases run: the old one\'s contact row is rendered, and the new one\'s names its contact for the old worker', async (t) => {
    const tdb = await createTestDatabase()
    defer(t, () => tdb.dispose())
    // The previous release inserts a contact and a bare outbox row pointing at it.
    await legacyContact(tdb, 'CT-20261124-FFFFFFFF', 'pendente')
    const [old] = await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, 'CT-20261124-FFFFFFFF'))
    assert.ok(old!.texto?.includes('Quero antecipar duplicatas.') && old!.cabecalhos?.replyTo?.address === 'ana@empresa.com.br')
    assert.equal(old!.requestId, 'req-CT-20261124-FFFFFFFF')

    const { protocolo } = await makeContactStore(tdb.db.orm, systemClock).submit({
      fields: { nome: 'Rui', email: 'rui@empresa.com.br', mensagem: 'Mensagem nova o bastante', empresa: '', telefone: '', site: '' },
      subject: DEFAULT_SUBJECTS[0]!, requestId: 'req-nova', ip: '192.0.2.1',
    })
    const [row] = await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo))
    const [contact] = await queryRows<{ id: number }>(tdb.db.orm, sql`SELECT id FROM contato WHERE protocolo = ${protocolo}`)
    assert.equal(Number(row!.contatoId), Number(contact!.id))
  })
})

// Invitations in sandbox mode: kept as DATA_DIR/mail/<protocolo>.eml, never sent; the copy (file and database)
// erased once the link expires, by the server's hourly pass or `fila expurgar`; contacts untouched by it.
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { asc, eq } from 'drizzle-orm'
import { simpleParser } from 'mailparser'
import { runCli } from '../../../src/cli/commands.ts'
import { auditoria, outbox } from '../../../src/platform/db/schema.ts'
import { enqueueMessage } from '../../../src/platform/outbox/enqueue.ts'
import { contentPurgeJob, purgeExpiredContent } from '../../../src/platform/outbox/retention.ts'
import { contactBody } from '../../helpers/app.ts'
import { testApp, useTestDatabase } from '../../helpers/fixture.ts'
import { invitationMessage } from '../../helpers/invitation.ts'
import { runJobOnce } from '../../helpers/jobs.ts'
import { tempDir } from '../../helpers/temp.ts'
import { until } from '../../helpers/wait.ts'

describe('invitations in sandbox mode', () => {
  const tdb = useTestDatabase()
  const row = async (protocolo: string) => (await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo)))[0]!
  const delivered = (protocolo: string) => until(`${protocolo} in the sandbox`, async () => (await row(protocolo)).estado === 'sandbox')

  it('written as .eml with both parts and the link, never sent; erased, file and row, once the link has expired', async (t) => {
    const dataDir = tempDir('convite-sandbox')
    const mailDir = join(dataDir, 'mail')
    const app = await testApp(t, { db: tdb.db, env: { DATA_DIR: dataDir, MAIL_POLL_MS: '50', MAIL_FROM: 'Contato <contato@fomento.example>' } })
    const invite = invitationMessage({ requestId: 'req-sandbox' })
    const { protocolo } = await enqueueMessage(tdb.db.orm, invite.message)
    const contact = (await app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody() })).json().protocolo as string
    const file = join(mailDir, `${protocolo}.eml`)
    await until('the .eml file', async () => existsSync(file))
    await delivered(protocolo)
    await delivered(contact)

    const raw = readFileSync(file, 'utf8')
    const parsed = await simpleParser(raw)
    assert.equal(parsed.subject, 'Convite para acessar a conta de Açúcar & Álcool Ltda')
    assert.equal((parsed.to as { value: { address: string }[] }).value[0]!.address, 'ana.souza@empresa.com.br')
    assert.equal(parsed.messageId, `<${protocolo.toLowerCase()}@fomento.example>`)
    assert.ok(parsed.text?.includes(invite.link) && String(parsed.html).includes(invite.link))
    assert.ok(String(parsed.html).includes('Açúcar &amp; Álcool Ltda'))
    const kept = await row(protocolo)
    assert.equal(kept.eml, raw, 'the sandbox copy is in the database too')
    assert.equal(kept.conteudoApagadoEm, null, 'a sandbox copy stays until the link expires: it is the sandbox\'s mailbox')

    assert.equal(await purgeExpiredContent(tdb.db.orm, new Date(invite.message.expiresAt.getTime() - 60_000), mailDir), 0)
    assert.ok(existsSync(file) && (await row(protocolo)).texto, 'before expiry nothing is erased')
    // The server's own hourly job, run at once, on a clock past the expiry.
    const logs: object[] = []
    const clock = { now: () => new Date(invite.message.expiresAt.getTime() + 1000) }
    const run = await runJobOnce(tdb.db, contentPurgeJob({ orm: tdb.db.orm, mailDir, log: { info: (o) => logs.push(o) } }), clock)
    assert.deepEqual([run?.resultado, run?.contagem], ['ok', 1])
    const erased = await row(protocolo)
    assert.deepEqual([erased.texto, erased.html, erased.eml, erased.estado], [null, null, null, 'sandbox'])
    assert.ok(!existsSync(file), 'and its file')
    assert.deepEqual(logs, [{ apagados: 1 }])
    const audit = await tdb.db.orm.select().from(auditoria).where(eq(auditoria.protocolo, protocolo)).orderBy(asc(auditoria.id))
    assert.deepEqual(audit.map((a) => a.acao), ['convite.enfileirado', 'convite.entregue', 'convite.conteudo_apagado'])
    assert.ok(existsSync(join(mailDir, `${contact}.eml`)), 'a contact\'s copy follows the contact retention, not this one')
    assert.ok((await row(contact)).eml)
  })

  it('fila expurgar erases the expired ones now and keeps the others', async (t) => {
    const dataDir = tempDir('convite-expurgar')
    await testApp(t, { db: tdb.db, env: { DATA_DIR: dataDir, MAIL_POLL_MS: '50' } })
    const expired = (await enqueueMessage(tdb.db.orm, invitationMessage().message)).protocolo
    const live = (await enqueueMessage(tdb.db.orm, invitationMessage().message)).protocolo
    await delivered(expired)
    await delivered(live)
    await tdb.db.orm.update(outbox).set({ expiraEm: new Date(Date.now() - 1000) }).where(eq(outbox.protocolo, expired))
    const lines: string[] = []
    const out = { log: (s: string) => lines.push(s), error: (s: string) => lines.push(s) }
    assert.equal(await runCli(['fila', 'expurgar'], out, { DATA_DIR: dataDir }, { open: async () => tdb.db }), 0, lines.join('\n'))
    assert.deepEqual(lines, ['erased the content of 1 expired message'])
    assert.equal((await row(expired)).eml, null)
    assert.ok(!existsSync(join(dataDir, 'mail', `${expired}.eml`)))
    assert.ok((await row(live)).eml)
    assert.ok(existsSync(join(dataDir, 'mail', `${live}.eml`)))
  })
})

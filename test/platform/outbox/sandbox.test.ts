import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { eq, sql } from 'drizzle-orm'
import { simpleParser } from 'mailparser'
import { runCli } from '../../../src/cli/commands.ts'
import { auditoria, contato, outbox } from '../../../src/platform/db/schema.ts'
import { contactBody, createTestApp } from '../../helpers/app.ts'
import { defer, testApp, useTestDatabase } from '../../helpers/fixture.ts'
import { createTestSmtp } from '../../helpers/smtp.ts'
import { until } from '../../helpers/wait.ts'
import { tempDir } from '../../helpers/temp.ts'


describe('sandbox mail', () => {
  const tdb = useTestDatabase()

  it('without SMTP_URL the message is rendered and kept as DATA_DIR/mail/<protocolo>.eml and in the database, never sent', async (t) => {
    const dataDir = tempDir('sandbox')
    const app = await testApp(t, { db: tdb.db, env: { DATA_DIR: dataDir, MAIL_POLL_MS: '50', MAIL_FROM: 'Contato <contato@fomento.example>' } })
    const res = await app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody({ nome: 'Márcia Ângela', assunto: 'imprensa' }) })
    const { protocolo } = res.json()
    const file = join(dataDir, 'mail', `${protocolo}.eml`)
    await until('the .eml file', async () => existsSync(file))
    const raw = readFileSync(file, 'utf8')
    assert.match(raw, /\r\n\r\n/, 'CRLF line ends, as a mail client expects')
    const parsed = await simpleParser(raw)
    assert.equal(parsed.subject, `[Contato] Imprensa — Márcia Ângela (${protocolo})`)
    assert.equal((parsed.to as { value: { address: string }[] }).value[0]!.address, 'imprensa@factoring.example')
    assert.equal(parsed.messageId, `<${protocolo.toLowerCase()}@fomento.example>`)
    assert.ok(parsed.text?.includes('Márcia Ângela'))
    const [row] = await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo))
    assert.equal(row!.estado, 'sandbox')
    assert.equal(row!.eml, raw)
    const estado = (await app.inject({ url: '/api/site/contato/estado' })).json()
    assert.deepEqual([estado.modo, estado.pode_enviar], ['sandbox', false])
    assert.ok(estado.ultima_entrega_em)
  })

  it('a new message wakes the worker at once (NOTIFY), without waiting for its poll', async (t) => {
    const app = await testApp(t, { db: tdb.db, env: { MAIL_POLL_MS: '600000' } })
    await new Promise((r) => setTimeout(r, 200)) // past the worker's first pass at start
    const { protocolo } = (await app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody() })).json()
    await until(
      'delivery long before the next poll',
      async () => (await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo)))[0]?.estado === 'sandbox',
      3000,
    )
  })

  it('AMBIENTE=sandbox never sends, even with SMTP_URL set', async (t) => {
    const smtp = await createTestSmtp()
    await smtp.start()
    defer(t, () => smtp.stop())
    const app = await testApp(t, { db: tdb.db, env: { AMBIENTE: 'sandbox', SMTP_URL: smtp.url, MAIL_POLL_MS: '50' } })
    const { protocolo } = (await app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody() })).json()
    await until('sandbox delivery', async () => (await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo)))[0]?.estado === 'sandbox')
    assert.equal(smtp.received.length, 0)
    assert.equal((await app.inject({ url: '/api/site/contato/estado' })).json().modo, 'sandbox')
  })

  it('contatos expurgar erases personal data older than the retention period and keeps the audit rows', async () => {
    const dataDir = tempDir('purge')
    const app = await createTestApp({ db: tdb.db, env: { MAIL_POLL_MS: '50', DATA_DIR: dataDir } })
    let protocolo: string
    try {
      protocolo = (await app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody() })).json().protocolo
      await until('delivery', async () => (await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo)))[0]?.estado === 'sandbox')
    } finally {
      await app.close()
    }
    // Make it look 400 days old (the audit row keeps its own time).
    await tdb.db.orm.update(contato).set({ criadoEm: sql`now() - interval '400 days'` }).where(eq(contato.protocolo, protocolo))
    const lines: string[] = []
    assert.ok(existsSync(join(dataDir, 'mail', `${protocolo}.eml`)))
    const code = await runCli(
      ['contatos', 'expurgar'],
      { log: (s) => lines.push(s), error: (s) => lines.push(s) },
      { DATA_DIR: dataDir, CONTACT_RETENTION_DAYS: '365' },
      { open: async () => tdb.db },
    )
    assert.equal(code, 0, lines.join('\n'))
    assert.match(lines.join('\n'), /erased the personal data of [1-9]\d* contact/)
    const [row] = await tdb.db.orm.select().from(contato).where(eq(contato.protocolo, protocolo))
    assert.deepEqual([row!.nome, row!.email, row!.mensagem, row!.telefone], [null, null, null, null])
    assert.ok(row!.dadosApagadosEm)
    const audit = await tdb.db.orm.select().from(auditoria).where(eq(auditoria.protocolo, protocolo))
    assert.deepEqual(audit.map((a) => a.acao).sort(), ['contato.dados_apagados', 'contato.entregue', 'contato.recebido'])
    const [box] = await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo))
    assert.equal(box!.eml, null, 'the sandbox copy holds personal data too')
    assert.deepEqual([box!.assuntoEmail, box!.texto, box!.html, box!.cabecalhos], [null, null, null, null], 'and so does the queued message')
    assert.ok(box!.conteudoApagadoEm)
    assert.ok(!existsSync(join(dataDir, 'mail', `${protocolo}.eml`)), 'and so does its file')
  })
})

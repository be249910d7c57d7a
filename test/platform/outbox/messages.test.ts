// Invitation e-mails through the outbox to a real SMTP server, as the credential layer will queue them: delivered
// once with their headers and both parts, retried on a 4xx, failed after the last try and re-queued by the
// operator, never sent once expired; their content erased once sent; never in a log line or the queue listing.
import assert from 'node:assert/strict'
import { afterEach, describe, it } from 'node:test'
import { asc, eq } from 'drizzle-orm'
import type { App } from '../../../src/app.ts'
import { auditoria, entregaTentativa, outbox } from '../../../src/platform/db/schema.ts'
import { enqueueMessage } from '../../../src/platform/outbox/enqueue.ts'
import { createTestApp } from '../../helpers/app.ts'
import { cliRunner } from '../../helpers/cli.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'
import { invitationMessage } from '../../helpers/invitation.ts'
import { createTestSmtp, type TestSmtp } from '../../helpers/smtp.ts'
import { until } from '../../helpers/wait.ts'

const FAST = { MAIL_POLL_MS: '50', MAIL_RETRY_BASE_MS: '100', MAIL_RETRY_MAX_MS: '400', MAIL_FROM: 'Plataforma de Fomento <contato@fomento.example>' }

describe('invitation e-mails over SMTP', () => {
  const tdb = useTestDatabase()
  const { lines, cli } = cliRunner(() => tdb.db)
  let smtp: TestSmtp
  let app: App
  let logs: object[]
  afterEach(async () => {
    await app?.close()
    await smtp?.stop()
  })

  const start = async (env: Record<string, string> = {}) => {
    smtp = await createTestSmtp()
    await smtp.start()
    logs = []
    app = await createTestApp({ db: tdb.db, logs, logLevel: 'debug', env: { ...FAST, SMTP_URL: smtp.url, ...env } })
  }
  const row = async (protocolo: string) => (await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo)))[0]!
  const attempts = async (protocolo: string) => {
    const r = await row(protocolo)
    return (await tdb.db.orm.select().from(entregaTentativa).where(eq(entregaTentativa.outboxId, r.id)).orderBy(asc(entregaTentativa.id)))
      .map((a) => [a.resultado, a.codigoSmtp])
  }
  const audit = async (protocolo: string) =>
    (await tdb.db.orm.select().from(auditoria).where(eq(auditoria.protocolo, protocolo)).orderBy(asc(auditoria.id))).map((a) => a.acao)

  it('delivered once: headers, both parts with the link, hostile names escaped; its content gone from the database, never logged', async () => {
    await start()
    const invite = invitationMessage({
      requestId: 'req-convite-1',
      names: { customerName: '<script>alert(1)</script> & Cia\r\nBcc: vitima@fora.example', inviteeName: 'Ana <b>Souza</b>' },
    })
    const { protocolo } = await enqueueMessage(tdb.db.orm, invite.message)
    const [mail] = await smtp.waitFor(1)
    const m = mail!.parsed
    assert.deepEqual(mail!.envelopeTo, ['ana.souza@empresa.com.br'])
    assert.equal(m.from?.value[0]?.address, 'contato@fomento.example')
    assert.equal((m.to as { value: { address: string }[] }).value[0]!.address, 'ana.souza@empresa.com.br')
    assert.equal(m.messageId, `<${protocolo.toLowerCase()}@fomento.example>`)
    assert.equal(m.subject, 'Convite para acessar a conta de <script>alert(1)</script> & Cia Bcc: vitima@fora.example')
    assert.equal(m.headers.get('auto-submitted'), 'auto-generated')
    assert.equal(m.headers.get('x-request-id'), 'req-convite-1')
    assert.equal(m.bcc, undefined)
    assert.ok(!/^Bcc:/im.test(mail!.raw.split('\r\n\r\n')[0]!), 'no injected header line')
    assert.ok(m.text?.includes(invite.link), 'the text part has the link')
    assert.ok(m.text?.includes('Olá, Ana <b>Souza</b>.'))
    const html = String(m.html)
    assert.ok(html.includes(`<a href="${invite.link}">`), 'the HTML part has the link')
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Cia') && html.includes('Ana &lt;b&gt;Souza&lt;/b&gt;'))
    assert.ok(!html.includes('<script>') && !html.includes('<b>'))

    const sent = await until('the row marked sent', async () => ((await row(protocolo)).estado === 'enviado' ? row(protocolo) : undefined))
    assert.deepEqual([sent.texto, sent.html, sent.eml], [null, null, null], 'the link is not kept once sent')
    assert.ok(sent.conteudoApagadoEm)
    assert.equal(sent.assuntoEmail, m.subject, 'the subject (no secret) stays, to say what was sent')
    assert.deepEqual(await attempts(protocolo), [['enviado', null]])
    assert.deepEqual(await audit(protocolo), ['convite.enfileirado', 'convite.entregue'])
    await new Promise((r) => setTimeout(r, 300))
    assert.equal(smtp.received.length, 1, 'exactly once')

    const delivery = logs.find((l) => (l as { protocolo?: string }).protocolo === protocolo) as Record<string, unknown> | undefined
    assert.deepEqual([delivery?.msg, delivery?.tipo, delivery?.resultado, delivery?.reqId], ['message delivery', 'convite', 'enviado', 'req-convite-1'])
    const logged = JSON.stringify(logs)
    assert.ok(!logged.includes(invite.token) && !logged.includes('Souza'), 'neither the link nor the body in any log line')
  })

  it('451 then 250: delivered on the retry, the content kept until then', async () => {
    await start()
    let calls = 0
    smtp.onData = () => (++calls === 1 ? { code: 451, message: '4.3.0 Try again later' } : null)
    const { protocolo } = await enqueueMessage(tdb.db.orm, invitationMessage().message)
    await smtp.waitFor(1)
    await until('sent', async () => (await row(protocolo)).estado === 'enviado')
    assert.deepEqual(await attempts(protocolo), [['adiado', 451], ['enviado', null]])
    assert.equal((await row(protocolo)).texto, null)
    assert.equal(smtp.received[0]!.parsed.messageId, `<${protocolo.toLowerCase()}@fomento.example>`)
  })

  it('a failure that lasts: failed after the last try, listed without the person\'s address, re-queued and delivered', async () => {
    await start({ MAIL_MAX_TRIES: '3' })
    smtp.onRcpt = (address) => ({ code: 452, message: `4.2.2 <${address}>: Mailbox full` })
    const invite = invitationMessage({ to: 'Ana.Souza@Empresa.com.br' })
    const { protocolo } = await enqueueMessage(tdb.db.orm, invite.message)
    await until('failed', async () => (await row(protocolo)).estado === 'falhou')
    assert.deepEqual(await attempts(protocolo), [['adiado', 452], ['adiado', 452], ['falhou', 452]])
    assert.equal(smtp.received.length, 0)
    const failed = await row(protocolo)
    assert.match(String(failed.ultimoErro), /Ana\.Souza@Empresa\.com\.br/i, 'the provider named the address')
    assert.ok(failed.texto?.includes(invite.link), 'kept for a re-queue before it expires')
    assert.deepEqual(await audit(protocolo), ['convite.enfileirado', 'convite.entrega_falhou'])

    assert.equal(await cli('fila', 'listar', '--estado', 'falhou'), 0)
    const listed = lines.find((l) => l.startsWith(protocolo))
    assert.ok(listed, lines.join('\n'))
    assert.deepEqual(listed.split('\t').slice(0, 5), [protocolo, 'falhou', '3 tries', 'convite', '…@Empresa.com.br'])
    assert.match(listed, /4\.2\.2 <…@Empresa\.com\.br>: Mailbox full/)
    assert.equal(await cli('fila', 'mostrar', protocolo), 0)
    const shown = lines.join('\n')
    assert.match(shown, new RegExp(`^${protocolo}: convite, falhou, 3 tries, to …@Empresa\\.com\\.br`))
    assert.match(shown, /expires \d{4}-\d\d-\d\d \d\d:\d\d \(-03:00\)/)
    for (const secret of ['Ana.Souza', 'ana.souza', invite.token]) assert.ok(!shown.includes(secret), `${secret} not shown`)

    smtp.onRcpt = () => null
    assert.equal(await cli('fila', 'reenfileirar', protocolo), 0)
    const [mail] = await smtp.waitFor(1)
    assert.ok(mail!.parsed.text?.includes(invite.link))
    await until('sent', async () => (await row(protocolo)).estado === 'enviado')
    assert.deepEqual(await audit(protocolo), ['convite.enfileirado', 'convite.entrega_falhou', 'convite.reenfileirado', 'convite.entregue'])
  })

  it('past its expiry an invitation is not sent: failed at once, content erased, and not re-queued', async () => {
    const { protocolo } = await enqueueMessage(tdb.db.orm, invitationMessage().message)
    // As if no worker had run for the three days the link lives.
    await tdb.db.orm.update(outbox).set({ expiraEm: new Date(Date.now() - 1000) }).where(eq(outbox.protocolo, protocolo))
    await start()
    await until('failed', async () => (await row(protocolo)).estado === 'falhou')
    const failed = await row(protocolo)
    assert.deepEqual([failed.ultimoErro, failed.texto, failed.html], ['expired before delivery', null, null])
    assert.ok(failed.conteudoApagadoEm)
    assert.equal(await cli('fila', 'reenfileirar', protocolo), 1)
    assert.deepEqual(lines, ['no failed message matched'])
    await new Promise((r) => setTimeout(r, 300))
    assert.equal(smtp.received.length, 0)
  })
})

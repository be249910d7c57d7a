// Contact e-mails through a real SMTP server: arrival, headers and body, outages, retries, rejections,
// header injection, AUTH and STARTTLS, and the operator's re-queue.
import assert from 'node:assert/strict'
import { tmpdir } from 'node:os'
import { afterEach, describe, it } from 'node:test'
import { asc, eq } from 'drizzle-orm'
import type { App } from '../../../src/app.ts'
import { runCli } from '../../../src/cli/commands.ts'
import { entregaTentativa, outbox } from '../../../src/platform/db/schema.ts'
import { contactBody, createTestApp } from '../../helpers/app.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'
import { createTestSmtp, type TestSmtp } from '../../helpers/smtp.ts'
import { until } from '../../helpers/wait.ts'

const FAST = { MAIL_POLL_MS: '50', MAIL_RETRY_BASE_MS: '100', MAIL_RETRY_MAX_MS: '400', MAIL_FROM: 'Plataforma de Fomento <contato@fomento.example>' }


describe('contact delivery over SMTP', () => {
  const tdb = useTestDatabase()
  let smtp: TestSmtp
  let app: App
  afterEach(async () => {
    await app?.close()
    await smtp?.stop()
  })

  const start = async (env: Record<string, string> = {}, smtpOpts = {}) => {
    smtp = await createTestSmtp(smtpOpts)
    await smtp.start()
    app = await createTestApp({ db: tdb.db, contactBudget: 10_000, env: { ...FAST, SMTP_URL: smtp.url, ...env } })
  }
  const post = async (body: object, headers: Record<string, string> = {}) => {
    const res = await app.inject({ method: 'POST', url: '/api/site/contato', payload: body, headers })
    assert.equal(res.statusCode, 202, res.body)
    return res.json() as { protocolo: string, destino: string }
  }
  const row = async (protocolo: string) => (await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo)))[0]!
  const attempts = async (protocolo: string) => {
    const r = await row(protocolo)
    return tdb.db.orm.select().from(entregaTentativa).where(eq(entregaTentativa.outboxId, r.id)).orderBy(asc(entregaTentativa.id))
  }

  it('delivers a posted contact once, to the routed mailbox, with the right headers and body', async () => {
    await start()
    const body = contactBody({ nome: 'João Conceição <b>', assunto: 'financeiro', empresa: 'Açúcar & Álcool Ltda', telefone: '+55 11 3333-4444', site: 'https://acucar.com.br', mensagem: 'Olá! Preciso antecipar duplicatas.\nSegunda linha com <script>alert(1)</script>' })
    const { protocolo } = await post(body, { 'x-request-id': 'req-entrega-1' })
    const [mail] = await smtp.waitFor(1)
    const m = mail!.parsed
    assert.deepEqual(mail!.envelopeTo, ['financeiro@factoring.example'])
    assert.equal(m.from?.value[0]?.address, 'contato@fomento.example')
    assert.equal(m.from?.value[0]?.name, 'Plataforma de Fomento')
    assert.equal((m.to as { value: { address: string }[] }).value[0]!.address, 'financeiro@factoring.example')
    assert.equal(m.replyTo?.value[0]?.address, body.email)
    assert.equal(m.replyTo?.value[0]?.name, 'João Conceição <b>')
    assert.equal(m.messageId, `<${protocolo.toLowerCase()}@fomento.example>`)
    assert.equal(m.subject, `[Contato] Financeiro — João Conceição <b> (${protocolo})`)
    for (const v of [protocolo, 'Açúcar & Álcool Ltda', '+55 11 3333-4444', 'https://acucar.com.br', 'req-entrega-1', 'Segunda linha com <script>', String(body.email)]) {
      assert.ok(m.text?.includes(v), `text part has ${v}`)
    }
    assert.ok(String(m.html).includes('&lt;script&gt;alert(1)&lt;/script&gt;'))
    assert.ok(!String(m.html).includes('<script>'))
    assert.ok(String(m.html).includes('Açúcar &amp; Álcool'))
    await new Promise((r) => setTimeout(r, 300))
    assert.equal(smtp.received.length, 1, 'exactly once')
    const r = await row(protocolo)
    assert.equal(r.estado, 'enviado')
    assert.equal(r.messageId, m.messageId)
    assert.deepEqual((await attempts(protocolo)).map((a) => a.resultado), ['enviado'])
    const estado = (await app.inject({ url: '/api/site/contato/estado' })).json()
    assert.equal(estado.modo, 'smtp')
    assert.ok(estado.ultima_entrega_em)
  })

  it('SMTP down when the contact is posted: 202 anyway, delivered once when the server comes up', async () => {
    await start()
    await smtp.stop()
    const { protocolo } = await post(contactBody())
    const failed = await until('a failed attempt', async () => {
      const r = await row(protocolo)
      return r.tentativas >= 1 && r.estado === 'pendente' ? r : undefined
    })
    assert.match(String(failed.ultimoErro), /ECONNREFUSED|connect/i)
    await smtp.start()
    await smtp.waitFor(1)
    await until('the row to be marked sent', async () => (await row(protocolo)).estado === 'enviado')
    await new Promise((r) => setTimeout(r, 300))
    assert.equal(smtp.received.length, 1)
    assert.equal(smtp.received[0]!.parsed.messageId, `<${protocolo.toLowerCase()}@fomento.example>`)
  })

  it('451 then 250: delivered on the retry, both attempts kept', async () => {
    await start()
    let calls = 0
    smtp.onData = () => (++calls === 1 ? { code: 451, message: '4.3.0 Try again later' } : null)
    const { protocolo } = await post(contactBody())
    await smtp.waitFor(1)
    await until('sent', async () => (await row(protocolo)).estado === 'enviado')
    const tries = await attempts(protocolo)
    assert.deepEqual(tries.map((a) => a.resultado), ['adiado', 'enviado'])
    assert.equal(tries[0]!.codigoSmtp, 451)
  })

  it('a failure that lasts ends, after the bounded number of tries, as failed', async () => {
    await start({ MAIL_MAX_TRIES: '3' })
    smtp.onData = () => ({ code: 421, message: '4.7.0 Service not available' })
    const { protocolo } = await post(contactBody())
    await until('failed', async () => (await row(protocolo)).estado === 'falhou')
    assert.deepEqual((await attempts(protocolo)).map((a) => a.resultado), ['adiado', 'adiado', 'falhou'])
    assert.equal(smtp.received.length, 0)
  })

  it('550 for the recipient fails at once, shows in estado, status and the CLI, and is re-queued by the CLI', async () => {
    await start()
    smtp.onRcpt = () => ({ code: 550, message: '5.1.1 Mailbox unavailable' })
    const { protocolo } = await post(contactBody({ assunto: 'ouvidoria' }))
    await until('failed', async () => (await row(protocolo)).estado === 'falhou')
    assert.equal((await row(protocolo)).tentativas, 1)
    assert.match(String((await row(protocolo)).ultimoErro), /550/)
    const estado = (await app.inject({ url: '/api/site/contato/estado' })).json()
    assert.ok(estado.fila.falhas >= 1)
    assert.equal(estado.saudavel, false)
    const status = await app.deps.snapshot.refresh()
    assert.equal(status.servicos.find((s) => s.nome === 'email')?.ok, false)
    assert.equal(status.status, 'degradado')

    const lines: string[] = []
    const out = { log: (s: string) => lines.push(s), error: (s: string) => lines.push(s) }
    const cli = (argv: string[]) => runCli(argv, out, { DATA_DIR: tmpdir() }, { open: async () => tdb.db })
    assert.equal(await cli(['fila', 'listar', '--estado', 'falhou']), 0)
    assert.ok(lines.some((l) => l.includes(protocolo) && l.includes('falhou') && l.includes('550') && l.includes('\touvidoria@factoring.example\t')),
      'the service\'s own mailbox is shown whole')
    lines.length = 0
    assert.equal(await cli(['fila', 'mostrar', protocolo]), 0)
    assert.ok(lines.some((l) => /falhou 550/.test(l)))

    smtp.onRcpt = () => null
    lines.length = 0
    assert.equal(await cli(['fila', 'reenfileirar', protocolo]), 0)
    assert.match(lines.join('\n'), new RegExp(`re-queued 1: ${protocolo}`))
    const [mail] = await smtp.waitFor(1)
    assert.deepEqual(mail!.envelopeTo, ['ouvidoria@factoring.example'])
    await until('sent', async () => (await row(protocolo)).estado === 'enviado')
    assert.equal(await cli(['fila', 'reenfileirar', protocolo]), 1, 'nothing left to re-queue')
  })

  it('header injection in nome, assunto and empresa: one well-formed message with the original headers only', async () => {
    await start()
    const { protocolo } = await post(contactBody({
      nome: 'Ana\r\nBcc: vitima@fora.example\r\nX-Injetado: 1',
      assunto: 'comercial\r\nBcc: outra@fora.example',
      empresa: 'ACME\nSubject: hackeado\n\nCorpo falso',
      telefone: '123\r\n.\r\nMAIL FROM:<x@y.z>',
    }))
    const [mail] = await smtp.waitFor(1)
    const m = mail!.parsed
    assert.deepEqual(mail!.envelopeTo, ['contato@factoring.example'], 'an unknown subject routes to geral, and no Bcc leaks in')
    assert.equal(m.bcc, undefined)
    assert.equal(m.headers.get('x-injetado'), undefined)
    assert.ok(!/^(Bcc|X-Injetado|Subject: hackeado)/im.test(mail!.raw.split('\r\n\r\n')[0]!), 'no injected header line')
    assert.equal(m.subject, `[Contato] Outros assuntos — Ana Bcc: vitima@fora.example X-Injetado: 1 (${protocolo})`)
    assert.equal(m.replyTo?.value.length, 1)
    await new Promise((r) => setTimeout(r, 200))
    assert.equal(smtp.received.length, 1)
  })

  it('AUTH over STARTTLS: verified, can send, delivered', async () => {
    await start({}, { auth: { user: 'remetente', pass: 's3nh@ forte' }, starttls: true })
    const estado = await until('verified', async () => {
      const e = (await app.inject({ url: '/api/site/contato/estado' })).json()
      return e.transporte_verificado && e
    })
    assert.equal(estado.pode_enviar, true)
    assert.ok(estado.verificado_em)
    assert.ok(!JSON.stringify(estado).includes('s3nh'))
    const { protocolo } = await post(contactBody())
    const [mail] = await smtp.waitFor(1)
    assert.equal(mail!.parsed.messageId, `<${protocolo.toLowerCase()}@fomento.example>`)
  })

  it('a wrong password: not verified, cannot send, email not ok in status, and the message waits', async () => {
    smtp = await createTestSmtp({ auth: { user: 'remetente', pass: 'certa' } })
    await smtp.start()
    const bad = smtp.url.replace('certa', 'errada')
    app = await createTestApp({ db: tdb.db, env: { ...FAST, SMTP_URL: bad } })
    const { protocolo } = await post(contactBody())
    // A login refusal is retried, not failed for good: the operator has the retry window to fix it.
    await until('a finished attempt', async () => (await attempts(protocolo)).length >= 1)
    assert.deepEqual([(await attempts(protocolo))[0]!.resultado, (await attempts(protocolo))[0]!.codigoSmtp], ['adiado', 535])
    const estado = (await app.inject({ url: '/api/site/contato/estado' })).json()
    assert.equal(estado.transporte_verificado, false)
    assert.equal(estado.pode_enviar, false)
    assert.equal((await app.deps.snapshot.refresh()).servicos.find((s) => s.nome === 'email')?.ok, false)
    assert.equal(smtp.received.length, 0)
  })
})

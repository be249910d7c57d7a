// The invitation e-mail as rendered, and the outbox's door for it: what it refuses, and that a message is queued
// with the work of its transaction or not at all.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import { auditoria, outbox } from '../../../src/platform/db/schema.ts'
import { enqueueMessage } from '../../../src/platform/outbox/enqueue.ts'
import { renderInvitation } from '../../../src/platform/outbox/invitation.ts'
import { queueStats } from '../../../src/platform/outbox/queue-stats.ts'
import { outboxDepthSource } from '../../../src/platform/metrics/outbox.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'
import { invitationMessage } from '../../helpers/invitation.ts'

const LINK = 'https://www.fomento.example/conta/ativar?convite=fpsi_abc123'
const base = { invitedBy: 'Equipe comercial', customerName: 'Fomento Sul S.A.', inviteeName: 'Ana Souza', link: LINK }

describe('the invitation e-mail', () => {
  it('says who invited whom to which customer, gives the link and its expiry in Brasília time, and what to do if unexpected', () => {
    // 2026-11-24 18:30 UTC is 15:30 in Brasília.
    const mail = renderInvitation({ ...base, expiresAt: new Date('2026-11-24T18:30:00Z') })
    assert.equal(mail.subject, 'Convite para acessar a conta de Fomento Sul S.A.')
    for (const part of [mail.text, mail.html]) {
      for (const v of ['Olá, Ana Souza.', 'Equipe comercial convidou você', 'Fomento Sul S.A.', LINK, '24/11/2026, 15:30:00 (horário de Brasília)',
        'uma única vez', 'Não esperava este convite? Ignore este e-mail', 'https://www.fomento.example/contato']) {
        assert.ok(part.includes(v), `${v} in ${part}`)
      }
    }
    assert.ok(mail.html.includes(`<a href="${LINK}">${LINK}</a>`))
  })

  it('no tracking: no image, no remote resource, no link but the activation link and the site contact page', () => {
    const { html } = renderInvitation({ ...base, expiresAt: new Date() })
    assert.doesNotMatch(html, /<img|<link|<script|<iframe|src=|url\(|@import/i)
    assert.deepEqual([...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]), [LINK, 'https://www.fomento.example/contato'])
  })

  it('hostile names: escaped in HTML, kept on one line in the text and the subject', () => {
    const mail = renderInvitation({
      invitedBy: 'Bob <img src=https://rastreio.example/p.gif>',
      customerName: '<script>alert(1)</script> & "Cia"\r\nBcc: vitima@fora.example',
      inviteeName: 'Ana\n\nClique aqui: https://golpe.example\u001b[31m',
      link: LINK,
      expiresAt: new Date(),
    })
    assert.ok(!mail.html.includes('<script>') && !mail.html.includes('<img'))
    assert.ok(mail.html.includes('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Cia&quot; Bcc: vitima@fora.example'))
    assert.ok(mail.html.includes('Bob &lt;img src=https://rastreio.example/p.gif&gt;'))
    assert.ok(mail.text.includes('Olá, Ana Clique aqui: https://golpe.example[31m.'), 'one line, no terminal escape')
    assert.doesNotMatch(mail.subject, /[\r\n]/)
    assert.equal(mail.subject, 'Convite para acessar a conta de <script>alert(1)</script> & "Cia" Bcc: vitima@fora.example')
  })

  it('refuses a link that is not an absolute http(s) URL, without quoting it', () => {
    for (const link of ['javascript:alert(1)', '/conta/ativar?convite=x', `${LINK}\nBcc: x@y.z`, ` ${LINK}`, 'https://u:p@www.fomento.example/a']) {
      assert.throws(() => renderInvitation({ ...base, link, expiresAt: new Date() }), (err: Error) => {
        assert.ok(err instanceof TypeError)
        assert.ok(!err.message.includes(link.trim()), 'the link (a secret) is not in the error')
        return true
      })
    }
  })
})

describe('enqueueMessage', () => {
  const tdb = useTestDatabase()
  const rows = async (protocolo: string) => tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, protocolo))

  it('queues a pending row with its parts, customer and expiry, and audits it with no content', async () => {
    const now = new Date()
    const { message, link } = invitationMessage({ now, requestId: 'req-convite-9' })
    const { protocolo } = await enqueueMessage(tdb.db.orm, message, { now: () => now })
    assert.match(protocolo, /^CV-\d{8}-[0-9A-HJKMNP-TV-Z]{8}$/)
    const [row] = await rows(protocolo)
    assert.deepEqual(
      [row!.tipo, row!.transporte, row!.estado, row!.destino, row!.contatoId, row!.requestId, row!.clienteId, row!.expiraEm?.toISOString(), row!.tentativas],
      ['convite', 'smtp', 'pendente', 'ana.souza@empresa.com.br', null, 'req-convite-9', message.clienteId, message.expiresAt.toISOString(), 0],
    )
    assert.ok(row!.texto?.includes(link) && row!.html?.includes(link))
    assert.deepEqual(row!.cabecalhos, { extra: { 'Auto-Submitted': 'auto-generated' } })
    const audit = await tdb.db.orm.select().from(auditoria).where(eq(auditoria.protocolo, protocolo))
    assert.deepEqual(audit.map((a) => [a.acao, a.requestId]), [['convite.enfileirado', 'req-convite-9']])
    assert.ok(!JSON.stringify(audit).includes(link))
  })

  it('counted by state like a contact: the outbox depth metric and the queue counts of estado and status', async () => {
    // A source of its own for each reading: one source reuses its reading for a second.
    const counts = async () => [(await outboxDepthSource(tdb.db.orm, 5000)()).pendente, (await queueStats(tdb.db.orm, new Date())).pendentes]
    const before = await counts()
    await enqueueMessage(tdb.db.orm, invitationMessage().message)
    assert.deepEqual(await counts(), before.map((n) => n! + 1))
  })

  it('in the caller\'s transaction: a rolled-back transaction leaves no message and no audit row', async () => {
    let queued = ''
    await assert.rejects(tdb.db.orm.transaction(async (tx) => {
      queued = (await enqueueMessage(tx, invitationMessage().message)).protocolo
      throw new Error('the invitation could not be stored')
    }), /could not be stored/)
    assert.ok(queued)
    assert.deepEqual(await rows(queued), [])
    assert.deepEqual(await tdb.db.orm.select().from(auditoria).where(eq(auditoria.protocolo, queued)), [])
  })

  it('refuses what is not a message, naming the field and never its value', async () => {
    const { message, link } = invitationMessage()
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ kind: 'Convite!' }, /kind must be 1 to 40 of a-z 0-9 _/],
      [{ name: { prefix: 'convite' } }, /name must be a protocolo .* or a prefix of two capital letters/],
      [{ name: { protocolo: 'CV-1' } }, /name must be a protocolo/],
      [{ transport: 'http' }, /transport must be one of smtp/],
      [{ headers: { extra: { Bcc: 'vitima@fora.example' } } }, /headers must be/],
      [{ headers: { replyTo: { name: 'Ana', address: 'a@b.com.br, c@d.com.br' } } }, /headers must be/],
      [{ to: 'ana@' }, /to must be one e-mail address/],
      [{ to: 'a@b.com.br, c@d.com.br' }, /to must be one e-mail address/],
      [{ subject: '\r\n' }, /subject must not be empty/],
      [{ text: ' ' }, /text must not be empty/],
      [{ html: '' }, /html must not be empty/],
      [{ requestId: 'com espaço' }, /requestId must be/],
      [{ clienteId: '42' }, /clienteId must be a UUID/],
      [{ expiresAt: new Date(Date.now() - 1000) }, /expiresAt must be a time after now/],
      [{ attachments: [{ filename: '../boleto.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF') }] }, /attachments must be/],
      [{ attachments: [{ filename: 'boleto.exe', contentType: 'application/x-msdownload', content: Buffer.from('MZ') }] }, /attachments must be/],
      [{ attachments: [{ filename: 'vazio.pdf', contentType: 'application/pdf', content: Buffer.alloc(0) }] }, /attachments must be/],
      [{ attachments: [{ filename: 'grande.pdf', contentType: 'application/pdf', content: Buffer.alloc(1_500_001) }] }, /attachments must be/],
      [{ attachments: Array.from({ length: 6 }, (_, k) => ({ filename: `b${k}.pdf`, contentType: 'application/pdf', content: Buffer.from('%PDF') })) },
        /attachments must be/],
    ]
    for (const [change, expected] of cases) {
      await assert.rejects(enqueueMessage(tdb.db.orm, { ...message, ...change } as typeof message), (err: Error) => {
        assert.ok(err instanceof TypeError, String(err))
        assert.match(err.message, expected)
        assert.ok(!err.message.includes(link))
        return true
      })
    }
    const [count] = await tdb.db.orm.select().from(outbox).where(eq(outbox.destino, 'a@b.com.br, c@d.com.br'))
    assert.equal(count, undefined)
  })

  it('the database refuses a row without its parts (unless erased) or its request id, or with an unknown transport (migration 0012)', async () => {
    const { protocolo } = await enqueueMessage(tdb.db.orm, invitationMessage().message)
    // Drizzle wraps the driver's error; the database's own message is the cause.
    const refused = (check: string) => (err: Error & { cause?: Error }) => new RegExp(check).test(`${err.message} ${err.cause?.message}`)
    const cases: [Partial<typeof outbox.$inferInsert>, string][] = [
      [{ texto: null }, 'outbox_mensagem_check'], [{ assuntoEmail: null }, 'outbox_mensagem_check'], [{ requestId: null }, 'outbox_mensagem_check'],
      [{ transporte: 'pombo' }, 'outbox_transporte_check'], [{ tipo: 'Convite X' }, 'outbox_tipo_check'],
    ]
    for (const [change, check] of cases) {
      await assert.rejects(tdb.db.orm.update(outbox).set(change).where(eq(outbox.protocolo, protocolo)), refused(check), JSON.stringify(change))
    }
    const [row] = await rows(protocolo)
    assert.ok(row!.texto && row!.html && row!.expiraEm && row!.tipo === 'convite' && row!.transporte === 'smtp')
    // Erased, a row holds no parts: the CHECK lets it.
    await tdb.db.orm.update(outbox).set({ texto: null, html: null, conteudoApagadoEm: new Date() }).where(eq(outbox.protocolo, protocolo))
  })
})

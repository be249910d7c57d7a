// POST /api/cobrancas/{id}/email (issue 33): a registered charge's boleto e-mailed to its sacado through the outbox, to
// a real SMTP server: the notice of the assignment naming the buyer as payee, the linha digitável and the PIX copia e
// cola in the text, the boleto's PDF attached (its text read back by a PDF library), sent once; refused for a sacado
// without an address, a charge its bank does not hold, a baixa asked or a título bought back; another customer's
// charge is not found.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import { httpBankAdapter } from '../../../../src/modules/collections/bank/http-adapter.ts'
import { mod10 } from '../../../../src/modules/collections/boleto/modulos.ts'
import { registerDue } from '../../../../src/modules/collections/charges/registration.ts'
import { startSandboxBank, type SandboxBank } from '../../../../src/modules/collections/sandbox/bank-server.ts'
import { outbox } from '../../../../src/platform/db/schema.ts'
import { auditRows } from '../../../helpers/credentials.ts'
import { useTestApp } from '../../../helpers/fixture.ts'
import { pdfText } from '../../../helpers/pdf-text.ts'
import { createTestSmtp, type TestSmtp } from '../../../helpers/smtp.ts'
import { until } from '../../../helpers/wait.ts'
import { backOffice, created, EXAMPLE_NOW, formalizedExample, key, settableClock } from '../../operations/helpers.ts'

describe('the boleto e-mailed to the sacado', () => {
  let smtp: TestSmtp
  let bank: SandboxBank
  before(async () => {
    smtp = await createTestSmtp()
    await smtp.start()
    bank = await startSandboxBank({ token: 'segredo' })
  })
  after(async () => {
    await smtp.stop()
    await bank.close()
  })
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp(() => ({ deps: { clock }, env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '50', MAIL_FROM: 'Cobrança <cobranca@fomento.example>' } }))
  const talk = () => ({ db: ctx.db, retry: { baseMs: 60_000, maxMs: 3_600_000 }, random: () => 0.5,
    adapterFor: () => httpBankAdapter({ baseUrl: bank.url, token: 'segredo', timeoutMs: 2000 }) })

  it('sends the notice and the boleto once, to the sacado\'s address; refuses where it cannot', async () => {
    const office = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await formalizedExample(office.admin.call)
    const conta = '67891'
    const account = created(await office.operador.call('POST', '/api/contas-cobranca', { nome: 'Itaú', banco: '341', agencia: '1234', conta,
      conta_digito: String(mod10(`1234${conta}`)), carteira: '109', transporte: 'api' }))
    created(await office.aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    const charge = (i: number) => office.operador.call('POST', '/api/cobrancas', { titulo_id: op.titulos[i].id, conta_cobranca_id: account.id }, key())
    const c = created(await charge(1))
    const send = (id: string, k = key()) => office.operador.call('POST', `/api/cobrancas/${id}/email`, undefined, k)

    let res = await send(c.id)
    assert.deepEqual([res.statusCode, res.json()], [409, { detail: 'cobranca_nao_registrada', estado: 'a_registrar' }], 'not before the bank holds it')
    assert.ok((await registerDue(talk(), clock.now())).registradas >= 1)
    const sacadoId = op.titulos[1].sacado_id
    res = await send(c.id)
    assert.deepEqual([res.statusCode, res.json()], [409, { detail: 'sacado_sem_email', sacado_id: sacadoId }])
    created(await office.operador.call('PATCH', `/api/sacados/${sacadoId}`, { email: 'contas@sacado.example' }), 200)

    const k = key()
    const sent = created(await send(c.id, k), 202)
    assert.equal(sent.para, 'contas@sacado.example')
    assert.deepEqual(created(await send(c.id, k), 202), sent, 'a retry with the key answers the first and sends nothing again')
    const [mail] = await smtp.waitFor(1)
    const m = mail!.parsed
    const read = created(await office.aprovador.call('GET', `/api/cobrancas/${c.id}`), 200)
    assert.deepEqual(mail!.envelopeTo, ['contas@sacado.example'])
    // Outside production (AMBIENTE unset here) the notice says no bank registered it, in its subject, its text and its PDF.
    assert.equal(m.subject, '[SANDBOX] Boleto do título nº T2: R$ 25.000,00, vencimento em 20/11/2026')
    assert.ok(m.text?.startsWith('AMBIENTE DE TESTES (SANDBOX): nenhum banco registrou este boleto. Não o pague.'))
    for (const part of ['cedeu à', 'pague-o somente à', 'Código Civil, art. 290', 'Cedente Exemplo Ltda', 'T2', 'R$ 25.000,00', '20/11/2026',
      read.linha_digitavel, read.pix_copia_e_cola]) {
      assert.ok(m.text?.includes(part), `the text has ${part}`)
      assert.ok(String(m.html).includes(part.replaceAll('&', '&amp;')), `the HTML has ${part}`)
    }
    assert.equal(m.attachments.length, 1)
    const [pdf] = m.attachments
    assert.deepEqual([pdf!.filename, pdf!.contentType], [`boleto-cobranca-${c.numero}.pdf`, 'application/pdf'])
    const text = (await pdfText(pdf!.content)).join('\n')
    assert.ok(text.includes(read.linha_digitavel), 'the PDF prints the linha digitável')
    assert.ok(text.includes('25.000,00'))
    assert.ok(text.includes('AMBIENTE DE TESTES (SANDBOX)'), 'the PDF says it too')

    // Sent, the message's content (its attachment too) is erased; the audit names the charge.
    const rowOf = async () => (await ctx.db.orm.select().from(outbox).where(eq(outbox.protocolo, sent.protocolo)))[0]
    await until('the message is sent', async () => (await rowOf())?.estado === 'enviado')
    const row = await rowOf()
    assert.deepEqual([row!.texto, row!.anexos, row!.clienteId], [null, null, office.clienteId])
    const audit = (await auditRows(ctx.db, office.clienteId)).filter((r) => r.acao === 'cobranca.boleto_enviado')
    assert.deepEqual(audit.map((r) => r.alvo_id), [c.id])
    await new Promise((r) => setTimeout(r, 200))
    assert.equal(smtp.received.length, 1, 'once')
    // Asked again with another key within the hour: refused, and nothing sent (red team: thirty in seconds reached the sacado).
    res = await send(c.id)
    assert.deepEqual([res.statusCode, res.json().detail], [409, 'boleto_enviado_recentemente'])
    assert.equal(new Date(res.json().proximo_envio_em).getTime() - new Date(res.json().enviado_em).getTime(), 3_600_000)
    // An hour later it goes again, once, however many ask at the same moment (red team: four of twelve went).
    clock.set(new Date(clock.now().getTime() + 3_601_000).toISOString())
    const together = await Promise.all([send(c.id), send(c.id), send(c.id), send(c.id)])
    assert.deepEqual(together.map((r) => r.statusCode).sort(), [202, 409, 409, 409])
    await smtp.waitFor(2)

    // A baixa asked, or the título bought back: no longer the customer's to collect, so no notice names it the payee.
    const c0 = created(await charge(0))
    assert.ok((await registerDue(talk(), clock.now())).registradas >= 1)
    const baixa = created(await office.operador.call('POST', `/api/cobrancas/${c0.id}/instrucoes`, { instrucao: 'baixa' }, key()))
    res = await send(c0.id)
    assert.deepEqual([res.statusCode, res.json()], [409, { detail: 'baixa_ja_pedida', id: baixa.id }])
    created(await office.operador.call('POST', '/api/recompras', { titulo_ids: [op.titulos[1].id], motivo: 'vicio_de_origem',
      descricao: 'Mercadoria devolvida', forma: 'pagamento' }, key()))
    res = await send(c.id)
    assert.deepEqual([res.statusCode, res.json()], [409, { detail: 'titulo_nao_adquirido', estado: 'recomprado' }])
    assert.equal(smtp.received.length, 2, 'nothing more sent')

    const other = await backOffice(ctx.db, ctx.app, clock)
    res = await other.operador.call('POST', `/api/cobrancas/${c.id}/email`, undefined, key())
    assert.deepEqual([res.statusCode, res.json()], [404, { detail: 'nao_encontrado' }])
    res = await send('nada')
    assert.deepEqual([res.statusCode, res.json()], [404, { detail: 'nao_encontrado' }])
  })
})

// The formalization form carries the signed term's file (issue 32 item 4), without JavaScript: posted as
// multipart/form-data, the service computes its SHA-256, records it as the operation's termo_sha256 and keeps the
// file, which the operation's page then links for download (the same bytes); a file over TERMO_MAX_BYTES is refused
// on the page, in words, with nothing kept; the borderô's PDF is linked from the page and opens with the session.
import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { describe, it } from 'node:test'
import { colleagueWithPassword, personWithPassword, SITE_ORIGIN } from '../../helpers/account-web.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { isPdf, pdfText } from '../../helpers/pdf-text.ts'
import { callerFor, created, EXAMPLE_NOW, exampleRegisters, exampleTitles, key, settableClock } from '../operations/helpers.ts'
import { hiddenFields, postMultipart, refusalsOn, signIn } from './steps.ts'

const MAX = 8192

describe('the signed term uploaded at formalization, without JavaScript', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off', TERMO_MAX_BYTES: String(MAX) }, deps: { clock } })

  async function accepted() {
    const admin = await personWithPassword(ctx.db)
    const operador = await colleagueWithPassword(ctx.db, admin.clienteId, 'operador')
    const call = await callerFor(ctx.db, ctx.app, admin.clienteId, operador.usuarioId, clock)
    const regs = await exampleRegisters(call)
    const op = created(await call('POST', '/api/operacoes', {
      cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-05',
      titulos: exampleTitles(regs.sacados.map((s: { id: string }) => s.id)),
    }))
    created(await call('POST', `/api/operacoes/${op.id}/cotacao`))
    created(await call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key()), 200)
    return { op, browser: await signIn(ctx.app, operador.email), call }
  }
  const signed = { assinado_em: '2026-10-05T11:30', signatario_nome: 'Maria Conceição', signatario_documento: '529.982.247-25' }

  it('the file posted gives the SHA-256 computed here, is recorded and kept, and downloads byte for byte', async () => {
    const { op, browser, call } = await accepted()
    const path = `/conta/operacoes/${op.id}`
    let page = await browser.get(path)
    assert.match(page.body, /<form method="post" action="[^"]+\/formalizacao" id="form-formalizacao" enctype="multipart\/form-data">/)
    assert.match(page.body, /<input id="campo-termo_arquivo" name="termo_arquivo" type="file"/)

    // The borderô to sign, from the page's link, with the session alone.
    const link = /<a href="([^"]+)" id="bordero-pdf"/.exec(page.body)![1]!
    const pdf = await ctx.app.inject({ url: link, headers: { cookie: browser.cookie } })
    assert.equal(pdf.statusCode, 200)
    assert.ok(isPdf(pdf.rawPayload))
    assert.ok((await pdfText(pdf.rawPayload)).join(' ').includes('R$ 46.370,53'))

    const file = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(3000)])
    const sha = createHash('sha256').update(file).digest('hex')
    const form = hiddenFields(page.body, 'form-formalizacao')
    const res = await postMultipart(ctx.app, form.action, browser.cookie, { ...form.fields, ...signed },
      { name: 'termo_arquivo', filename: 'C:\\Documentos\\termo assinado.pdf', type: 'application/pdf', bytes: file })
    assert.equal(res.statusCode, 303, refusalsOn(res.body))
    page = await browser.get(res.headers.location as string)
    assert.match(page.body, /<dd id="estado">formalizada<\/dd>/)
    assert.match(page.body, new RegExp(`<code id="termo-sha256">${sha}</code>`))
    assert.match(page.body, /termo assinado\.pdf<\/a> \(3 KB, enviado em 05\/10\/2026, 12:00:00\)/)
    assert.equal(created(await call('GET', `/api/operacoes/${op.id}`), 200).formalizacao.termo_sha256, sha)

    const href = /<a href="([^"]+)" id="termo-download"/.exec(page.body)![1]!
    const down = await ctx.app.inject({ url: href, headers: { cookie: browser.cookie } })
    assert.equal(down.statusCode, 200)
    assert.ok(down.rawPayload.equals(file))
  })

  it('a file over TERMO_MAX_BYTES is refused on the page, in words, and nothing is kept; neither file nor hash is refused at its field', async () => {
    const { op, browser, call } = await accepted()
    const path = `/conta/operacoes/${op.id}`
    const page = await browser.get(path)
    const form = hiddenFields(page.body, 'form-formalizacao')
    const big = await postMultipart(ctx.app, form.action, browser.cookie, { ...form.fields, ...signed },
      { name: 'termo_arquivo', filename: 'termo.pdf', type: 'application/pdf', bytes: Buffer.alloc(MAX + 1, 7) })
    assert.equal(big.statusCode, 413)
    assert.match(refusalsOn(big.body), /O arquivo passa do tamanho aceito/)
    // What was typed stays in the form.
    assert.match(big.body, /name="signatario_nome" type="text"[^>]* value="Maria Conceição"/)
    const after = created(await call('GET', `/api/operacoes/${op.id}`), 200)
    assert.deepEqual([after.estado, after.termo], ['aceita', null])

    const none = await browser.submit(path, 'form-formalizacao', signed)
    assert.equal(none.statusCode, 422)
    assert.match(refusalsOn(none.body), /erro-termo_sha256: envie o arquivo do termo assinado ou digite o SHA-256 dele/)
  })

  it('a file is not read for another site, without a session, or before the form\'s token: answered with its bytes unsent', { timeout: 30_000 }, async () => {
    const { op, browser } = await accepted()
    const url = `/conta/operacoes/${op.id}/formalizacao`
    const { fields } = hiddenFields((await browser.get(`/conta/operacoes/${op.id}`)).body, 'form-formalizacao')
    const boundary = 'fronteira-sem-fim'
    /** A multipart post whose file part starts and never ends: an answer proves the server did not wait for the file. */
    const endless = (csrf: string | undefined, headers: Record<string, string>) => {
      const start = [...(csrf ? [`--${boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n${csrf}\r\n`] : []),
        `--${boundary}\r\nContent-Disposition: form-data; name="termo_arquivo"; filename="t.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        'x'.repeat(1024)].join('')
      const body = new Readable({ read() {} })
      body.push(start)
      return ctx.app.inject({
        method: 'POST', url, payload: body,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(9 * 1024 * 1024), accept: 'text/html', ...headers },
      }).finally(() => body.destroy())
    }
    const foreign = await endless(fields.csrf, { origin: 'https://evil.example', cookie: browser.cookie })
    assert.equal(foreign.statusCode, 403)
    const anonymous = await endless(undefined, { origin: SITE_ORIGIN })
    assert.equal(anonymous.statusCode, 303)
    assert.match(String(anonymous.headers.location), /\/conta\/entrar/)
    const forged = await endless('nao-e-o-token', { origin: SITE_ORIGIN, cookie: browser.cookie })
    assert.equal(forged.statusCode, 403)
    const tokenless = await endless(undefined, { origin: SITE_ORIGIN, cookie: browser.cookie })
    assert.equal(tokenless.statusCode, 403)
  })
})

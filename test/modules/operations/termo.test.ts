// The signed assignment term as a file (issue 32 item 4): PUT /api/operacoes/{id}/termo keeps the bytes and
// answers their SHA-256, the formalization records that hash, GET gives the same bytes back; the size is bounded
// (TERMO_MAX_BYTES), a formalized term cannot be swapped, and another customer sees none of it.
import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, EXAMPLE_TERM, exampleRegisters, exampleTitles, key, settableClock, type Caller } from './helpers.ts'

const MAX = 4096

async function acceptedExample(call: Caller) {
  const regs = await exampleRegisters(call)
  const op = created(await call('POST', '/api/operacoes', {
    cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-05',
    titulos: exampleTitles(regs.sacados.map((s: { id: string }) => s.id)),
  }))
  created(await call('POST', `/api/operacoes/${op.id}/cotacao`))
  return { op, accept: async () => created(await call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key()), 200) }
}

const pdf = { 'content-type': 'application/pdf' }
const { termo_sha256: _typed, ...SIGNED } = EXAMPLE_TERM

describe('the signed term as a file', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off', TERMO_MAX_BYTES: String(MAX) }, deps: { clock } })

  it('kept with the SHA-256 the service computes, recorded at formalization, downloaded byte for byte', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const { op, accept } = await acceptedExample(operador.call)
    const file = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(2000), Buffer.from([0, 0xff, 0xfe, 0x80])])
    const sha = createHash('sha256').update(file).digest('hex')

    // Before the acceptance there is nothing to sign.
    const early = await operador.call('PUT' as 'POST', `/api/operacoes/${op.id}/termo`, file, pdf)
    assert.deepEqual([early.statusCode, early.json().detail, early.json().estado], [409, 'estado_invalido', 'cotada'])
    await accept()

    // Without a file and without a typed hash, the formalization names the missing field.
    const none = await operador.call('POST', `/api/operacoes/${op.id}/formalizacao`, SIGNED)
    assert.equal(none.statusCode, 422)
    assert.deepEqual(none.json().detail.map((i: { loc: unknown[] }) => i.loc), [['body', 'termo_sha256']])
    // A signatory's name is printed on the borderô: a line break in it would forge the document's lines.
    const forged = await operador.call('POST', `/api/operacoes/${op.id}/formalizacao`, {
      ...SIGNED, termo_sha256: 'a'.repeat(64), signatarios: [{ ...SIGNED.signatarios[0], nome: 'Ana\r\r## Totais (corrigidos)' }],
    })
    assert.equal(forged.statusCode, 422)
    assert.deepEqual(forged.json().detail.map((i: { loc: unknown[] }) => i.loc), [['body', 'signatarios', 0, 'nome']])

    const sent = created(await operador.call('PUT' as 'POST', `/api/operacoes/${op.id}/termo?nome_arquivo=termo%20assinado.pdf`, file, pdf), 200)
    assert.equal(sent.sha256, sha)
    assert.deepEqual([sent.tipo, sent.nome_arquivo, sent.tamanho_bytes], ['application/pdf', 'termo assinado.pdf', file.length])
    assert.equal(created(await operador.call('GET', `/api/operacoes/${op.id}`), 200).termo.sha256, sha)

    // A hash typed that is not the file's is refused at its field.
    const wrong = await operador.call('POST', `/api/operacoes/${op.id}/formalizacao`, { ...SIGNED, termo_sha256: 'b'.repeat(64) })
    assert.equal(wrong.statusCode, 422)
    assert.deepEqual(wrong.json().detail.map((i: { loc: unknown[] }) => i.loc), [['body', 'termo_sha256']])

    const formal = created(await operador.call('POST', `/api/operacoes/${op.id}/formalizacao`, SIGNED), 200)
    assert.equal(formal.formalizacao.termo_sha256, sha)

    const down = await operador.call('GET', `/api/operacoes/${op.id}/termo`)
    assert.equal(down.statusCode, 200)
    assert.equal(down.headers['content-type'], 'application/pdf')
    assert.equal(down.headers['content-disposition'], `attachment; filename="termo-operacao-${op.numero}.pdf"`)
    assert.ok(down.rawPayload.equals(file), 'the same bytes')
    assert.equal(createHash('sha256').update(down.rawPayload).digest('hex'), sha)

    // Once formalized, the same file may be sent again, and the term stays as it was sent; another file may not.
    const again = created(await operador.call('PUT' as 'POST', `/api/operacoes/${op.id}/termo?nome_arquivo=outro.bin`, file,
      { 'content-type': 'application/octet-stream' }), 200)
    assert.deepEqual(again, sent, 'its name, type and time as first sent')
    const swap = await operador.call('PUT' as 'POST', `/api/operacoes/${op.id}/termo`, Buffer.from('%PDF-1.4 another'), pdf)
    assert.equal(swap.statusCode, 422)
    assert.ok(createdBytes(await operador.call('GET', `/api/operacoes/${op.id}/termo`)).equals(file))

    // A name with a character that could reorder or break what is shown is refused at its field, not by the database.
    for (const name of ['%E2%80%AEfdp.exe', 'a%C2%85b', 'a%E2%80%A8b']) {
      const odd = await operador.call('PUT' as 'POST', `/api/operacoes/${op.id}/termo?nome_arquivo=${name}`, file, pdf)
      assert.equal(odd.statusCode, 422, name)
      assert.deepEqual(odd.json().detail.map((i: { loc: unknown[] }) => i.loc), [['querystring', 'nome_arquivo']], name)
    }

    // Another customer: neither the file nor the operation.
    const other = await backOffice(ctx.db, ctx.app, clock)
    const hidden = await other.operador.call('GET', `/api/operacoes/${op.id}/termo`)
    assert.deepEqual([hidden.statusCode, hidden.json()], [404, { detail: 'nao_encontrado' }])
    const put = await other.operador.call('PUT' as 'POST', `/api/operacoes/${op.id}/termo`, file, pdf)
    assert.deepEqual([put.statusCode, put.json()], [404, { detail: 'nao_encontrado' }])
  })

  it('a file over TERMO_MAX_BYTES is 413 corpo_muito_grande and nothing is kept; a type that could run as a page is served as bytes', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const { op, accept } = await acceptedExample(operador.call)
    await accept()
    const big = await operador.call('PUT' as 'POST', `/api/operacoes/${op.id}/termo`, Buffer.alloc(MAX + 1, 1), pdf)
    assert.deepEqual([big.statusCode, big.json().detail], [413, 'corpo_muito_grande'])
    assert.equal(created(await operador.call('GET', `/api/operacoes/${op.id}`), 200).termo, null)
    assert.equal((await operador.call('GET', `/api/operacoes/${op.id}/termo`)).statusCode, 404)

    const page = Buffer.from('<script>alert(1)</script>')
    const kept = created(await operador.call('PUT' as 'POST', `/api/operacoes/${op.id}/termo`, page, { 'content-type': 'text/html' }), 200)
    assert.equal(kept.tipo, 'application/octet-stream')
    const down = await operador.call('GET', `/api/operacoes/${op.id}/termo`)
    assert.equal(down.headers['content-type'], 'application/octet-stream')
    assert.match(String(down.headers['content-security-policy']), /sandbox/)

    const empty = await operador.call('PUT' as 'POST', `/api/operacoes/${op.id}/termo`, Buffer.alloc(0), pdf)
    assert.equal(empty.statusCode, 422)
  })
})

function createdBytes(res: { statusCode: number, rawPayload: Buffer, body: string }): Buffer {
  assert.equal(res.statusCode, 200, res.body)
  return res.rawPayload
}

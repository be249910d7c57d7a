// /api/contas-cobranca (issue 33): a customer's collection accounts, each bank's needs checked by its rules
// (REGRAS[banco].conferir(), a 422 item at the field), a duplicate named by its id, the sequences only going up (the
// API and the database), a second person's confirmation (taken away when where the money goes changes), another
// customer's account not found (and not seen by row security), every change audited.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { mod10 } from '../../../../src/modules/collections/boleto/modulos.ts'
import { auditRows, dbError, rowsAs } from '../../../helpers/credentials.ts'
import { useTestApp } from '../../../helpers/fixture.ts'
import { backOffice, created, key, person } from '../../operations/helpers.ts'

const ITAU = {
  nome: 'Itaú cobrança 109', banco: '341', agencia: '1234', conta: '56789', conta_digito: String(mod10('123456789')), carteira: '109',
  layout_cnab: '400', chave_pix: '11222333000181',
}
const BB = { nome: 'BB cobrança', banco: '001', agencia: '3064', conta: '123456', conta_digito: 'X', carteira: '17', convenio: '1234567' }
const SANTANDER = { nome: 'Santander', banco: '033', agencia: '4321', conta: '13000123', conta_digito: '4', carteira: '101', convenio: '7654321' }

type Item = { type: string, loc: (string | number)[], msg: string }
const itemsOf = (res: { statusCode: number, body: string, json(): { detail: Item[] } }) => {
  assert.equal(res.statusCode, 422, res.body)
  return res.json().detail.map((i) => [i.type, i.loc.join('.')])
}

describe('/api/contas-cobranca', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' } })

  it('an operador adds an account, an aprovador confirms it; both audited, and read back by list and by id', async () => {
    const { clienteId, operador, aprovador } = await backOffice(ctx.db, ctx.app)
    const made = created(await operador.call('POST', '/api/contas-cobranca', ITAU, key()))
    assert.deepEqual({ ...made, id: undefined, incluida_em: undefined, atualizada_em: undefined }, {
      ...ITAU, id: undefined, id_externo: null, banco_nome: 'Itaú Unibanco', agencia_digito: null, convenio: null, transporte: 'cnab',
      proximo_nosso_numero: 1, proxima_remessa: 1, ativa: true, confirmada: false, incluida_em: undefined, incluida_por_usuario_id: operador.usuarioId,
      incluida_por: 'Pessoa de Teste', confirmada_em: null, confirmada_por_usuario_id: null, confirmada_por: null, atualizada_em: undefined,
    })
    assert.deepEqual(created(await aprovador.call('GET', `/api/contas-cobranca/${made.id}`), 200), made)
    const listed = created(await aprovador.call('GET', '/api/contas-cobranca?banco=341&ativa=true'), 200)
    assert.deepEqual(listed, { itens: [made], proximo: null })
    assert.deepEqual(created(await aprovador.call('GET', '/api/contas-cobranca?banco=001'), 200).itens, [])

    const confirmed = created(await aprovador.call('POST', `/api/contas-cobranca/${made.id}/confirmacao`, undefined, key()), 200)
    assert.deepEqual([confirmed.confirmada, confirmed.confirmada_por_usuario_id, confirmed.confirmada_por], [true, aprovador.usuarioId, 'Pessoa de Teste'])
    assert.ok(confirmed.confirmada_em)
    // Confirmed already: answered as it is, nothing written again.
    assert.deepEqual(created(await aprovador.call('POST', `/api/contas-cobranca/${made.id}/confirmacao`, undefined, key()), 200), confirmed)

    const audit = (await auditRows(ctx.db, clienteId)).filter((r) => String(r.acao).startsWith('conta_cobranca.'))
    assert.deepEqual(audit.map((r) => [r.acao, r.alvo_id]), [['conta_cobranca.criada', made.id], ['conta_cobranca.confirmada', made.id]])
    const [row] = await rowsAs<{ confirmada_por_usuario_id: string, proximo_nosso_numero: string }>(ctx.db, clienteId,
      `SELECT confirmada_por_usuario_id, proximo_nosso_numero FROM contas_cobranca WHERE id = '${made.id}'`)
    assert.equal(row!.confirmada_por_usuario_id, aprovador.usuarioId)
    // The audit trail names the account.
    const trail = created(await aprovador.call('GET', `/api/conta/auditoria?alvo_id=${made.id}`), 200).itens as { alvo_nome: string }[]
    assert.deepEqual(trail.map((e) => e.alvo_nome), ['Conta de cobrança: Itaú cobrança 109', 'Conta de cobrança: Itaú cobrança 109'])
  })

  it('an Idempotency-Key replays the first answer and adds one account', async () => {
    const { clienteId, operador } = await backOffice(ctx.db, ctx.app)
    const k = key()
    const first = await operador.call('POST', '/api/contas-cobranca', BB, k)
    const again = await operador.call('POST', '/api/contas-cobranca', BB, k)
    assert.equal(first.statusCode, 201, first.body)
    assert.deepEqual([again.statusCode, again.body, again.headers['idempotent-replayed']], [201, first.body, 'true'])
    assert.equal((await rowsAs(ctx.db, clienteId, 'SELECT id FROM contas_cobranca')).length, 1)
  })

  it('each bank\'s rule alone is a 422 item at its field: Itaú\'s account check digit, BB\'s convênio, CNAB 400 at Santander', async () => {
    const { clienteId, operador } = await backOffice(ctx.db, ctx.app)
    const wrongDigit = String((Number(ITAU.conta_digito) + 1) % 10)
    assert.deepEqual(itemsOf(await operador.call('POST', '/api/contas-cobranca', { ...ITAU, conta_digito: wrongDigit })),
      [['value_error', 'body.conta_digito']])
    // Itaú's special carteiras carry another campo livre, which the platform does not emit: refused, not charged wrongly.
    const special = await operador.call('POST', '/api/contas-cobranca', { ...ITAU, carteira: '198' })
    assert.deepEqual(itemsOf(special), [['value_error', 'body.carteira']])
    assert.match(special.json().detail[0].msg, /carteiras especiais do Itaú/)
    const { convenio: _c, ...noConvenio } = BB
    const missing = await operador.call('POST', '/api/contas-cobranca', noConvenio)
    assert.deepEqual(itemsOf(missing), [['missing', 'body.convenio']])
    assert.match(missing.json().detail[0].msg, /convênio do Banco do Brasil tem 7 dígitos/)
    assert.deepEqual(itemsOf(await operador.call('POST', '/api/contas-cobranca', { ...BB, convenio: '123456' })), [['value_error', 'body.convenio']])
    assert.deepEqual(itemsOf(await operador.call('POST', '/api/contas-cobranca', { ...SANTANDER, layout_cnab: '400' })), [['value_error', 'body.layout_cnab']])
    assert.deepEqual(itemsOf(await operador.call('POST', '/api/contas-cobranca', { ...ITAU, proximo_nosso_numero: 100_000_000 })),
      [['less_than_equal', 'body.proximo_nosso_numero']])
    assert.deepEqual(itemsOf(await operador.call('POST', '/api/contas-cobranca', { ...ITAU, nome: 'Itaú\u202e' })), [['value_error', 'body.nome']])
    assert.deepEqual((await rowsAs(ctx.db, clienteId, 'SELECT id FROM contas_cobranca')), [], 'nothing stored')
    // The database refuses CNAB 400 at Santander by itself.
    await assert.rejects(rowsAs(ctx.db, clienteId, `INSERT INTO contas_cobranca (cliente_id, nome, banco, agencia, conta, conta_digito, carteira,
      layout_cnab, incluida_por_usuario_id) VALUES ('${clienteId}', 'x y', '033', '1234', '1', '1', '101', '400', gen_random_uuid())`),
    dbError('23514', /contas_cobranca_layout_cnab/))
  })

  it('the same account twice is 409 conta_cobranca_existente with its id; another carteira is another account', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app)
    const first = created(await operador.call('POST', '/api/contas-cobranca', SANTANDER))
    const again = await operador.call('POST', '/api/contas-cobranca', { ...SANTANDER, nome: 'Outro nome' })
    assert.deepEqual([again.statusCode, again.json()], [409, { detail: 'conta_cobranca_existente', id: first.id }])
    created(await operador.call('POST', '/api/contas-cobranca', { ...SANTANDER, carteira: '102' }))
  })

  it('the sequences only go up: a lower value is a 422 item at its field, and the database refuses it too', async () => {
    const { clienteId, operador } = await backOffice(ctx.db, ctx.app)
    const made = created(await operador.call('POST', '/api/contas-cobranca', { ...ITAU, proximo_nosso_numero: 500, proxima_remessa: 10 }))
    const up = created(await operador.call('PATCH' as 'POST', `/api/contas-cobranca/${made.id}`, { proximo_nosso_numero: 600, proxima_remessa: 10 }), 200)
    assert.deepEqual([up.proximo_nosso_numero, up.proxima_remessa], [600, 10])
    const down = await operador.call('PATCH' as 'POST', `/api/contas-cobranca/${made.id}`, { proximo_nosso_numero: 599 })
    assert.deepEqual(itemsOf(down), [['value_error', 'body.proximo_nosso_numero']])
    assert.match(down.json().detail[0].msg, /só pode aumentar/)
    assert.deepEqual(itemsOf(await operador.call('PATCH' as 'POST', `/api/contas-cobranca/${made.id}`, { proxima_remessa: 9 })),
      [['value_error', 'body.proxima_remessa']])
    await assert.rejects(rowsAs(ctx.db, clienteId, `UPDATE contas_cobranca SET proximo_nosso_numero = 1 WHERE id = '${made.id}'`),
      dbError('23514', /only go up/))
    await assert.rejects(rowsAs(ctx.db, clienteId, `UPDATE contas_cobranca SET proxima_remessa = 1 WHERE id = '${made.id}'`),
      dbError('23514', /only go up/))
    // The bank, agência, conta and carteira never change: not in the body, and not granted to the service.
    assert.deepEqual(itemsOf(await operador.call('PATCH' as 'POST', `/api/contas-cobranca/${made.id}`, { conta: '11111' })),
      [['extra_forbidden', 'body.conta']])
    await assert.rejects(rowsAs(ctx.db, clienteId, `UPDATE contas_cobranca SET conta = '11111' WHERE id = '${made.id}'`), dbError('42501', /permission/))
    const read = created(await operador.call('GET', `/api/contas-cobranca/${made.id}`), 200)
    assert.deepEqual([read.proximo_nosso_numero, read.proxima_remessa, read.conta], [600, 10, ITAU.conta])
  })

  it('a confirmed account whose convênio changes waits for a second person again; a new name keeps the confirmation', async () => {
    const { clienteId, operador, aprovador } = await backOffice(ctx.db, ctx.app)
    const made = created(await operador.call('POST', '/api/contas-cobranca', BB))
    created(await aprovador.call('POST', `/api/contas-cobranca/${made.id}/confirmacao`, undefined, key()), 200)
    const renamed = created(await operador.call('PATCH' as 'POST', `/api/contas-cobranca/${made.id}`, { nome: 'BB principal', ativa: false }), 200)
    assert.deepEqual([renamed.confirmada, renamed.ativa], [true, false])
    assert.deepEqual(itemsOf(await operador.call('PATCH' as 'POST', `/api/contas-cobranca/${made.id}`, { convenio: null })), [['missing', 'body.convenio']])
    const moved = created(await operador.call('PATCH' as 'POST', `/api/contas-cobranca/${made.id}`, { convenio: '7654321' }), 200)
    assert.deepEqual([moved.convenio, moved.confirmada, moved.confirmada_em, moved.confirmada_por_usuario_id], ['7654321', false, null, null])
    const [change] = (await auditRows(ctx.db, clienteId)).filter((r) => r.acao === 'conta_cobranca.alterada').slice(-1) as { alteracoes: Record<string,
      { antes: unknown, depois: unknown }> }[]
    assert.deepEqual(change!.alteracoes.convenio, { antes: '1234567', depois: '7654321' })
    assert.deepEqual(change!.alteracoes.confirmada, { antes: true, depois: false })
    // Confirmed again by the second person; the database refuses a change of the money's route that keeps the confirmation.
    created(await aprovador.call('POST', `/api/contas-cobranca/${made.id}/confirmacao`, undefined, key()), 200)
    await assert.rejects(rowsAs(ctx.db, clienteId, `UPDATE contas_cobranca SET chave_pix = 'x@y.com.br' WHERE id = '${made.id}'`),
      dbError('23514', /confirmed again/))
    const pix = created(await operador.call('PATCH' as 'POST', `/api/contas-cobranca/${made.id}`, { chave_pix: 'cobranca@empresa.com.br' }), 200)
    assert.equal(pix.confirmada, false)
  })

  it('the person who added it cannot confirm it (403), nor can a token with no person add or confirm one', async () => {
    const { clienteId, admin, operador, integration } = await backOffice(ctx.db, ctx.app)
    const own = created(await admin.call('POST', '/api/contas-cobranca', ITAU))
    const refused = await admin.call('POST', `/api/contas-cobranca/${own.id}/confirmacao`, undefined, key())
    assert.deepEqual([refused.statusCode, refused.json()], [403, { detail: 'aprovacao_pelo_mesmo_usuario' }])
    // An operador reads the approvals' area only.
    assert.deepEqual((await operador.call('POST', `/api/contas-cobranca/${own.id}/confirmacao`)).json(), { detail: 'papel_insuficiente' })
    const byToken = await integration('POST', `/api/contas-cobranca/${own.id}/confirmacao`)
    assert.deepEqual([byToken.statusCode, byToken.json()], [403, { detail: 'aprovacao_pelo_mesmo_usuario' }])
    const added = await integration('POST', '/api/contas-cobranca', BB)
    assert.deepEqual([added.statusCode, added.json()], [403, { detail: 'aprovacao_pelo_mesmo_usuario' }])
    assert.equal(created(await admin.call('GET', `/api/contas-cobranca/${own.id}`), 200).confirmada, false)
    // The database holds the two persons apart by itself.
    await assert.rejects(rowsAs(ctx.db, clienteId, `UPDATE contas_cobranca SET confirmada_em = now(), confirmada_por_usuario_id = incluida_por_usuario_id
      WHERE id = '${own.id}'`), dbError('23514', /contas_cobranca_segunda_pessoa/))
  })

  it('another customer\'s account is not found on every route, and row security hides it from a direct read', async () => {
    const a = await backOffice(ctx.db, ctx.app)
    const b = await backOffice(ctx.db, ctx.app)
    const made = created(await a.operador.call('POST', '/api/contas-cobranca', ITAU))
    for (const [call, method, url, body] of [
      [b.admin.call, 'GET', `/api/contas-cobranca/${made.id}`, undefined], [b.admin.call, 'PATCH', `/api/contas-cobranca/${made.id}`, { nome: 'Minha' }],
      [b.aprovador.call, 'POST', `/api/contas-cobranca/${made.id}/confirmacao`, undefined], [b.admin.call, 'GET', '/api/contas-cobranca/x', undefined],
    ] as const) {
      const res = await call(method as 'POST', url, body, key())
      assert.deepEqual([res.statusCode, res.json()], [404, { detail: 'nao_encontrado' }], `${method} ${url}`)
    }
    assert.deepEqual(created(await b.admin.call('GET', '/api/contas-cobranca'), 200).itens, [])
    assert.deepEqual(await rowsAs(ctx.db, b.clienteId, `SELECT id FROM contas_cobranca WHERE id = '${made.id}'`), [])
    assert.equal((await rowsAs(ctx.db, a.clienteId, `SELECT id FROM contas_cobranca WHERE id = '${made.id}'`)).length, 1)
    // The same account by CNAB files at another customer is that customer's own (its own channel to the bank carries them).
    created(await b.operador.call('POST', '/api/contas-cobranca', ITAU))
    assert.equal(created(await a.admin.call('GET', `/api/contas-cobranca/${made.id}`), 200).nome, ITAU.nome)
  })

  it('an account one customer reaches the bank for by API is no other customer\'s (red team): added, or turned to the API', async () => {
    const a = await backOffice(ctx.db, ctx.app)
    const b = await backOffice(ctx.db, ctx.app)
    const c = await backOffice(ctx.db, ctx.app)
    const bradesco = { nome: 'Bradesco API', banco: '237', agencia: '4321', conta: '198765', conta_digito: '0', carteira: '09', transporte: 'api' }
    created(await b.operador.call('POST', '/api/contas-cobranca', bradesco))
    const refused = (res: { statusCode: number, json(): unknown }) =>
      assert.deepEqual([res.statusCode, res.json()], [409, { detail: 'conta_cobranca_de_outro_cliente' }])
    // Another carteira, leading zeros, or CNAB files: the same bank account.
    refused(await a.operador.call('POST', '/api/contas-cobranca', { ...bradesco, nome: 'Clone' }))
    refused(await a.operador.call('POST', '/api/contas-cobranca', { ...bradesco, carteira: '06', conta: '0198765' }))
    refused(await a.operador.call('POST', '/api/contas-cobranca', { ...bradesco, transporte: 'cnab' }))
    assert.deepEqual(await rowsAs(ctx.db, a.clienteId, 'SELECT id FROM contas_cobranca'), [])
    // At Banco do Brasil, Santander and Caixa the beneficiary is the convênio too: another agência and conta with B's
    // convênio would print B's barcodes (red team).
    created(await b.operador.call('POST', '/api/contas-cobranca', { ...BB, agencia: '2000', convenio: '1400000', transporte: 'api' }))
    refused(await a.operador.call('POST', '/api/contas-cobranca', { ...BB, agencia: '2001', conta: '999999', conta_digito: '1', convenio: '1400000',
      transporte: 'api' }))
    const bbA = created(await a.operador.call('POST', '/api/contas-cobranca', { ...BB, agencia: '2001', conta: '999999', conta_digito: '1',
      convenio: '1400001' }))
    refused(await a.operador.call('PATCH' as 'POST', `/api/contas-cobranca/${bbA.id}`, { convenio: '1400000' }))
    // The same customer adds its own account again under another carteira.
    created(await b.operador.call('POST', '/api/contas-cobranca', { ...bradesco, carteira: '06' }))
    // Two by CNAB files may share it; neither turns it to the API while the other holds it.
    const itauA = created(await a.operador.call('POST', '/api/contas-cobranca', ITAU))
    created(await c.operador.call('POST', '/api/contas-cobranca', ITAU))
    refused(await a.operador.call('PATCH' as 'POST', `/api/contas-cobranca/${itauA.id}`, { transporte: 'api' }))
    assert.equal(created(await a.admin.call('GET', `/api/contas-cobranca/${itauA.id}`), 200).transporte, 'cnab')
    // The database refuses it by itself, whatever the service asks.
    await assert.rejects(rowsAs(ctx.db, a.clienteId, `INSERT INTO contas_cobranca (cliente_id, nome, banco, agencia, conta, conta_digito, carteira,
        layout_cnab, transporte, incluida_por_usuario_id)
      SELECT cliente_id, 'x', '237', '4321', '198765', '0', '02', '240', 'cnab', incluida_por_usuario_id
        FROM contas_cobranca WHERE id = '${itauA.id}'`), dbError('23505', /another customer/))
  })

  it('who changed where an account\'s money goes does not confirm that change (red team); a token with no person does not make it', async () => {
    const { clienteId, admin, operador, aprovador, integration } = await backOffice(ctx.db, ctx.app)
    const made = created(await operador.call('POST', '/api/contas-cobranca', BB))
    created(await aprovador.call('POST', `/api/contas-cobranca/${made.id}/confirmacao`, undefined, key()), 200)
    // The administrador, who did not add it, changes the PIX key and may not confirm the change alone.
    const moved = created(await admin.call('PATCH' as 'POST', `/api/contas-cobranca/${made.id}`, { chave_pix: 'atacante@exemplo.com.br' }), 200)
    assert.equal(moved.confirmada, false)
    const alone = await admin.call('POST', `/api/contas-cobranca/${made.id}/confirmacao`, undefined, key())
    assert.deepEqual([alone.statusCode, alone.json()], [403, { detail: 'aprovacao_pelo_mesmo_usuario' }])
    // Before any confirmation as well: a change of the pending version moves the confirmation to another person.
    const fresh = created(await operador.call('POST', '/api/contas-cobranca', SANTANDER))
    created(await admin.call('PATCH' as 'POST', `/api/contas-cobranca/${fresh.id}`, { convenio: '1234567' }), 200)
    assert.equal((await admin.call('POST', `/api/contas-cobranca/${fresh.id}/confirmacao`, undefined, key())).statusCode, 403)
    // Nor after someone else changes something too (red team): every changer since the last confirmation is held apart.
    const admin2 = await person(ctx.db, clienteId, 'administrador', ctx.app)
    created(await admin2.call('PATCH' as 'POST', `/api/contas-cobranca/${made.id}`, { convenio: '7777778' }), 200)
    const stillAlone = await admin.call('POST', `/api/contas-cobranca/${made.id}/confirmacao`, undefined, key())
    assert.deepEqual([stillAlone.statusCode, stillAlone.json()], [403, { detail: 'aprovacao_pelo_mesmo_usuario' }])
    assert.equal((await admin2.call('POST', `/api/contas-cobranca/${made.id}/confirmacao`, undefined, key())).statusCode, 403)
    // Another person confirms it.
    created(await aprovador.call('POST', `/api/contas-cobranca/${made.id}/confirmacao`, undefined, key()), 200)
    // A token with no person changes a name, not where the money goes.
    created(await integration('PATCH' as 'POST', `/api/contas-cobranca/${made.id}`, { nome: 'BB renomeada' }), 200)
    const byToken = await integration('PATCH' as 'POST', `/api/contas-cobranca/${made.id}`, { chave_pix: 'outra@exemplo.com.br' })
    assert.deepEqual([byToken.statusCode, byToken.json()], [403, { detail: 'aprovacao_pelo_mesmo_usuario' }])
    // The database holds the changer and the confirmer apart by itself.
    await assert.rejects(rowsAs(ctx.db, clienteId, `UPDATE contas_cobranca SET confirmada_por_usuario_id = pendente_por_usuario_ids[1]
      WHERE id = '${made.id}'`), dbError('23514', /contas_cobranca_segunda_pessoa_da_alteracao/))
  })
})

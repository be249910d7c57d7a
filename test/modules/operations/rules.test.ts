// What an operation refuses, through the API, each with its catalogue code and the fields to act on it: a stale or
// expired quote, a limit, a blocked register, an invoice financed twice, a payment approved by the person who asked
// (or by a token with no person), a transition from the wrong state, another customer's ids; and a cancellation
// after acceptance posts the exact reverse of the acquisition and frees the títulos.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, EXAMPLE_PRODUCT, exampleRegisters, exampleTitles, key, settableClock, type Caller } from './helpers.ts'

/** A published NF-e key (the integration manual's example, check digit 5). */
const CHAVE = '52060433009911002506550120000007800267301615'

describe('operations: rules and refusals', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  /** The example drafted by `call`, optionally quoted and accepted. */
  const drafted = async (call: Caller, opts: { cedente?: object, sacado?: object, chave?: string } = {}) => {
    clock.set(EXAMPLE_NOW)
    const regs = await exampleRegisters(call, opts)
    const titulos = exampleTitles(regs.sacados.map((s: { id: string }) => s.id))
    if (opts.chave) Object.assign(titulos[0]!, { chave_nfe: opts.chave })
    const op = created(await call('POST', '/api/operacoes', { cedente_id: regs.cedente.id, produto_id: regs.produto.id, titulos }))
    return { ...regs, op }
  }
  const quote = async (call: Caller, id: string) => created(await call('POST', `/api/operacoes/${id}/cotacao`))
  const accept = (call: Caller, id: string, versao: number) => call('POST', `/api/operacoes/${id}/aceite`, { cotacao_versao: versao }, key())

  it('a cancellation after acceptance posts the exact reverse, frees the títulos and their NF-e key', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const { op, cedente, sacados, produto } = await drafted(operador.call, { chave: CHAVE })
    await quote(operador.call, op.id)
    created(await accept(operador.call, op.id, 1), 200)
    const cancelled = created(await operador.call('POST', `/api/operacoes/${op.id}/cancelamento`, { motivo: 'cedente desistiu' }), 200)
    assert.equal(cancelled.estado, 'cancelada')
    assert.deepEqual(cancelled.cancelamento.motivo, 'cedente desistiu')
    assert.deepEqual(cancelled.titulos.map((t: { estado: string, saldo_centavos: number }) => [t.estado, t.saldo_centavos]),
      [['cancelado', 0], ['cancelado', 0], ['cancelado', 0]])
    const [reversal, acquisition] = created(await operador.call('GET', `/api/lancamentos?cedente_id=${cedente.id}`), 200).itens
    assert.deepEqual(reversal.linhas.map((l: Record<string, unknown>) => [l.conta, l.cedente_id, l.credito_centavos, l.debito_centavos]),
      acquisition.linhas.map((l: Record<string, unknown>) => [l.conta, l.cedente_id, l.debito_centavos, l.credito_centavos]))
    const extrato = created(await operador.call('GET', `/api/cedentes/${cedente.id}/extrato?de=2026-10-01&ate=2026-10-31`), 200)
    assert.equal(extrato.saldo_final_centavos, 0)
    assert.equal(created(await operador.call('GET', `/api/cedentes/${cedente.id}`), 200).exposicao_centavos, 0)
    // The invoice may be financed again once its operation is cancelled.
    const again = { ...exampleTitles(sacados.map((s: { id: string }) => s.id))[0], chave_nfe: CHAVE }
    created(await operador.call('POST', '/api/operacoes', { cedente_id: cedente.id, produto_id: produto.id, titulos: [again] }))
  })

  it('an operation\'s date that does not exist is one 422 item, beside the títulos\' own, whatever their days', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const { cedente, produto, sacados } = await exampleRegisters(operador.call)
    const [t1, t2] = exampleTitles(sacados.map((s: { id: string }) => s.id))
    const res = await operador.call('POST', '/api/operacoes', {
      cedente_id: cedente.id, produto_id: produto.id, data_operacao: '2026-02-30', titulos: [t1, { ...t2, vencimento: '2026-11-31' }],
    })
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(res.json().detail.map((i: { loc: unknown[] }) => i.loc.join('.')), ['body.data_operacao', 'body.titulos.1.vencimento'])
  })

  it('a borderô priced to nothing is 422 cotacao_inviavel naming the line, and no quote is kept', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const { op, produto } = await drafted(operador.call)
    // A fee per título above the cheapest título's face: its price of purchase would be negative.
    created(await operador.call('POST', `/api/produtos/${produto.id}/versoes`, { ...EXAMPLE_PRODUCT, nome: undefined, tarifa_por_titulo_centavos: 1_000_001 }))
    const res = await operador.call('POST', `/api/operacoes/${op.id}/cotacao`)
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(res.json(), { detail: 'cotacao_inviavel', motivo: 'preco_nao_positivo', indice: 0 })
    const read = created(await operador.call('GET', `/api/operacoes/${op.id}`), 200)
    assert.deepEqual([read.estado, read.cotacao], ['rascunho', null])
  })

  it('a duplicata in a live operation (its NF-e key and number) is 409 titulo_duplicado with the título holding it; a wrong check digit is 422',
    async () => {
      const { operador } = await backOffice(ctx.db, ctx.app, clock)
      const { op, cedente, produto, sacados } = await drafted(operador.call, { chave: CHAVE })
      const t = { ...exampleTitles(sacados.map((s: { id: string }) => s.id))[0], chave_nfe: CHAVE }
      const dup = await operador.call('POST', '/api/operacoes', { cedente_id: cedente.id, produto_id: produto.id, titulos: [t] })
      assert.equal(dup.statusCode, 409)
      assert.deepEqual(dup.json(), { detail: 'titulo_duplicado', chave_nfe: CHAVE, numero: 'T1', titulo_id: op.titulos[0].id })
      const twice = await operador.call('POST', '/api/operacoes', { cedente_id: cedente.id, produto_id: produto.id, titulos: [
        { ...t, numero: 'T1/2' }, { ...t, numero: 'T1/2' }] })
      assert.equal(twice.statusCode, 409, 'the same installment twice in one request')
      assert.deepEqual(twice.json(), { detail: 'titulo_duplicado', chave_nfe: CHAVE, numero: 'T1/2', titulo_id: null })
      const wrong = await operador.call('POST', `/api/operacoes/${op.id}/titulos`, { titulos: [{ ...t, numero: 'T9', chave_nfe: CHAVE.slice(0, 43) + '4' }] })
      assert.equal(wrong.statusCode, 422)
      assert.deepEqual(wrong.json().detail.map((i: { loc: unknown[] }) => i.loc), [['body', 'titulos', 0, 'chave_nfe']])
    })

  it('the installments of one NF-e (one key, each its own number) are each bought; once cancelled, an installment may be bought again '
    + '(issue 31 item 3)', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const { op, cedente, produto, sacados } = await drafted(operador.call, { chave: CHAVE })
    const t = { ...exampleTitles(sacados.map((s: { id: string }) => s.id))[0], chave_nfe: CHAVE }
    const installments = created(await operador.call('POST', '/api/operacoes', { cedente_id: cedente.id, produto_id: produto.id, titulos: [
      { ...t, numero: 'T1/2', vencimento: '2026-12-04' }, { ...t, numero: 'T1/3', vencimento: '2027-01-04' }] }))
    assert.deepEqual(installments.titulos.map((x: { numero: string }) => x.numero), ['T1/2', 'T1/3'])
    created(await operador.call('POST', `/api/operacoes/${op.id}/cancelamento`, { motivo: 'refeita' }, key()), 200)
    created(await operador.call('POST', '/api/operacoes', { cedente_id: cedente.id, produto_id: produto.id, titulos: [t] }))
  })

  it('accepting a quote that is not the latest is 409 cotacao_desatualizada; after the operation\'s day, cotacao_expirada', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await drafted(operador.call)
    await quote(operador.call, op.id)
    assert.equal((await quote(operador.call, op.id)).versao, 2)
    const stale = await accept(operador.call, op.id, 1)
    assert.equal(stale.statusCode, 409)
    assert.deepEqual(stale.json(), { detail: 'cotacao_desatualizada', cotacao_versao: 2 })
    clock.set('2026-10-06T03:00:00Z')
    const expired = await accept(operador.call, op.id, 2)
    assert.equal(expired.statusCode, 409)
    assert.deepEqual(expired.json(), { detail: 'cotacao_expirada', valida_ate: '2026-10-06T03:00:00.000Z' })
    assert.equal(created(await operador.call('GET', `/api/operacoes/${op.id}`), 200).estado, 'cotada')
  })

  it('a limit passed is 409 limite_excedido naming the limit, its exposure and what the operation adds; nothing is acquired', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const { op, sacados } = await drafted(operador.call, { sacado: { limite_centavos: 2_000_000 } })
    await quote(operador.call, op.id)
    const refused = await accept(operador.call, op.id, 1)
    assert.equal(refused.statusCode, 409)
    assert.deepEqual(refused.json(), {
      detail: 'limite_excedido', limites: [{ tipo: 'sacado', id: sacados[1].id, razao_social: sacados[1].razao_social,
        limite_centavos: 2_000_000, exposicao_centavos: 0,
        operacao_centavos: 2_500_000 }],
    })
    const after = created(await operador.call('GET', `/api/operacoes/${op.id}`), 200)
    assert.equal(after.estado, 'cotada')
    assert.deepEqual(after.titulos.map((t: { estado: string }) => t.estado), ['ofertado', 'ofertado', 'ofertado'])
    assert.deepEqual(created(await operador.call('GET', '/api/lancamentos'), 200).itens, [])
  })

  it('the cedente\'s limit counts its exposure in every accepted operation: the second borderô over it is 409 naming the cedente', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const { op, cedente, produto, sacados } = await drafted(operador.call, { cedente: { limite_centavos: 6_000_000 } })
    await quote(operador.call, op.id)
    created(await accept(operador.call, op.id, 1), 200)
    // 5,000,000 taken; a second borderô of 1,000,000 fits exactly, a third of 100,000 more does not.
    const [t1] = exampleTitles(sacados.map((s: { id: string }) => s.id))
    const fits = created(await operador.call('POST', '/api/operacoes', { cedente_id: cedente.id, produto_id: produto.id, titulos: [t1] }))
    await quote(operador.call, fits.id)
    created(await accept(operador.call, fits.id, 1), 200)
    const over = created(await operador.call('POST', '/api/operacoes', { cedente_id: cedente.id, produto_id: produto.id,
      titulos: [{ ...t1, numero: 'T9', valor_face_centavos: 100_000 }] }))
    await quote(operador.call, over.id)
    const refused = await accept(operador.call, over.id, 1)
    assert.equal(refused.statusCode, 409, refused.body)
    assert.deepEqual(refused.json(), {
      detail: 'limite_excedido',
      limites: [{
        tipo: 'cedente', id: cedente.id, razao_social: cedente.razao_social, limite_centavos: 6_000_000, exposicao_centavos: 6_000_000,
        operacao_centavos: 100_000,
      }],
    })
    assert.equal(created(await operador.call('GET', `/api/cedentes/${cedente.id}`), 200).exposicao_centavos, 6_000_000)
  })

  it('a blocked cedente takes part in no new operation (409 cadastro_bloqueado), nor a quoted one\'s acceptance', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const { op, cedente, produto } = await drafted(operador.call)
    await quote(operador.call, op.id)
    created(await operador.call('PATCH' as 'POST', `/api/cedentes/${cedente.id}`, { estado: 'bloqueado' }), 200)
    const refused = await accept(operador.call, op.id, 1)
    assert.equal(refused.statusCode, 409)
    assert.deepEqual(refused.json(), { detail: 'cadastro_bloqueado', cadastros: [{ tipo: 'cedente', id: cedente.id }] })
    const fresh = await operador.call('POST', '/api/operacoes', { cedente_id: cedente.id, produto_id: produto.id })
    assert.equal(fresh.json().detail, 'cadastro_bloqueado')
  })

  it('the person who asked for a payment cannot approve it, nor can a token with no person (403 aprovacao_pelo_mesmo_usuario)', async () => {
    const { admin, aprovador, integration } = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await drafted(admin.call)
    await quote(admin.call, op.id)
    created(await accept(admin.call, op.id, 1), 200)
    created(await admin.call('POST', `/api/operacoes/${op.id}/formalizacao`,
      { termo_sha256: 'b'.repeat(64), assinado_em: '2026-10-05T12:00:00Z', signatarios: [{ nome: 'Sócio', documento: '11144477735' }] }), 200)
    const payment = created(await admin.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
    for (const who of [admin, { call: integration }]) {
      const refused = await who.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key())
      assert.equal(refused.statusCode, 403)
      assert.equal(refused.json().detail, 'aprovacao_pelo_mesmo_usuario')
    }
    created(await aprovador.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key()), 200)
    const twice = await aprovador.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key())
    assert.deepEqual([twice.statusCode, twice.json()], [409, { detail: 'estado_invalido', estado: 'aprovado' }])
  })

  it('a transition from the wrong state is 409 estado_invalido naming the state; another customer\'s ids are not found', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const other = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await drafted(operador.call)
    const formal = await operador.call('POST', `/api/operacoes/${op.id}/formalizacao`,
      { termo_sha256: 'c'.repeat(64), assinado_em: '2026-10-05T12:00:00Z', signatarios: [{ nome: 'Sócio', documento: '11144477735' }] })
    assert.deepEqual([formal.statusCode, formal.json()], [409, { detail: 'estado_invalido', estado: 'rascunho' }])
    for (const [method, url] of [['GET', `/api/operacoes/${op.id}`], ['POST', `/api/operacoes/${op.id}/cotacao`], ['GET',
      `/api/titulos/${op.titulos[0].id}`]] as const) {
      const res = await other.operador.call(method, url)
      assert.deepEqual([res.statusCode, res.json()], [404, { detail: 'nao_encontrado' }], url)
    }
  })
})

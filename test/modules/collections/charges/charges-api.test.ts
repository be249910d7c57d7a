// /api/cobrancas (issue 33): an acquired título charged by boleto under a confirmed collection account. The barcode
// and the linha digitável are checked by an independent implementation (boleto-brasileiro-validator, tests only), and
// Itaú's nosso número and campo livre are recomputed here by hand from the manual's rules; the sequence advances past
// the customer's own numbers; every refusal has its code; another customer sees nothing; the boleto prints as a
// PDF that reads back and as HTML with the barcode's SVG.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import validator from 'boleto-brasileiro-validator'
import { recordRegistration } from '../../../../src/modules/collections/charges/store.ts'
import { dynamicBrCode } from '../../../../src/modules/collections/pix/br-code.ts'
import { withTenant } from '../../../../src/platform/tenancy/tenancy.ts'
import { auditRows, dbError, rowsAs } from '../../../helpers/credentials.ts'
import { asOwner } from '../../../helpers/database.ts'
import { useTestApp } from '../../../helpers/fixture.ts'
import { isPdf, pdfText } from '../../../helpers/pdf-text.ts'
import {
  backOffice, created, EXAMPLE_NOW, exampleRegisters, exampleTitles, formalizedExample, key, settableClock,
} from '../../operations/helpers.ts'

const { boletoBancarioCodigoBarras, boletoBancarioLinhaDigitavel } = validator

/** Módulo 10 as Itaú's manual says it, written here apart from the service's: weights 2, 1 from the right, a product's digits summed. */
function modulo10(digits: string): number {
  let sum = 0
  ;[...digits].reverse().forEach((d, i) => {
    const p = Number(d) * (i % 2 === 0 ? 2 : 1)
    sum += p > 9 ? p - 9 : p
  })
  return (10 - (sum % 10)) % 10
}

const ITAU = { nome: 'Itaú 109', banco: '341', agencia: '1234', conta: '56789', conta_digito: String(modulo10('123456789')), carteira: '109' }

type Res = { statusCode: number, body: string, json(): unknown }
const refused = (res: Res, status: number, body: object) => assert.deepEqual([res.statusCode, res.json()], [status, body], res.body)

describe('/api/cobrancas', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  /** A customer whose example operation is accepted (its three títulos `adquirido`), and a confirmed Itaú account. */
  const world = async (conta: object = ITAU) => {
    clock.set(EXAMPLE_NOW)
    const office = await backOffice(ctx.db, ctx.app, clock)
    const { op, regs } = await formalizedExample(office.admin.call)
    const account = created(await office.operador.call('POST', '/api/contas-cobranca', conta))
    created(await office.aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    const [t1, t2, t3] = op.titulos as { id: string }[]
    return { ...office, op, regs, account, t1: t1!.id, t2: t2!.id, t3: t3!.id }
  }

  it('charges a título: the nosso número, campo livre, barcode and linha as Itaú\'s rules and FEBRABAN\'s make them; read back, listed, audited', async () => {
    const w = await world()
    const body = {
      titulo_id: w.t2, conta_cobranca_id: w.account.id, juros: { tipo: 'valor_dia', valor_centavos: 412 }, multa_percentual: '0.020',
      desconto: { valor_centavos: 10_000, ate: '2026-11-10' }, protesto_dias: 5,
    }
    const made = created(await w.operador.call('POST', '/api/cobrancas', body, key()))

    // By hand: Itaú's nosso número is 8 digits, its DAC módulo 10 over agência, conta, carteira and nosso número.
    const dac = modulo10('1234' + '56789' + '109' + '00000001')
    const campoLivre = `109${'00000001'}${dac}1234${'56789'}${modulo10('123456789')}000`
    assert.equal(campoLivre.length, 25)
    // The due date's factor: 1000 on 2025-02-22, a day each day after.
    const fator = 1000 + (Date.parse('2026-11-20') - Date.parse('2025-02-22')) / 86_400_000
    assert.equal(made.codigo_barras.slice(0, 4), '3419')
    assert.equal(made.codigo_barras.slice(5), `${fator}${'0002500000'}${campoLivre}`)
    assert.ok(boletoBancarioCodigoBarras(made.codigo_barras), 'the independent validator accepts the barcode')
    assert.ok(boletoBancarioLinhaDigitavel(made.linha_digitavel), 'and the linha digitável')
    assert.match(made.linha_digitavel, /^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/)
    assert.equal(made.linha_digitavel.replace(/\D/g, '').length, 47)

    assert.deepEqual({ ...made, id: undefined, codigo_barras: undefined, linha_digitavel: undefined, criado_em: undefined, atualizado_em: undefined }, {
      id: undefined, numero: 1, titulo_id: w.t2, conta_cobranca_id: w.account.id, banco: '341', nosso_numero: `109/00000001-${dac}`,
      nosso_numero_sequencia: '1', codigo_barras: undefined, linha_digitavel: undefined, valor_centavos: 2_500_000, vencimento: '2026-11-20',
      juros: { tipo: 'valor_dia', valor_centavos: 412, taxa: null }, multa_percentual: '0.02', desconto: { valor_centavos: 10_000, ate: '2026-11-10' },
      protesto_dias: 5, estado: 'a_registrar', pix_copia_e_cola: null, criado_em: undefined, atualizado_em: undefined,
    })
    assert.deepEqual(created(await w.aprovador.call('GET', `/api/cobrancas/${made.id}`), 200), made)
    // The list names the título and its sacado beside the ids (a page of charges reads nothing per row).
    const t2 = (w.op.titulos as { id: string, numero: string, sacado_id: string }[]).find((t) => t.id === w.t2)!
    const sacado = (w.regs.sacados as { id: string, razao_social: string }[]).find((s) => s.id === t2.sacado_id)!
    assert.deepEqual(created(await w.aprovador.call('GET', `/api/cobrancas?titulo_id=${w.t2}&estado=a_registrar`), 200), {
      itens: [{ ...made, titulo_numero: t2.numero, sacado: { id: sacado.id, razao_social: sacado.razao_social } }], proximo: null,
    })
    assert.deepEqual(created(await w.aprovador.call('GET', '/api/cobrancas?estado=registrada'), 200).itens, [])
    assert.equal(created(await w.aprovador.call('GET', `/api/contas-cobranca/${w.account.id}`), 200).proximo_nosso_numero, 2)

    const audit = (await auditRows(ctx.db, w.clienteId)).filter((r) => r.acao === 'cobranca.criada')
    assert.deepEqual(audit.map((r) => r.alvo_id), [made.id])
    const trail = created(await w.aprovador.call('GET', `/api/conta/auditoria?alvo_id=${made.id}`), 200).itens as { alvo_nome: string }[]
    assert.deepEqual(trail.map((e) => e.alvo_nome), ['Cobrança nº 1'])

    // The boleto as a PDF: the linha digitável, the amount in reais and the due date, as a reader extracts them, and
    // the pagador's address from the register (FEBRABAN's ficha names the payer's address under the name).
    created(await w.operador.call('PATCH', `/api/sacados/${t2.sacado_id}`, { logradouro: 'Rua das Acácias', numero: '100', bairro: 'Centro',
      cep: '13010000', cidade: 'Campinas', uf: 'SP' }), 200)
    const pdf = await w.aprovador.call('GET', `/api/cobrancas/${made.id}/boleto`, undefined, { accept: 'application/pdf' })
    assert.equal(pdf.statusCode, 200, pdf.body)
    assert.equal(pdf.headers['content-type'], 'application/pdf')
    assert.ok(isPdf(pdf.rawPayload))
    const text = (await pdfText(pdf.rawPayload)).join('\n')
    for (const s of [made.linha_digitavel, 'R$ 25.000,00', '20/11/2026', `109/00000001-${dac}`, 'Sacado 12ABC34501DE35', 'Cedente Exemplo Ltda',
      'Após 20/11/2026, multa de 2,00 %.', 'Juros de R$ 4,12 por dia de atraso.', 'Até 10/11/2026, desconto de R$ 100,00.',
      'Protestar após 5 dias corridos do vencimento.', 'Rua das Acácias, 100 — Centro — Campinas/SP — CEP 13010-000',
      // The customer was provisioned without its CNPJ: the beneficiário says so (the README's clientes documento records it).
      'CNPJ não cadastrado']) {
      assert.ok(text.includes(s), `${s} in ${text}`)
    }
    // As HTML (the default): the page with the barcode's SVG named by its digits, and no inline style.
    const page = await w.aprovador.call('GET', `/api/cobrancas/${made.id}/boleto`)
    assert.equal(page.statusCode, 200, page.body)
    assert.match(String(page.headers['content-type']), /^text\/html/)
    assert.ok(page.body.includes(`aria-label="Código de barras: ${made.codigo_barras}"`))
    assert.ok(page.body.includes(made.linha_digitavel) && page.body.includes('class="boleto"'))
    assert.doesNotMatch(page.body, /style=/)
    assert.match(page.body, /<p class="boleto-aviso" role="note">AMBIENTE DE TESTES \(SANDBOX\): nenhum banco registrou este boleto\. Não o pague\.<\/p>/,
      'outside production, the boleto says no bank registered it')
    assert.equal((await w.aprovador.call('GET', `/api/cobrancas/${made.id}/boleto?formato=pdf`)).headers['content-type'], 'application/pdf')
  })

  it('a sequence at its bank\'s last number is told as spent (red team), and a charge may still give its own number', async () => {
    const w = await world()
    created(await w.operador.call('PATCH' as 'POST', `/api/contas-cobranca/${w.account.id}`, { proximo_nosso_numero: 99_999_999 }), 200)
    refused(await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t1, conta_cobranca_id: w.account.id }, key()),
      409, { detail: 'nosso_numero_esgotado', conta_cobranca_id: w.account.id })
    const own = created(await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t1, conta_cobranca_id: w.account.id, nosso_numero: '5' }, key()))
    assert.equal(own.nosso_numero_sequencia, '5')
  })

  it('the sequence advances past the customer\'s own numbers; a number given twice and a título charged twice are 409 with the holder\'s id', async () => {
    const w = await world()
    const own = created(await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t1, conta_cobranca_id: w.account.id, nosso_numero: '0002' }, key()))
    assert.deepEqual([own.nosso_numero_sequencia, own.nosso_numero], ['2', `109/00000002-${modulo10('123456789109' + '00000002')}`])
    refused(await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t3, conta_cobranca_id: w.account.id, nosso_numero: '2' }, key()),
      409, { detail: 'nosso_numero_em_uso', id: own.id })
    const first = created(await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t2, conta_cobranca_id: w.account.id }, key()))
    const second = created(await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t3, conta_cobranca_id: w.account.id }, key()))
    assert.deepEqual([first.nosso_numero_sequencia, second.nosso_numero_sequencia], ['1', '3'], '2 was the customer\'s: skipped')
    assert.equal(created(await w.operador.call('GET', `/api/contas-cobranca/${w.account.id}`), 200).proximo_nosso_numero, 4)
    // Found by what a person has at hand: the nosso número as the bank prints it, or its sequence; the título's number; the sacado.
    const found = async (busca: string) => (created(await w.operador.call('GET', `/api/cobrancas?busca=${encodeURIComponent(busca)}`), 200)
      .itens as { id: string }[]).map((c) => c.id).sort()
    assert.deepEqual(await found(own.nosso_numero), [own.id])
    assert.deepEqual(await found('00000003'), [second.id])
    assert.deepEqual(await found('T2'), [first.id])
    const t3 = (w.op.titulos as { id: string, sacado_id: string }[]).find((t) => t.id === w.t3)!
    const sacado = (w.regs.sacados as { id: string, razao_social: string, documento: string }[]).find((s) => s.id === t3.sacado_id)!
    assert.deepEqual(await found(sacado.razao_social.toUpperCase()), [second.id])
    assert.deepEqual(await found('nada disso'), [])
    refused(await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t1, conta_cobranca_id: w.account.id }, key()),
      409, { detail: 'titulo_ja_cobrado', id: own.id })
    assert.equal(created(await w.operador.call('GET', `/api/contas-cobranca/${w.account.id}`), 200).proximo_nosso_numero, 4, 'a refusal takes no number')
    // Itaú's sequence is 8 digits.
    const long = await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t1, conta_cobranca_id: w.account.id, nosso_numero: '123456789' }, key())
    assert.equal(long.statusCode, 422, long.body)
    assert.deepEqual(long.json().detail.map((i: { loc: string[] }) => i.loc.join('.')), ['body.nosso_numero'])
    // The database holds one live charge per título by itself.
    await assert.rejects(rowsAs(ctx.db, w.clienteId, `INSERT INTO cobrancas (cliente_id, titulo_id, conta_cobranca_id, nosso_numero, nosso_numero_impresso,
      codigo_barras, linha_digitavel, valor_centavos, vencimento, juros_tipo)
      SELECT cliente_id, titulo_id, conta_cobranca_id, '99', 'x', codigo_barras, linha_digitavel, valor_centavos, vencimento, 'isento'
      FROM cobrancas WHERE id = '${own.id}'`), dbError('23505', /cobrancas_titulo_viva/))
  })

  it('refuses an account not confirmed or inactive, a título not acquired, a consumer\'s fine above 2 %, and a request without its key', async () => {
    const w = await world()
    const pending = created(await w.operador.call('POST', '/api/contas-cobranca', { ...ITAU, carteira: '112', nome: 'Itaú 112' }))
    refused(await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t2, conta_cobranca_id: pending.id }, key()),
      409, { detail: 'conta_cobranca_nao_confirmada' })
    created(await w.operador.call('PATCH' as 'POST', `/api/contas-cobranca/${w.account.id}`, { ativa: false }), 200)
    refused(await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t2, conta_cobranca_id: w.account.id }, key()),
      409, { detail: 'conta_cobranca_inativa' })
    created(await w.operador.call('PATCH' as 'POST', `/api/contas-cobranca/${w.account.id}`, { ativa: true }), 200)

    // A draft's título is only offered.
    const draft = created(await w.admin.call('POST', '/api/operacoes', {
      cedente_id: w.regs.cedente.id, produto_id: w.regs.produto.id, titulos: exampleTitles(w.regs.sacados.map((s: { id: string }) => s.id)),
    }))
    refused(await w.operador.call('POST', '/api/cobrancas', { titulo_id: draft.titulos[0].id, conta_cobranca_id: w.account.id }, key()),
      409, { detail: 'titulo_nao_adquirido', estado: 'ofertado' })

    // T1's sacado is a person (CPF): 2 % at most. T2's is a company: 10 %.
    const fine = await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t1, conta_cobranca_id: w.account.id, multa_percentual: '0.03' }, key())
    assert.equal(fine.statusCode, 422, fine.body)
    assert.deepEqual(fine.json().detail.map((i: { loc: string[] }) => i.loc.join('.')), ['body.multa_percentual'])
    assert.match(fine.json().detail[0].msg, /CDC, art\. 52/)
    const high = await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t2, conta_cobranca_id: w.account.id, multa_percentual: '0.11' }, key())
    assert.equal(high.statusCode, 422, high.body)
    const late = await w.operador.call('POST', '/api/cobrancas', {
      titulo_id: w.t2, conta_cobranca_id: w.account.id, desconto: { valor_centavos: 2_500_000, ate: '2026-11-21' },
    }, key())
    assert.deepEqual(late.json().detail.map((i: { loc: string[] }) => i.loc.join('.')), ['body.desconto.valor_centavos', 'body.desconto.ate'])

    // Rates finer than the banks' files carry (two decimals of a percentage): 0.02155 is refused at the field.
    const fine5 = await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t2, conta_cobranca_id: w.account.id, multa_percentual: '0.02155' }, key())
    assert.deepEqual([fine5.statusCode, fine5.json().detail.map((i: { loc: string[] }) => i.loc.join('.'))], [422, ['body.multa_percentual']])
    // A balance above what ten digits of centavos carry: no boleto can say it (a 422 at the título, not a 500).
    await asOwner(ctx.db, `UPDATE titulos SET valor_face_centavos = 10000000000, saldo_centavos = 10000000000 WHERE id = '${w.t3}'`)
    const huge = await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t3, conta_cobranca_id: w.account.id }, key())
    assert.equal(huge.statusCode, 422, huge.body)
    assert.deepEqual(huge.json().detail.map((i: { loc: string[], msg: string }) => [i.loc.join('.'), i.msg]),
      [['body.titulo_id', 'Value error, o saldo do título passa de R$ 99.999.999,99, o maior valor que um boleto carrega']])

    refused(await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t2, conta_cobranca_id: w.account.id }), 400,
      { detail: 'chave_idempotencia_ausente' })
    assert.deepEqual(await rowsAs(ctx.db, w.clienteId, 'SELECT id FROM cobrancas'), [], 'nothing charged')
    // A consumer at 2 % and a monthly rate are fine.
    const ok = created(await w.operador.call('POST', '/api/cobrancas', {
      titulo_id: w.t1, conta_cobranca_id: w.account.id, multa_percentual: '0.02', juros: { tipo: 'taxa_mensal', taxa: '0.010' },
    }, key()))
    assert.deepEqual([ok.multa_percentual, ok.juros], ['0.02', { tipo: 'taxa_mensal', valor_centavos: null, taxa: '0.01' }])
  })

  it('another customer\'s título, account and charge are 404, and its rows are not seen', async () => {
    const a = await world()
    const made = created(await a.operador.call('POST', '/api/cobrancas', { titulo_id: a.t2, conta_cobranca_id: a.account.id }, key()))
    const b = await backOffice(ctx.db, ctx.app, clock)
    const { produto: _p } = await exampleRegisters(b.admin.call)
    const own = created(await b.operador.call('POST', '/api/contas-cobranca', ITAU))
    created(await b.aprovador.call('POST', `/api/contas-cobranca/${own.id}/confirmacao`, undefined, key()), 200)
    refused(await b.operador.call('POST', '/api/cobrancas', { titulo_id: a.t1, conta_cobranca_id: own.id }, key()), 404, { detail: 'nao_encontrado' })
    refused(await a.operador.call('POST', '/api/cobrancas', { titulo_id: a.t1, conta_cobranca_id: own.id }, key()), 404, { detail: 'nao_encontrado' })
    for (const url of [`/api/cobrancas/${made.id}`, `/api/cobrancas/${made.id}/boleto`, '/api/cobrancas/x']) {
      refused(await b.aprovador.call('GET', url), 404, { detail: 'nao_encontrado' })
    }
    assert.deepEqual(created(await b.aprovador.call('GET', '/api/cobrancas'), 200), { itens: [], proximo: null })
    assert.deepEqual(await rowsAs(ctx.db, b.clienteId, 'SELECT id FROM cobrancas'), [], 'row security')
    assert.equal((await rowsAs(ctx.db, a.clienteId, 'SELECT id FROM cobrancas')).length, 1)
  })

  it('the bank adapter\'s seam registers a charge once, with its BR Code: then the boleto carries the QR code and the copia e cola', async () => {
    const w = await world()
    const made = created(await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t2, conta_cobranca_id: w.account.id }, key()))
    const pix = dynamicBrCode({ location: 'pix.sandbox.exemplo/v2/cobv/abc123', nome: 'Factoring Exemplo SA', cidade: 'Sao Paulo' })
    const answer = { sandbox: true, status: 'ATIVA' }
    const register = () => withTenant(ctx.db, w.clienteId, (tx) => recordRegistration(tx, made.id, 'registrada', {
      pixCopiaECola: pix, pixLocation: 'pix.sandbox.exemplo/v2/cobv/abc123', bancoResposta: answer, now: clock.now(),
    }))
    assert.equal((await register())?.estado, 'registrada')
    assert.equal(await register(), undefined, 'registered once')
    const read = created(await w.aprovador.call('GET', `/api/cobrancas/${made.id}`), 200)
    assert.deepEqual([read.estado, read.pix_copia_e_cola], ['registrada', pix])
    const page = await w.aprovador.call('GET', `/api/cobrancas/${made.id}/boleto`)
    assert.ok(page.body.includes('aria-label="QR code PIX da cobrança"') && page.body.includes(pix))
    // Still the título's live charge; what was charged is not the runtime role's to change.
    refused(await w.operador.call('POST', '/api/cobrancas', { titulo_id: w.t2, conta_cobranca_id: w.account.id }, key()),
      409, { detail: 'titulo_ja_cobrado', id: made.id })
    await assert.rejects(rowsAs(ctx.db, w.clienteId, `UPDATE cobrancas SET valor_centavos = 1 WHERE id = '${made.id}'`), dbError('42501', /permission/))
  })
})

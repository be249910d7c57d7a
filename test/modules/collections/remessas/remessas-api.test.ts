// /api/cnab/remessas (issue 33): the file of an account's waiting charges and instructions, stored and downloaded as
// the bank takes it, and read back here through the project's own CNAB layouts (cnab/layout.ts's `ler`): each
// charge's nosso número, value and due date, its sacado's address, the trailers' counts, and the account's sequence,
// which goes up file by file. A charge whose sacado has no address stays out, said why; nothing waiting is a 422;
// two requests at once never put one charge in two files; every refusal has its code; another customer sees nothing.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { describe, it } from 'node:test'
import { mod10 } from '../../../../src/modules/collections/boleto/modulos.ts'
import { ler } from '../../../../src/modules/collections/cnab/layout.ts'
import { LAYOUTS_240 } from '../../../../src/modules/collections/cnab/layouts/bancos240.ts'
import { LAYOUTS_400 } from '../../../../src/modules/collections/cnab/layouts/bancos400.ts'
import { freshCnpj } from '../../../helpers/cnpj.ts'
import { auditRows, rowsAs } from '../../../helpers/credentials.ts'
import { useTestApp } from '../../../helpers/fixture.ts'
import {
  backOffice, created, EXAMPLE_NOW, exampleRegisters, formalizedExample, key, settableClock,
} from '../../operations/helpers.ts'

let accounts = 0
const itau = (over: object = {}) => {
  const conta = String(78900 + ++accounts)
  return { nome: `Itaú ${conta}`, banco: '341', agencia: '1234', conta, conta_digito: String(mod10(`1234${conta}`)), carteira: '109', ...over }
}
const ENDERECO = { logradouro: 'Rua das Acácias', numero: '100', bairro: 'Centro', cep: '13010000', cidade: 'Campinas', uf: 'SP' }

type Res = { statusCode: number, body: string, json(): unknown }
const refused = (res: Res, status: number, body: object) => assert.deepEqual([res.statusCode, res.json()], [status, body], res.body)
const field = (read: ReturnType<typeof ler>, name: string) => {
  assert.ok(read.ok, read.ok ? '' : read.motivo)
  return read.campos[name]!
}

describe('/api/cnab/remessas', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  /**
   * A customer with its CNPJ, the example's títulos (sacados with an address; the second's alphanumeric CNPJ, which
   * the layouts do not carry yet, replaced by a numeric one unless `alfanumerico`) charged under a confirmed account.
   */
  const world = async (conta: object = itau(), documento: string | null = freshCnpj(), alfanumerico = false) => {
    clock.set(EXAMPLE_NOW)
    const office = await backOffice(ctx.db, ctx.app, clock)
    if (documento) await ctx.db.ownerTransaction((tx) => tx.query('UPDATE clientes SET documento = $2 WHERE id = $1', [office.clienteId, documento]))
    const regs = await exampleRegisters(office.admin.call, { sacado: ENDERECO })
    if (!alfanumerico) {
      regs.sacados[1] = created(await office.admin.call('POST', '/api/sacados', { documento: '11222333000181', razao_social: 'Sacado Numérico', ...ENDERECO }))
    }
    const { op } = await formalizedExample(office.admin.call, regs)
    const account = created(await office.operador.call('POST', '/api/contas-cobranca', conta))
    created(await office.aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    const charges = []
    for (const t of op.titulos as { id: string }[]) {
      charges.push(created(await office.operador.call('POST', '/api/cobrancas', { titulo_id: t.id, conta_cobranca_id: account.id }, key())))
    }
    const remessa = (k = key()) => office.operador.call('POST', '/api/cnab/remessas', { conta_cobranca_id: account.id }, k)
    const file = async (id: string) => {
      const res = await office.aprovador.call('GET', `/api/cnab/remessas/${id}/arquivo`)
      assert.equal(res.statusCode, 200, res.body)
      return res
    }
    return { office, regs, op, account, charges, remessa, file, documento }
  }

  it('writes the account\'s waiting charges as a CNAB 240 the layouts read back; leaves out a sacado without address; numbers each file', async () => {
    const w = await world(itau({ layout_cnab: '240' }))
    const [c1, c2, c3] = w.charges
    const semCep = w.regs.sacados[2].id
    created(await w.office.admin.call('PATCH', `/api/sacados/${semCep}`, { cep: null }), 200)

    const first = created(await w.remessa())
    assert.deepEqual({ ...first, id: undefined, sha256: undefined, criado_em: undefined }, {
      id: undefined, conta_cobranca_id: w.account.id, nsa: 1, layout: '240', nome_arquivo: 'CB341051026000001.REM', sha256: undefined,
      registros: 8, cobrancas: 2, instrucoes: 0, valor_centavos: 3_500_000, criado_em: undefined,
      itens: [
        { cobranca_id: c1.id, instrucao_id: null, nosso_numero: c1.nosso_numero, movimento: 'entrada' },
        { cobranca_id: c2.id, instrucao_id: null, nosso_numero: c2.nosso_numero, movimento: 'entrada' },
      ],
      fora: [{ cobranca_id: c3.id, instrucao_id: null, motivo: 'sacado_sem_endereco', faltam: ['cep'] }],
    })

    const res = await w.file(first.id)
    assert.equal(res.headers['content-type'], 'text/plain; charset=iso-8859-1')
    assert.equal(res.headers['content-disposition'], `attachment; filename="${first.nome_arquivo}"`)
    assert.equal(createHash('sha256').update(res.rawPayload).digest('hex'), first.sha256)
    const text = res.rawPayload.toString('latin1')
    assert.match(text, /^[^\n]*\r\n([^\n]*\r\n)*$/, 'every line ends CR LF')
    const lines = text.split('\r\n').slice(0, -1)
    assert.ok(lines.every((l) => l.length === 240))
    const l = LAYOUTS_240['341']
    assert.equal(field(ler(l.headerArquivo, lines[0]!), 'nsa'), '000001')
    assert.equal(field(ler(l.headerArquivo, lines[0]!), 'inscricao'), w.documento)
    const ps = lines.filter((x) => x[13] === 'P').map((x) => ler(l.p, x))
    assert.deepEqual(ps.map((p) => [field(p, 'nosso_numero'), field(p, 'valor'), field(p, 'vencimento'), field(p, 'movimento')]), [
      [c1.nosso_numero_sequencia.padStart(8, '0'), '000000001000000', '04112026', '01'],
      [c2.nosso_numero_sequencia.padStart(8, '0'), '000000002500000', '20112026', '01'],
    ])
    const q = ler(l.q, lines.find((x) => x[13] === 'Q')!)
    assert.deepEqual([field(q, 'pagador_endereco').trim(), field(q, 'pagador_bairro').trim(), field(q, 'pagador_cep') + field(q, 'pagador_cep_sufixo'),
      field(q, 'pagador_cidade').trim(), field(q, 'pagador_uf')], ['RUA DAS ACACIAS, 100', 'CENTRO', '13010000', 'CAMPINAS', 'SP'])
    assert.equal(Number(field(ler(l.trailerArquivo, lines.at(-1)!), 'registros')), lines.length)

    // The address given, the charge left out goes in the next file, numbered 2.
    created(await w.office.admin.call('PATCH', `/api/sacados/${semCep}`, { cep: '13010000' }), 200)
    const second = created(await w.remessa())
    assert.deepEqual([second.nsa, second.itens.map((i: { cobranca_id: string }) => i.cobranca_id), second.fora], [2, [c3.id], []])
    const secondText = (await w.file(second.id)).rawPayload.toString('latin1').split('\r\n')
    assert.equal(field(ler(l.headerArquivo, secondText[0]!), 'nsa'), '000002')
    refused(await w.remessa(), 422, { detail: 'remessa_vazia', fora: [] })
    assert.equal(created(await w.office.aprovador.call('GET', `/api/contas-cobranca/${w.account.id}`), 200).proxima_remessa, 3,
      'a refusal takes no number')

    const list = created(await w.office.aprovador.call('GET', `/api/cnab/remessas?conta_cobranca_id=${w.account.id}`), 200)
    assert.deepEqual(list.itens.map((r: { nsa: number }) => r.nsa), [2, 1])
    assert.equal(list.itens[1].itens, undefined, 'the list carries no items')
    const { fora: _fora, ...summary } = first
    assert.deepEqual(created(await w.office.aprovador.call('GET', `/api/cnab/remessas/${first.id}`), 200), summary)
    const audit = (await auditRows(ctx.db, w.office.clienteId)).filter((r) => r.acao === 'remessa.gerada')
    assert.deepEqual(audit.map((r) => r.alvo_id), [first.id, second.id])
  })

  it('writes a CNAB 400 with the instructions waiting (the bank\'s codes), and marks them sent', async () => {
    const w = await world(itau({ layout_cnab: '400' }))
    const [c1, c2, c3] = w.charges
    // c1 registered by an earlier file (its retorno confirmed it): it takes a new due date.
    created(await w.remessa())
    await ctx.db.ownerTransaction((tx) => tx.query('UPDATE cobrancas SET estado = \'registrada\' WHERE id = $1', [c1.id]))
    const asked = created(await w.office.operador.call('POST', `/api/cobrancas/${c1.id}/instrucoes`,
      { instrucao: 'alteracao_vencimento', vencimento: '2026-12-15' }, key()))
    assert.equal(asked.transporte, 'cnab')
    const r = created(await w.remessa())
    assert.deepEqual([r.nsa, r.cobrancas, r.instrucoes, r.itens.map((i: { movimento: string }) => i.movimento)], [2, 0, 1, ['alteracao_vencimento']])
    const lines = (await w.file(r.id)).rawPayload.toString('latin1').split('\r\n').slice(0, -1)
    assert.ok(lines.every((x) => x.length === 400))
    const d = ler(LAYOUTS_400['341'].remessaDetalhe, lines[1]!)
    assert.deepEqual([field(d, 'nosso_numero'), field(d, 'ocorrencia'), field(d, 'vencimento'), field(d, 'valor')],
      [c1.nosso_numero_sequencia.padStart(8, '0'), '06', '151226', '0000001000000'])
    const [listed] = created(await w.office.aprovador.call('GET', `/api/cobrancas/${c1.id}/instrucoes`), 200).itens
    assert.equal(listed.estado, 'enviada')
    const firstFile = (await w.file((created(await w.office.aprovador.call('GET', `/api/cnab/remessas?conta_cobranca_id=${w.account.id}`), 200)
      .itens[1].id))).rawPayload.toString('latin1').split('\r\n')
    const entradas = firstFile.filter((x) => x.startsWith('1')).map((x) => ler(LAYOUTS_400['341'].remessaDetalhe, x))
    assert.deepEqual(entradas.map((e) => [field(e, 'nosso_numero'), field(e, 'ocorrencia'), field(e, 'valor'), field(e, 'vencimento')]), [
      [c1.nosso_numero_sequencia.padStart(8, '0'), '01', '0000001000000', '041126'],
      [c2.nosso_numero_sequencia.padStart(8, '0'), '01', '0000002500000', '201126'],
      [c3.nosso_numero_sequencia.padStart(8, '0'), '01', '0000001500000', '041226'],
    ])
  })

  it('two requests at once never put one charge in two files, nor take one number twice', async () => {
    const w = await world()
    const [a, b] = await Promise.all([w.remessa(), w.remessa()])
    assert.deepEqual([a.statusCode, b.statusCode].sort(), [201, 422], `${a.body} ${b.body}`)
    const made = (a.statusCode === 201 ? a : b).json() as { nsa: number, cobrancas: number }
    assert.deepEqual([made.nsa, made.cobrancas], [1, 3])
    const rows = await rowsAs<{ n: number, distintas: number }>(ctx.db, w.office.clienteId,
      'SELECT count(*)::int AS n, count(DISTINCT cobranca_id)::int AS distintas FROM remessa_itens')
    assert.deepEqual(rows, [{ n: 3, distintas: 3 }])
  })

  it('refuses what cannot make a file, each with its code; another customer sees nothing', async () => {
    const api = await world(itau({ transporte: 'api' }))
    refused(await api.remessa(), 409, { detail: 'conta_cobranca_por_api' })
    const noCnpj = await world(itau(), null)
    refused(await noCnpj.remessa(), 409, { detail: 'empresa_sem_cnpj' })
    const alfa = await world(itau(), freshCnpj(), true)
    const withAlfa = created(await alfa.remessa())
    assert.deepEqual([withAlfa.cobrancas, withAlfa.fora], [2, [{ cobranca_id: alfa.charges[1].id, instrucao_id: null, motivo: 'documento_alfanumerico' }]])
    const w = await world()
    refused(await w.office.operador.call('POST', '/api/cnab/remessas', { conta_cobranca_id: w.account.id }), 400, { detail: 'chave_idempotencia_ausente' })
    const made = created(await w.remessa())
    const other = await backOffice(ctx.db, ctx.app, clock)
    refused(await other.operador.call('POST', '/api/cnab/remessas', { conta_cobranca_id: w.account.id }, key()), 404, { detail: 'nao_encontrado' })
    for (const url of [`/api/cnab/remessas/${made.id}`, `/api/cnab/remessas/${made.id}/arquivo`, '/api/cnab/remessas/nada']) {
      refused(await other.operador.call('GET', url), 404, { detail: 'nao_encontrado' })
    }
    assert.deepEqual(created(await other.operador.call('GET', '/api/cnab/remessas'), 200), { itens: [], proximo: null })
  })
})

// The bank adapter over HTTP against the sandbox bank, both real servers and sockets: a boleto registered answers
// its cobv's dynamic BR Code (read back by an independent parser, @brazilian-utils/brazilian-utils); registering the
// same nosso número again answers the same registration, with other data a refusal; the bank's refusals are final
// and named, its outages and slowness `indisponivel` (to be tried again); a liquidation on request comes back in the
// retorno file the sandbox writes, which the CNAB reader reads.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { getPixPayloadInfo } from '@brazilian-utils/brazilian-utils'
import { httpBankAdapter } from '../../../../src/modules/collections/bank/http-adapter.ts'
import type { PedidoDeRegistro } from '../../../../src/modules/collections/bank/adapter.ts'
import { startSandboxBank, type SandboxBank } from '../../../../src/modules/collections/sandbox/bank-server.ts'
import { linhasDe } from '../../../../src/modules/collections/cnab/linhas.ts'
import { lerRetorno240, type TituloRetornado } from '../../../../src/modules/collections/cnab/retorno240.ts'

const CONTA = { banco: '341' as const, agencia: '1248', conta: '02124', contaDigito: '6', carteira: '109' }
const pedido = (nossoNumero: string, over: Partial<PedidoDeRegistro> = {}): PedidoDeRegistro => ({
  conta: CONTA, nossoNumero, seuNumero: 'NF 1234/2', vencimento: '2026-12-15', valorCentavos: 1_234_567n,
  pagador: { documento: '11222333000181', nome: 'Comércio São João Ltda.' },
  beneficiario: { documento: '11444777000161', nome: 'Factoring Exemplo SA', cidade: 'São Paulo' },
  ...over,
})

describe('the bank adapter and the sandbox bank', () => {
  let bank: SandboxBank
  before(async () => { bank = await startSandboxBank({ token: 'segredo-do-sandbox', atrasoMs: [5, 20] }) })
  after(async () => { await bank.close() })
  const adapter = () => httpBankAdapter({ baseUrl: bank.url, token: 'segredo-do-sandbox', timeoutMs: 2000 })

  it('registers a boleto and answers its cobv\'s dynamic BR Code, which an independent parser reads', async () => {
    const r = await adapter().registrar(pedido('10001'))
    assert.ok(r.ok, JSON.stringify(r))
    const info = getPixPayloadInfo(r.pix.copiaECola)
    assert.equal(info?.pointOfInitiation, 'dynamic')
    assert.equal(info?.url, r.pix.location)
    assert.match(r.pix.location, /^pix\.banco-sandbox\.example\/pix\/v2\/cobv\/[0-9a-f]{32}$/, 'a reserved host: it pays nobody')
    assert.equal(info?.merchantName, 'Factoring Exemplo SA')
    assert.equal((r.resposta as { sandbox: boolean }).sandbox, true, 'the answer says it is the sandbox\'s')
  })

  it('answers a second registration of the same boleto with the first, and refuses one with other data', async () => {
    const first = await adapter().registrar(pedido('10002'))
    const again = await adapter().registrar(pedido('10002'))
    assert.ok(first.ok && again.ok)
    assert.equal(again.pix.txid, first.pix.txid)
    const other = await adapter().registrar(pedido('10002', { valorCentavos: 1n }))
    assert.deepEqual(other.ok === false && other.tipo === 'recusada' && [other.codigo, other.motivo],
      ['nosso_numero_duplicado', 'nosso número já registrado com outros dados'])
  })

  it('tells apart boletos of one nosso número at two banks, or two convênios, sharing an agência and conta (red team)', async () => {
    const bb = { banco: '001' as const, agencia: '1248', conta: '02124', contaDigito: '6', carteira: '17', convenio: '1400000' }
    const caixa = { ...bb, banco: '104' as const, carteira: '14', convenio: '654321' }
    assert.ok((await adapter().registrar(pedido('10020', { conta: bb }))).ok)
    // Another bank with the same agência and conta, and the same nosso número: another boleto, registered apart.
    assert.ok((await adapter().registrar(pedido('10020', { conta: caixa, valorCentavos: 99n }))).ok)
    const baixa = await adapter().instruir({ id: 'i-caixa', conta: caixa, nossoNumero: '10020', instrucao: 'baixa' })
    assert.ok(baixa.ok, JSON.stringify(baixa))
    const own = await adapter().consultar({ conta: bb, nossoNumero: '10020' })
    assert.deepEqual(own.ok && own.situacao, 'registrada', 'Banco do Brasil\'s boleto is untouched')
    // The same bank, another agência and conta, the same convênio: the same beneficiary's boleto (the convênio names it).
    const sameConvenio = await adapter().consultar({ conta: { ...bb, agencia: '9999', conta: '1' }, nossoNumero: '10020' })
    assert.deepEqual(sameConvenio.ok && sameConvenio.situacao, 'registrada')
  })

  it('passes the bank\'s refusals on as final, with its code', async () => {
    const r = await adapter().registrar(pedido('10003', { pagador: { documento: '123', nome: 'X' } }))
    assert.ok(!r.ok && r.tipo === 'recusada')
    assert.equal(r.codigo, 'pagador_invalido')
    const wrongToken = await httpBankAdapter({ baseUrl: bank.url, token: 'outro', timeoutMs: 2000 }).registrar(pedido('10004'))
    assert.ok(!wrongToken.ok && wrongToken.tipo === 'recusada' && wrongToken.codigo === 'nao_autorizado')
  })

  it('calls an outage, a slow answer and a closed port unavailable: to be tried again, nothing registered', async () => {
    const before = bank.boletos()
    bank.falhar(2)
    for (let i = 0; i < 2; i++) {
      const r = await adapter().registrar(pedido('10005'))
      assert.deepEqual(r, { ok: false, tipo: 'indisponivel', motivo: 'o banco respondeu 503' })
    }
    assert.equal(bank.boletos(), before)
    assert.ok((await adapter().registrar(pedido('10005'))).ok, 'the third try registers')
    bank.lentidao(500)
    const slow = await httpBankAdapter({ baseUrl: bank.url, token: 'segredo-do-sandbox', timeoutMs: 100 }).registrar(pedido('10006'))
    assert.deepEqual(slow, { ok: false, tipo: 'indisponivel', motivo: 'sem resposta em 100 ms' })
    bank.lentidao(0)
    const closed = await httpBankAdapter({ baseUrl: 'http://127.0.0.1:9/x', token: 't', timeoutMs: 1000 }).registrar(pedido('1'))
    assert.deepEqual(closed, { ok: false, tipo: 'indisponivel', motivo: 'conexão recusada' })
  })

  it('liquidates on request, answers it to a query, and writes it in the account\'s retorno', async () => {
    await adapter().registrar(pedido('10007'))
    const auth = { authorization: 'Bearer segredo-do-sandbox', 'content-type': 'application/json' }
    const other = await fetch(`${bank.url}/boletos/10007/liquidacao?conta=9999-1`, { method: 'POST', headers: auth, body: '{}' })
    assert.equal(other.status, 404, 'another account\'s boleto of the same number is not this one')
    const pay = await fetch(`${bank.url}/boletos/10007/liquidacao?conta=1248-02124`, {
      method: 'POST', headers: { authorization: 'Bearer segredo-do-sandbox', 'content-type': 'application/json' },
      body: JSON.stringify({ valor_centavos: 1_240_000, data: '2026-12-16' }),
    })
    assert.equal(pay.status, 200)
    const q = await adapter().consultar({ conta: CONTA, nossoNumero: '10007' })
    assert.ok(q.ok)
    assert.deepEqual([q.situacao, q.pagoCentavos, q.pagoEm], ['liquidada', 1_240_000n, '2026-12-16'])
    const baixa = await adapter().instruir({ id: 'i-10007', conta: CONTA, nossoNumero: '10007', instrucao: 'baixa' })
    assert.ok(!baixa.ok && baixa.tipo === 'recusada' && baixa.codigo === 'boleto_encerrado', 'a paid boleto takes no instruction')
    const file = await (await fetch(`${bank.url}/retornos/341/1248-02124`, { headers: { authorization: 'Bearer segredo-do-sandbox' } })).text()
    async function* source() { yield file }
    const read: TituloRetornado[] = []
    const gen = lerRetorno240('341', linhasDe(source()))
    for (let n = await gen.next(); !n.done; n = await gen.next()) read.push(n.value)
    const paid = read.find((t) => t.sequencia === '10007')
    assert.deepEqual(paid && [paid.ocorrencia, paid.pagoCentavos, paid.jurosMultaCentavos, paid.tarifaCentavos, paid.dataCredito],
      ['liquidacao', 1_240_000n, 5433n, 350n, '2026-12-16'])
    const again = await (await fetch(`${bank.url}/retornos/341/1248-02124`, { headers: { authorization: 'Bearer segredo-do-sandbox' } })).text()
    assert.equal(again.split('\r\n').filter(Boolean).length, 4, 'a movement delivered whole is not written again: headers and trailers only')
  })

  it('refuses a failure count that is not a small whole number, and a payment of nothing', async () => {
    const auth = { authorization: 'Bearer segredo-do-sandbox', 'content-type': 'application/json' }
    for (const n of ['Infinity', '-1', '1.5', '100000']) {
      assert.equal((await fetch(`${bank.url}/falhas?n=${n}`, { method: 'POST', headers: auth })).status, 400, n)
    }
    await adapter().registrar(pedido('10008'))
    const zero = await fetch(`${bank.url}/boletos/10008/liquidacao?conta=1248-02124`, { method: 'POST', headers: auth, body: '{"valor_centavos":0}' })
    assert.equal(zero.status, 422)
    assert.ok((await adapter().registrar(pedido('10009'))).ok, 'the bank still answers')
  })

  it('calls a bank that stalls in the middle of its answer, or answers 2xx with nothing, unavailable', async () => {
    const { createServer } = await import('node:http')
    const server = createServer((req, res) => {
      if (req.url?.includes('/vazio')) return res.writeHead(200, { 'content-type': 'application/json' }).end()
      res.writeHead(200, { 'content-type': 'application/json' }).write('{"pix":')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    try {
      const port = (server.address() as { port: number }).port
      const stalled = await httpBankAdapter({ baseUrl: `http://127.0.0.1:${port}`, token: 't', timeoutMs: 200 }).registrar(pedido('1'))
      assert.deepEqual(stalled, { ok: false, tipo: 'indisponivel', motivo: 'sem resposta em 200 ms' })
      const empty = await httpBankAdapter({ baseUrl: `http://127.0.0.1:${port}/vazio`, token: 't', timeoutMs: 1000 }).registrar(pedido('1'))
      assert.deepEqual(empty, { ok: false, tipo: 'indisponivel', motivo: 'resposta do banco sem o PIX da cobrança' })
    } finally {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    }
  })

  it('answers an instruction repeated by its id with the first answer: a baixa retried after a lost answer is not refused as a second', async () => {
    assert.ok((await adapter().registrar(pedido('10021'))).ok)
    const first = await adapter().instruir({ id: 'baixa-10021', conta: CONTA, nossoNumero: '10021', instrucao: 'baixa' })
    assert.ok(first.ok, JSON.stringify(first))
    assert.deepEqual(await adapter().instruir({ id: 'baixa-10021', conta: CONTA, nossoNumero: '10021', instrucao: 'baixa' }), first)
    const other = await adapter().instruir({ id: 'outra', conta: CONTA, nossoNumero: '10021', instrucao: 'protestar' })
    assert.ok(!other.ok && other.tipo === 'recusada' && other.codigo === 'boleto_encerrado', 'another instruction finds it written off')
  })
})

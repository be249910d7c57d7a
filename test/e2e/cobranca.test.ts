// Collections in a real browser (issue 33: "charges a título, downloads the remessa, uploads a retorno that liquidates
// it, and sees … the ledger move"): a formalized operation, a confirmed Banco do Brasil collection account and a
// charge made through the API; the operador opens Cobrança from the navigation and sees the charge, makes the
// account's remessa and downloads it (the charge's nosso número and value at the bank's positions), sends the bank's
// retorno (written by the sandbox bank) on the Retornos page, lands on the file's page with the liquidation applied,
// and finds its entry in the Razão. axe-core in light and dark on each page of the section; one walk, with
// JavaScript (the forms need none).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { mod10 } from '../../src/modules/collections/boleto/modulos.ts'
import { retornoSandbox240 } from '../../src/modules/collections/sandbox/retorno240.ts'
import { brl, dataBr } from '../../src/platform/lib/brl.ts'
import { colleagueWithPassword, personWithPassword } from '../helpers/account-web.ts'
import { freshCnpj } from '../helpers/cnpj.ts'
import { callerFor, created, EXAMPLE_TERM, exampleRegisters, exampleTitles, key } from '../modules/operations/helpers.ts'
import { axeChecked, dayPlus, signIn } from './backoffice-steps.ts'
import { noBrowser, openPage, screenshot, useBrowser, useServer } from './browser.ts'

const BB = { nome: 'BB cobrança', banco: '001', agencia: '3064', conta: '123456', conta_digito: 'X', carteira: '17', convenio: '1234567' }
const CONTA = { banco: '001' as const, agencia: '3064', conta: '123456', contaDigito: 'X', convenio: '1234567', inscricao: '11444777000161',
  empresa: 'FACTORING EXEMPLO' }

describe('Cobrança in the browser', () => {
  const chrome = useBrowser()
  const server = useServer()

  /** The example's operation, of today, formalized; the BB account confirmed by a second person; its first título charged. */
  async function charged() {
    const admin = await personWithPassword(server.db)
    const operador = await colleagueWithPassword(server.db, admin.clienteId, 'operador')
    const aprovador = await colleagueWithPassword(server.db, admin.clienteId, 'aprovador')
    const call = await callerFor(server.db, server.app, admin.clienteId, operador.usuarioId)
    // A remessa names the customer by its CNPJ and the sacado by its address.
    await server.db.ownerTransaction((tx) => tx.query('UPDATE clientes SET documento = $2 WHERE id = $1', [admin.clienteId, freshCnpj()]))
    const regs = await exampleRegisters(call, { sacado: { logradouro: 'Av. Brasil', numero: '1', bairro: 'Centro', cep: '01000000', cidade: 'São Paulo' } })
    // The example's títulos, due after today: the quote is accepted on the operation's own day.
    const titulos = exampleTitles(regs.sacados.map((s: { id: string }) => s.id)).map((t, i) => ({ ...t, emissao: dayPlus(-3), vencimento: dayPlus(30 + i) }))
    const op = created(await call('POST', '/api/operacoes', { cedente_id: regs.cedente.id, produto_id: regs.produto.id, titulos }))
    created(await call('POST', `/api/operacoes/${op.id}/cotacao`))
    created(await call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key()), 200)
    created(await call('POST', `/api/operacoes/${op.id}/formalizacao`, { ...EXAMPLE_TERM, assinado_em: new Date().toISOString() }), 200)
    const account = created(await call('POST', '/api/contas-cobranca', BB))
    const approve = await callerFor(server.db, server.app, admin.clienteId, aprovador.usuarioId)
    created(await approve('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    const charge = created(await call('POST', '/api/cobrancas', { titulo_id: op.titulos[0].id, conta_cobranca_id: account.id }, key()))
    return { email: operador.email, aprovador: aprovador.email, charge, titulo: op.titulos[0].numero as string,
      outro: op.titulos[1] as { id: string, numero: string } }
  }

  it('the charge listed, its remessa downloaded, the bank\'s retorno applied, and its entry in the Razão', { skip: noBrowser, timeout: 120_000 }, async () => {
    const { email, charge, titulo } = await charged()
    const w = await openPage(chrome.browser, { viewport: { width: 1366, height: 900 } })
    try {
      const { page } = w
      await signIn(page, server.base, email)
      await Promise.all([page.waitForURL(`${server.base}/conta/cobrancas`), page.locator('#menu-retaguarda').getByRole('link', { name: 'Cobrança' }).click()])
      const row = page.locator(`tr[data-cobranca="${charge.id}"]`)
      assert.deepEqual(await row.locator('td').allInnerTexts().then((t) => t.slice(0, 7)),
        [titulo, 'Sacado 11144477735', 'BB cobrança', charge.nosso_numero, dataBr(charge.vencimento), brl(charge.valor_centavos), 'a registrar'])
      await axeChecked(page, 'the charges')
      await screenshot(page, 'cobranca-cobrancas-1366')

      // The account's remessa, made on its page and downloaded: the charge at the bank's positions (P segment).
      await Promise.all([page.waitForURL(`${server.base}/conta/cobrancas/remessas`), page.click('#link-remessas')])
      await Promise.all([page.waitForURL(/\/conta\/cobrancas\/remessas\?feito=/), page.click('#gerar-remessa')])
      const link = page.locator('#remessas tbody tr a[download]')
      assert.equal(await link.count(), 1)
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
      const chunks: Buffer[] = []
      for await (const c of await download.createReadStream()) chunks.push(c as Buffer)
      const remessa = Buffer.concat(chunks).toString('latin1').split('\r\n').filter(Boolean)
      const p = remessa.find((l) => l[7] === '3' && l[13] === 'P')!
      assert.ok(p, 'a P segment')
      assert.equal(p.slice(37, 57).trim(), `1234567${charge.nosso_numero_sequencia.padStart(10, '0')}`)
      assert.equal(BigInt(p.slice(85, 100)), BigInt(charge.valor_centavos))
      await axeChecked(page, 'the remessas, after one was made')

      await Promise.all([page.waitForURL(`${server.base}/conta/cobrancas/retornos`), page.click('#link-retornos')])
      await axeChecked(page, 'the retornos, with the form')
      // The bank confirms the charge and then liquidates it whole, keeping a 3,50 fee.
      const hoje = dayPlus(0)
      const mov = { sequencia: charge.nosso_numero_sequencia, seuNumero: titulo, vencimento: charge.vencimento, valorCentavos: BigInt(charge.valor_centavos) }
      const file = retornoSandbox240(CONTA, 7, hoje, [{ ...mov, codigo: '02', dataOcorrencia: hoje },
        { ...mov, codigo: '06', pagoCentavos: BigInt(charge.valor_centavos), tarifaCentavos: 350n, dataOcorrencia: hoje, dataCredito: hoje }])
      const form = page.locator('#form-retorno')
      await form.locator('select[name="conta_cobranca_id"]').selectOption(charge.conta_cobranca_id)
      const bytes = Buffer.from(file, 'latin1')
      await form.locator('input[name="arquivo"]').setInputFiles({ name: 'CBR0007.ret', mimeType: 'application/octet-stream', buffer: bytes })
      await Promise.all([page.waitForURL(/\/conta\/cobrancas\/retornos\/[0-9a-f-]{36}\?feito=retornos$/), form.locator('button[type="submit"]').click()])
      assert.equal(await page.locator('h1').innerText(), 'Retorno 7 de BB cobrança')
      assert.equal(await page.locator('#estado').innerText().then((t) => t.split(' em ')[0]), 'aplicado')
      const paid = page.locator('tr[data-linha="5"] td')
      assert.deepEqual(await paid.allInnerTexts().then((t) => [t[1], t[3], t[7], t[8]]), ['liquidação (06)', brl(charge.valor_centavos), 'R$ 3,50', 'aplicada'])
      await axeChecked(page, 'the retorno applied')
      await screenshot(page, 'cobranca-retorno-1366')

      await Promise.all([page.waitForURL(`${server.base}/conta/cobrancas`), page.locator('#menu-retaguarda').getByRole('link', { name: 'Cobrança' }).click()])
      assert.equal(await row.locator('td[data-rotulo="Estado"]').innerText(), 'liquidada')
      await Promise.all([page.waitForURL(`${server.base}/conta/razao`), page.locator('#menu-retaguarda').getByRole('link', { name: 'Razão' }).click()])
      const entry = page.locator('#lancamentos tbody tr', { hasText: `Retorno 7: liquidação da cobrança nº ${charge.numero}, título ${titulo}` })
      assert.equal(await entry.count(), 1)
      const lines = await entry.innerText()
      for (const line of [`Banco (conta movimento): D ${brl(charge.valor_centavos - 350)}`, 'Despesas bancárias: D R$ 3,50']) {
        assert.ok(lines.includes(line), `${line} in ${lines}`)
      }
      assert.deepEqual(w.errors(), [])
    } finally {
      await w.close()
    }
  })

  it('a título charged by the new charge\'s form, and an account added and confirmed by two people, in the browser', { skip: noBrowser, timeout: 120_000 },
    async () => {
      const { email, aprovador, outro } = await charged()
      const w = await openPage(chrome.browser, { viewport: { width: 1366, height: 900 } })
      try {
        const { page } = w
        await signIn(page, server.base, email)
        await page.goto(`${server.base}/conta/cobrancas`)
        await Promise.all([page.waitForURL(`${server.base}/conta/cobrancas/nova`), page.click('#link-nova-cobranca')])
        await axeChecked(page, 'the new charge')
        const form = page.locator('#form-cobranca')
        await form.locator('select[name="titulo_id"]').selectOption(outro.id)
        await form.locator('select[name="juros_tipo"]').selectOption('valor_dia')
        await form.locator('input[name="juros_valor"]').fill('4,12')
        await form.locator('input[name="multa"]').fill('2')
        await Promise.all([page.waitForURL(`${server.base}/conta/cobrancas?feito=cobrancas`), page.click('#emitir-cobranca')])
        assert.match(await page.locator('#aviso').innerText(), /Cobrança emitida/)
        const row = page.locator('#cobrancas tbody tr', { hasText: outro.numero })
        assert.equal(await row.locator('td[data-rotulo="Estado"]').innerText(), 'a registrar')

        // An Itaú account added by the operador; the aprovador confirms it.
        await Promise.all([page.waitForURL(`${server.base}/conta/cobrancas/contas`), page.click('#link-contas-cobranca')])
        await axeChecked(page, 'the collection accounts')
        const add = page.locator('#form-conta-cobranca')
        await add.locator('input[name="nome"]').fill('Itaú cobrança')
        await add.locator('select[name="banco"]').selectOption('341')
        await add.locator('input[name="agencia"]').fill('1234')
        await add.locator('input[name="conta"]').fill('56789')
        await add.locator('input[name="conta_digito"]').fill(String(mod10('123456789')))
        await add.locator('input[name="carteira"]').fill('109')
        await Promise.all([page.waitForURL(/\/conta\/cobrancas\/contas\?feito=contas-cobranca$/), page.click('#incluir-conta')])
        const itau = page.locator('#contas-cobranca tbody tr', { hasText: 'Itaú cobrança' })
        assert.match(await itau.locator('td[data-rotulo="Situação"]').innerText(), /^aguarda a confirmação de outra pessoa/)
        await screenshot(page, 'cobranca-contas-1366')
        assert.deepEqual(w.errors(), [])
      } finally {
        await w.close()
      }
      const other = await openPage(chrome.browser, { viewport: { width: 1366, height: 900 } })
      try {
        const { page } = other
        await signIn(page, server.base, aprovador)
        await page.goto(`${server.base}/conta/cobrancas/contas`)
        const itau = page.locator('#contas-cobranca tbody tr', { hasText: 'Itaú cobrança' })
        await Promise.all([page.waitForURL(/\/conta\/cobrancas\/contas\?feito=conta-cobranca%2Fconfirmacao$/), itau.getByRole('button').click()])
        assert.match(await itau.locator('td[data-rotulo="Situação"]').innerText(), /^confirmada por /)
        await axeChecked(page, 'the collection accounts, confirmed')
        assert.deepEqual(other.errors(), [])
      } finally {
        await other.close()
      }
    })
})

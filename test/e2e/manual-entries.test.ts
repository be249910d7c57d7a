// Manual ledger entries in a real browser (Debian's Chromium), two people of one customer (issue 32 item 10): the
// customer paid an operation from money its ledger never received, so the razão shows the bank in credit; the
// administrador records the "aporte de capital" on the page under the razão, an aprovador (another browser context)
// reads its lines and confirms it, and the balancete shows the bank no longer in credit. With JavaScript and without;
// axe-core in light and dark; screenshots at a laptop's and a phone's widths under test-results/.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { brl } from '../../src/platform/lib/brl.ts'
import { colleagueWithPassword, personWithPassword } from '../helpers/account-web.ts'
import { callerFor, created, exampleRegisters, key, type Caller } from '../modules/operations/helpers.ts'
import { noBrowser, openPage, screenshot, useBrowser, useServer } from './browser.ts'
import { axeChecked, dayPlus, sendForm, signIn } from './backoffice-steps.ts'

const APORTE_CENTAVOS = 10_000_000

/** An operation of one título, accepted, formalized and paid today through the API: the bank goes out by its net amount. */
async function paidOperation(operador: Caller, aprovador: Caller): Promise<number> {
  const { produto, cedente, sacados } = await exampleRegisters(operador)
  const op = created(await operador('POST', '/api/operacoes', { cedente_id: cedente.id, produto_id: produto.id, titulos: [{
    tipo: 'duplicata_mercantil', numero: 'NF-1', sacado_id: sacados[0].id, emissao: dayPlus(-2), vencimento: dayPlus(45), valor_face_centavos: 5_000_000,
  }] }))
  const quote = created(await operador('POST', `/api/operacoes/${op.id}/cotacao`))
  created(await operador('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: quote.versao }, key()), 200)
  created(await operador('POST', `/api/operacoes/${op.id}/formalizacao`, { termo_sha256: 'ab'.repeat(32), assinado_em: new Date(Date.now() - 60_000)
    .toISOString(), signatarios: [{ nome: 'Maria Cedente', documento: '529.982.247-25' }] }), 200)
  const payment = created(await operador('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
  created(await aprovador('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key()), 200)
  created(await operador('POST', `/api/desembolsos/${payment.id}/pagamento`, { id_transacao: `E${randomUUID().replaceAll('-', '')}`,
    pago_em: new Date().toISOString() }, key()), 200)
  return quote.totais.valor_liquido_centavos
}

describe('manual ledger entries in the browser, two people', () => {
  const chrome = useBrowser()
  const server = useServer()

  /** The bank's row of the razão's trial balance: [saldo devedor, saldo credor] as the page shows them. */
  const bank = async (page: Page) => {
    await page.goto(`${server.base}/conta/razao`)
    const row = page.locator('#balancete tr[data-conta="banco"]')
    return [await row.locator('td[data-rotulo="Saldo devedor"]').innerText(), await row.locator('td[data-rotulo="Saldo credor"]').innerText()]
  }

  for (const javaScriptEnabled of [true, false]) {
    it(`${javaScriptEnabled ? 'with' : 'without'} JavaScript: an aporte de capital proposed, confirmed by another person, the bank out of credit`,
      { skip: noBrowser, timeout: 180_000 }, async () => {
        const noSerious = javaScriptEnabled ? axeChecked : async () => {}
        const suffix = javaScriptEnabled ? '' : '-sem-js'
        const admin = await personWithPassword(server.db)
        const operador = await colleagueWithPassword(server.db, admin.clienteId, 'operador')
        const aprovador = await colleagueWithPassword(server.db, admin.clienteId, 'aprovador')
        const net = await paidOperation(await callerFor(server.db, server.app, admin.clienteId, operador.usuarioId),
          await callerFor(server.db, server.app, admin.clienteId, aprovador.usuarioId))
        const ad = await openPage(chrome.browser, { javaScriptEnabled, viewport: { width: 1366, height: 900 } })
        const ap = await openPage(chrome.browser, { javaScriptEnabled, viewport: { width: 390, height: 844 }, isMobile: true })
        try {
          const { page } = ad
          await signIn(ad.page, server.base, admin.email)
          assert.deepEqual(await bank(page), ['', brl(net)], 'the bank in credit: the payment went out, nothing came in')

          await page.click('#link-lancamentos-manuais')
          await page.waitForURL(`${server.base}/conta/razao/lancamentos-manuais`)
          await noSerious(page, 'manual entries, the form')
          await sendForm(page, 'form-lancamento-manual', {
            motivo: 'aporte_capital', historico: 'Aporte de capital dos sócios', justificativa: 'TED dos sócios, extrato de hoje',
            conta_1: 'banco', debito_1: '100.000,00', conta_2: 'capital_social', credito_2: '100.000,00',
          })
          assert.match(await page.locator('#aviso').innerText(), /Lançamento proposto/)
          const card = page.locator('#pendentes li').first()
          assert.match(await card.innerText(), /Aguardando a confirmação de outra pessoa/)
          assert.equal(await page.locator('[id^="botao-confirmar-"]').count(), 0, 'the proposer is never offered the confirmation')
          await noSerious(page, 'manual entries, one waiting')
          await screenshot(page, `lancamentos-manuais-1366${suffix}`)

          await signIn(ap.page, server.base, aprovador.email)
          await ap.page.goto(`${server.base}/conta/razao/lancamentos-manuais`)
          const lines = await ap.page.locator('#pendentes li table tbody tr').allInnerTexts()
          assert.deepEqual(lines.map((l) => l.replace(/\s+/g, ' ').trim()), [
            `Banco (conta movimento) ${brl(APORTE_CENTAVOS)}`, `Capital social ${brl(APORTE_CENTAVOS)}`,
          ], 'the person who confirms reads the lines and amounts first')
          await noSerious(ap.page, 'manual entries, as the aprovador, on a phone')
          await screenshot(ap.page, `lancamentos-manuais-390${suffix}`)
          const confirm = (await ap.page.locator('#pendentes form[id^="confirmar-"]').first().getAttribute('id'))!
          assert.match(await ap.page.locator(`#${confirm} button`).innerText(), new RegExp(brl(APORTE_CENTAVOS).replace('$ ', '\\$\u00a0')))
          await sendForm(ap.page, confirm)
          assert.match(await ap.page.locator('#aviso').innerText(), /Lançamento confirmado/)
          assert.equal(await ap.page.locator('#sem-pendentes').count(), 1)

          assert.deepEqual(await bank(page), [brl(APORTE_CENTAVOS - net), ''], 'the bank no longer in credit')
          const capital = page.locator('#balancete tr[data-conta="capital_social"] td[data-rotulo="Saldo credor"]')
          assert.equal(await capital.innerText(), brl(APORTE_CENTAVOS))
          await noSerious(page, 'the razão with the aporte')
          assert.deepEqual([...ad.errors(), ...ap.errors()], [])
        } finally {
          await ad.close()
          await ap.close()
        }
      })
  }
})

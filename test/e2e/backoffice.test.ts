// The back office in a real browser (Debian's Chromium), as two people of one customer (issue 19): the operador
// registers the product, a cedente and sacados, opens an operation, adds its títulos, quotes it (each line on the
// screen is the API's), accepts, formalizes and asks for the payment, and is never shown an approve button; the
// aprovador, in another browser context, sees the payment and approves it; the operador records the transfer and
// the conta gráfica shows the movement. With JavaScript and without; axe-core in light and dark mode on each page.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { brl, dataBr } from '../../src/platform/lib/brl.ts'
import { brasiliaDay } from '../../src/platform/lib/brasilia-time.ts'
import type { QuoteLine } from '../../src/modules/backoffice/answers.ts'
import { colleagueWithPassword, personWithPassword } from '../helpers/account-web.ts'
import { noBrowser, openPage, screenshot, useBrowser, useServer, type WatchedPage } from './browser.ts'
import { axeChecked, dayPlus, sendForm, signIn } from './backoffice-steps.ts'

describe('the back office in the browser, two people', () => {
  const chrome = useBrowser()
  const server = useServer()

  /** Signs in and goes on to the operations, where the walk starts. */
  const enter = async (w: WatchedPage, email: string) => {
    await signIn(w.page, server.base, email)
    await w.page.click('#menu-retaguarda a[href="/conta/operacoes"]')
    await w.page.waitForURL(`${server.base}/conta/operacoes`)
  }

  for (const javaScriptEnabled of [true, false]) {
    it(`${javaScriptEnabled ? 'with' : 'without'} JavaScript: registers, operation, quote as the API's, accept, formalize, payment by two people`,
      { skip: noBrowser, timeout: 180_000 }, async () => {
        // axe-core runs inside the page, so with JavaScript only: without it the pages are the same markup.
        const noSerious = javaScriptEnabled ? axeChecked : async () => {}
        const admin = await personWithPassword(server.db)
        const operador = await colleagueWithPassword(server.db, admin.clienteId, 'operador')
        const aprovador = await colleagueWithPassword(server.db, admin.clienteId, 'aprovador')
        const op = await openPage(chrome.browser, { javaScriptEnabled })
        const ap = await openPage(chrome.browser, { javaScriptEnabled })
        try {
          const { page } = op
          await enter(op, operador.email)
          await noSerious(page, 'operations, none yet')

          await page.goto(`${server.base}/conta/produtos`)
          await sendForm(page, 'form-produto', {
            nome: 'Duplicatas 3,5%', taxa_mensal: '3,5', taxa_ad_valorem: '0,3', tarifa: '8,00', tac: '150,00', dias_float: '2',
          })
          await page.goto(`${server.base}/conta/cedentes`)
          await noSerious(page, 'cedentes with the form')
          await sendForm(page, 'form-cedente', {
            documento: '11.222.333/0001-81', razao_social: 'Cedente Exemplo Ltda', municipio_ibge: '3550308', uf: 'SP', perfil_iof: 'pj',
            banco: '341', agencia: '1234', conta: '567890', digito: '1',
          })
          await page.goto(`${server.base}/conta/sacados`)
          for (const documento of ['111.444.777-35', '12.ABC.345/01DE-35']) {
            await sendForm(page, 'form-sacado', { documento, razao_social: `Sacado ${documento}` })
          }

          await page.goto(`${server.base}/conta/operacoes`)
          // Nothing is preselected: the cedente and the product are chosen (Playwright's selectOption takes an option's label too).
          await sendForm(page, 'form-operacao', { cedente_id: 'Cedente Exemplo Ltda (11.222.333/0001-81)', produto_id: 'Duplicatas 3,5% (versão 1)' })
          const opId = /\/conta\/operacoes\/([0-9a-f-]{36})/.exec(page.url())![1]!
          const options = page.locator('#form-titulo select[name="sacado_id"] option')
          const sacados = await Promise.all([0, 1].map(async (i) => (await options.nth(i).getAttribute('value'))!))
          const titles = [['T1', 35, '10.000,00'], ['T2', 50, '25.000,00'], ['T3', 65, '15.000,00']] as const
          for (const [i, [numero, days, valor]] of titles.entries()) {
            await sendForm(page, 'form-titulo', {
              tipo: 'duplicata_mercantil', numero, sacado_id: sacados[i % 2]!, emissao: dayPlus(-3), vencimento: dayPlus(days), valor_face: valor,
            })
          }
          await sendForm(page, 'form-cotar')
          assert.match(await page.locator('#aviso').innerText(), /Operação cotada/)
          const api = await (await page.request.get(`${server.base}/api/operacoes/${opId}`)).json()
          for (const [i, line] of (api.cotacao.linhas as QuoteLine[]).entries()) {
            const cells = (await page.locator(`#cotacao-linhas tr[data-linha="${i}"] td`).allTextContents()).map((t) => t.trim())
            assert.deepEqual(cells, [dataBr(line.vencimento_util), String(line.dias_desconto), brl(line.valor_face_centavos), brl(line.desagio_centavos),
              brl(line.ad_valorem_centavos), brl(line.tarifa_centavos), brl(line.iof_centavos), brl(line.preco_compra_centavos)], `line ${i}`)
          }
          assert.equal(await page.locator('[data-total="valor_liquido"]').innerText(), brl(api.cotacao.totais.valor_liquido_centavos))
          await noSerious(page, 'an operation quoted')
          await screenshot(page, `retaguarda-cotacao${javaScriptEnabled ? '' : '-sem-js'}`)

          await sendForm(page, 'form-aceite')
          await sendForm(page, 'form-formalizacao', {
            termo_sha256: 'ab'.repeat(32), assinado_em: `${brasiliaDay(new Date(Date.now() - 3_600_000))}T00:05`, signatario_nome: 'Maria Cedente',
            signatario_documento: '529.982.247-25',
          })
          await sendForm(page, 'form-desembolso')
          assert.equal(await page.locator('#estado').innerText(), 'em desembolso')
          assert.equal(await page.locator('[id^="botao-aprovar-"]').count(), 0, 'the operador never sees an approve button for their own request')
          await page.goto(`${server.base}/conta/desembolsos`)
          assert.equal(await page.locator('[id^="botao-aprovar-"]').count(), 0)

          await enter(ap, aprovador.email)
          await ap.page.goto(`${server.base}/conta/desembolsos`)
          await noSerious(ap.page, 'payments waiting, as the aprovador')
          assert.match(await ap.page.locator('#pendentes').innerText(), new RegExp(brl(api.cotacao.totais.valor_liquido_centavos).replace('$', '\\$')))
          const approve = (await ap.page.locator('#pendentes form').first().getAttribute('id'))!
          await sendForm(ap.page, approve)
          assert.match(await ap.page.locator('#aviso').innerText(), /Desembolso aprovado/)
          await screenshot(ap.page, `retaguarda-aprovado${javaScriptEnabled ? '' : '-sem-js'}`)

          await page.goto(`${server.base}/conta/operacoes/${opId}`)
          const paid = new Date(Date.now() + 1000)
          while (Date.now() < paid.getTime()) await new Promise((r) => setTimeout(r, 100))
          const brasilia = new Date(paid.getTime() - 3 * 3_600_000).toISOString().slice(0, 19)
          await sendForm(page, approve.replace('aprovar-', 'pagar-'), { id_transacao: 'E0000000020261127abcdef0123456789', pago_em: brasilia })
          assert.equal(await page.locator('#estado').innerText(), 'desembolsada')

          await page.click('#resumo a')
          await page.waitForURL(/\/conta\/cedentes\/[0-9a-f-]{36}/)
          assert.equal(await page.locator('#extrato tbody tr').count(), 2, 'the acquisition and the payment')
          assert.equal(await page.locator('#saldo-final').innerText(), 'R$ 0,00')
          await noSerious(page, 'the conta gráfica')
          await page.goto(`${server.base}/conta/razao`)
          await noSerious(page, 'the ledger')
          await page.goto(`${server.base}/conta/auditoria`)
          const actions = await page.locator('#auditoria tbody tr td[data-rotulo="Ação"]').allInnerTexts()
          for (const acao of ['Operação aberta', 'Operação cotada', 'Cotação aceita', 'Operação formalizada', 'Desembolso pedido',
            'Desembolso aprovado', 'Transferência registrada']) assert.ok(actions.includes(acao), `${acao} in the audit trail: ${actions.join(', ')}`)
          await noSerious(page, 'the audit trail')
          await page.goto(`${server.base}/conta/feriados`)
          await noSerious(page, 'the holidays')
          assert.deepEqual([...op.errors(), ...ap.errors()], [])
        } finally {
          await op.close()
          await ap.close()
        }
      })
  }
})

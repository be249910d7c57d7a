// Approvals a person can decide on, in a real browser (issue 32, item 7): the aprovador reads the payment's card
// (the operation by its number, the cedente, the account's history, who asked, the amount), first sends a reason
// too short (the page says why, by the field's label, and keeps what was typed), then refuses with a reason; the
// operador sees the refusal with the reason and who refused, and may ask again; a cedente form the API refuses comes
// back with the reason and every typed value. The audit page names both people. With
// JavaScript and without; axe-core in light and dark on each page; screenshots at 1,366 and 390 px.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { brl } from '../../src/platform/lib/brl.ts'
import { colleagueWithPassword, personWithPassword } from '../helpers/account-web.ts'
import { callerFor, created, exampleRegisters, key } from '../modules/operations/helpers.ts'
import { noBrowser, openPage, screenshot, useBrowser, useServer } from './browser.ts'
import { axeChecked, dayPlus, signIn, submitForm } from './backoffice-steps.ts'

describe('a payment refused with a reason, in the browser', () => {
  const chrome = useBrowser()
  const server = useServer()

  /** The card's value for term `dt`. */
  const fact = (page: Page, id: string, dt: string) => page.locator(`[data-desembolso="${id}"] dt:text-is("${dt}") + dd`).innerText()

  for (const javaScriptEnabled of [true, false]) {
    it(`${javaScriptEnabled ? 'with' : 'without'} JavaScript`, { skip: noBrowser, timeout: 180_000 }, async () => {
      const noSerious = javaScriptEnabled ? axeChecked : async () => {}
      const admin = await personWithPassword(server.db)
      const operador = await colleagueWithPassword(server.db, admin.clienteId, 'operador')
      const aprovador = await colleagueWithPassword(server.db, admin.clienteId, 'aprovador')
      // The operation through the API, as the operador's integration would: formalized today, its payment asked.
      const call = await callerFor(server.db, server.app, admin.clienteId, operador.usuarioId)
      const regs = await exampleRegisters(call)
      const today = dayPlus(0)
      const op = created(await call('POST', '/api/operacoes', {
        cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: today,
        titulos: [{ tipo: 'duplicata_mercantil', numero: 'NF-1', sacado_id: regs.sacados[0].id, emissao: today, vencimento: dayPlus(45),
          valor_face_centavos: 1_000_000 }],
      }))
      const quote = created(await call('POST', `/api/operacoes/${op.id}/cotacao`))
      created(await call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: quote.versao }, key()), 200)
      created(await call('POST', `/api/operacoes/${op.id}/formalizacao`, {
        termo_sha256: 'ab'.repeat(32), assinado_em: new Date(Date.now() - 60_000).toISOString(), signatarios: [{ nome: 'Sócia', documento: '52998224725' }],
      }), 200)
      const payment = created(await call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))

      const ap = await openPage(chrome.browser, { javaScriptEnabled, expectNetwork: [422] })
      const opPage = await openPage(chrome.browser, { javaScriptEnabled, expectNetwork: [422] })
      try {
        const { page } = ap
        await signIn(ap.page, server.base, aprovador.email)
        await page.goto(`${server.base}/conta/desembolsos`)
        assert.equal(await fact(page, payment.id, 'Operação'), `Operação nº ${op.numero}`)
        assert.equal(await fact(page, payment.id, 'Cedente'), 'Cedente Exemplo Ltda (11.222.333/0001-81)')
        assert.equal(await fact(page, payment.id, 'Valor'), brl(payment.valor_centavos))
        assert.match(await fact(page, payment.id, 'Histórico da conta'), /^Incluída no cadastro do cedente, em \d{2}\/\d{2}\/\d{4}, [\d:]{8} por Pessoa operador$/)
        assert.match(await fact(page, payment.id, 'Pedido'), /^por Pessoa operador em /)
        await noSerious(page, 'the payments, one waiting')
        const suffix = javaScriptEnabled ? 'js' : 'sem-js'
        for (const width of [1366, 390]) {
          await page.setViewportSize({ width, height: 900 })
          await screenshot(page, `aprovacoes-${width}-${suffix}`)
        }
        await page.setViewportSize({ width: 1366, height: 900 })

        // Too short a reason: refused in words, by its label, with what was typed kept.
        await submitForm(page, `recusa-${payment.id}`, { motivo: 'no' })
        assert.match(await page.locator('#resumo-erros').innerText(), /Motivo da recusa: no mínimo 3 caracteres/)
        assert.equal(await page.locator(`#campo-motivo-recusa-${payment.id}`).inputValue(), 'no')
        await noSerious(page, 'the refusal refused')

        await submitForm(page, `recusa-${payment.id}`, { motivo: 'Conta diferente da do contrato' })
        assert.match(await page.locator('#aviso').innerText(), /Desembolso recusado/)
        // No longer pending: no card, a row of the list of all payments.
        assert.equal(await page.locator(`#pendentes [data-desembolso="${payment.id}"]`).count(), 0)
        assert.equal((await page.locator(`tr[data-desembolso="${payment.id}"] td[data-rotulo="Estado"]`).innerText()).trim(), 'recusado')

        await signIn(opPage.page, server.base, operador.email)
        await opPage.page.goto(`${server.base}/conta/operacoes/${op.id}`)
        assert.equal(await fact(opPage.page, payment.id, 'Situação'), 'recusado')
        assert.match(await fact(opPage.page, payment.id, 'Recusado'), /^por Pessoa aprovador em \d{2}\/\d{2}\/\d{4}, [\d:]{8}: Conta diferente da do contrato$/)
        assert.equal(await opPage.page.locator('#form-desembolso').count(), 1, 'the operation may ask again')
        await noSerious(opPage.page, 'the operation with its payment refused')

        // A refused cedente form: the reason by the field's label, and everything typed still there.
        await opPage.page.goto(`${server.base}/conta/cedentes`)
        const typed = { documento: '11.222.333/0001-82', razao_social: 'Cedente Digitado Ltda', limite: '2.500,00', banco: '001', agencia: '4321', conta: '99',
          digito: '7' }
        await submitForm(opPage.page, 'form-cedente', typed)
        assert.match(await opPage.page.locator('#resumo-erros').innerText(), /CPF ou CNPJ: dígito verificador inválido/)
        for (const [name, value] of Object.entries(typed)) {
          assert.equal(await opPage.page.locator(`#form-cedente [name="${name}"]`).inputValue(), value, `${name} kept`)
        }
        await noSerious(opPage.page, 'the cedente form refused')

        await opPage.page.goto(`${server.base}/conta/auditoria?acao=desembolso.recusado`)
        const row = opPage.page.locator('#auditoria tbody tr')
        assert.equal(await row.count(), 1)
        assert.equal(await row.locator('td[data-rotulo="Ação"]').innerText(), 'Desembolso recusado')
        assert.equal(await row.locator('td[data-rotulo="Quem"]').innerText(), 'Pessoa aprovador')
        assert.match(await row.locator('td[data-rotulo="Alvo"]').innerText(), new RegExp(`^Desembolso da operação nº ${op.numero}`))
        await noSerious(opPage.page, 'the audit trail, filtered')
        await screenshot(opPage.page, `auditoria-1366-${suffix}`)
        assert.deepEqual([...ap.errors(), ...opPage.errors()], [])
      } finally {
        await ap.close()
        await opPage.close()
      }
    })
  }
})

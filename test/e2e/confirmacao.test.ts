// The sacado's confirmation page in a real browser, without JavaScript (issue 34): the link from the e-mail opens the
// notice of the assignment with that título alone; a contest without its reason comes back with the error by the
// field and the choice kept; with the reason it is recorded; the link then says what an unknown link says. axe-core
// in light and dark on each page; screenshots at 1,366 and 390 px.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import { rowsAs } from '../helpers/credentials.ts'
import { freshCnpj } from '../helpers/cnpj.ts'
import { personWithPassword } from '../helpers/account-web.ts'
import { callerFor, created, exampleRegisters, key } from '../modules/operations/helpers.ts'
import { noBrowser, openPage, screenshot, useBrowser, useServer } from './browser.ts'
import { axeChecked, dayPlus, submitForm } from './backoffice-steps.ts'

describe('the sacado confirms or contests a título on its page', () => {
  const chrome = useBrowser()
  const server = useServer({ env: { MAIL_WORKER: 'off' } })

  // Without JavaScript, as the page is built to work; with it, where axe-core (a script) can check each page drawn.
  for (const javaScriptEnabled of [false, true]) {
    it(`${javaScriptEnabled ? 'with' : 'without'} JavaScript: the notice, a contest refused without its reason, then recorded; the link used up`,
      { skip: noBrowser, timeout: 180_000 }, async () => {
        const noSerious = javaScriptEnabled ? axeChecked : async () => {}
        const admin = await personWithPassword(server.db)
        const call = await callerFor(server.db, server.app, admin.clienteId, admin.usuarioId)
        await server.db.ownerTransaction((tx) => tx.query('UPDATE clientes SET documento = $2 WHERE id = $1', [admin.clienteId, freshCnpj()]))
        const regs = await exampleRegisters(call, { sacado: { email: 'contas@sacado.example' } })
        const today = dayPlus(0)
        const op = created(await call('POST', '/api/operacoes', {
          cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: today,
          titulos: [{ tipo: 'duplicata_mercantil', numero: 'NF-77', sacado_id: regs.sacados[0].id, emissao: today, vencimento: dayPlus(45),
            valor_face_centavos: 1_234_567 }, { tipo: 'duplicata_mercantil', numero: 'NF-78', sacado_id: regs.sacados[0].id, emissao: today,
            vencimento: dayPlus(50), valor_face_centavos: 100_000 }],
        }))
        const titulo = op.titulos[0]
        created(await call('POST', `/api/titulos/${titulo.id}/confirmacao`, { meio: 'link' }, key()))
        const [mail] = await rowsAs<{ texto: string }>(server.db, undefined,
          `SELECT texto FROM outbox WHERE tipo = 'confirmacao_link' AND cliente_id = '${admin.clienteId}'`)
        const token = /\/confirmacao\/([A-Za-z0-9_-]{43})/.exec(mail!.texto)![1]

        const w = await openPage(chrome.browser, { javaScriptEnabled, expectNetwork: [422, 404] })
        try {
          const { page } = w
          await page.goto(`${server.base}/confirmacao/${token}`)
          assert.equal(await page.locator('h1').innerText(), 'Confirmação do título nº NF-77')
          const facts = await page.locator('#titulo').innerText()
          for (const part of ['NF-77', 'R$ 12.345,67', 'Cedente Exemplo Ltda (11.222.333/0001-81)', 'Oferecido em cessão a']) {
            assert.ok(facts.includes(part), part)
          }
          assert.ok(!(await page.content()).includes('NF-78'), 'no other título')
          await noSerious(page, 'the confirmation page')
          if (!javaScriptEnabled) {
            for (const width of [1366, 390]) {
              await page.setViewportSize({ width, height: 900 })
              await screenshot(page, `confirmacao-${width}`)
            }
          }

          await page.locator('#resposta-contesto').check()
          await submitForm(page, 'form-confirmacao')
          assert.equal(await page.locator('#erro-motivo').innerText(), 'Informe o motivo da contestação.')
          assert.ok(await page.locator('#resposta-contesto').isChecked(), 'the choice is kept')
          assert.equal(await page.locator('#campo-motivo').getAttribute('aria-invalid'), 'true')
          await noSerious(page, 'the page with its error')

          await submitForm(page, 'form-confirmacao', { motivo: 'Mercadoria devolvida, nota de devolução 991' })
          assert.equal(await page.locator('h1').innerText(), 'Resposta registrada')
          await noSerious(page, 'the answer recorded')
          const read = created(await call('GET', `/api/titulos/${titulo.id}/confirmacoes`), 200)
          assert.deepEqual([read.confirmacao_estado, read.itens[0].observacao], ['contestado', 'Mercadoria devolvida, nota de devolução 991'])

          const used = await page.goto(`${server.base}/confirmacao/${token}`)
          const usedText = await page.locator('main').innerText()
          assert.equal(used!.status(), 404)
          assert.equal(await page.locator('h1').innerText(), 'Link de confirmação inválido')
          await noSerious(page, 'the used link')
          const unknown = await page.goto(`${server.base}/confirmacao/${randomBytes(32).toString('base64url')}`)
          assert.equal(unknown!.status(), 404)
          assert.equal(await page.locator('main').innerText(), usedText, 'a used link says what an unknown one says')
          assert.deepEqual(w.errors(), [])
        } finally {
          await w.close()
        }
      })
  }
})

// The back office's remessas (issue 33): /conta/cobrancas/remessas, in the Cobrança section, lists the files made, each with its download link (the
// API's file, fetched with the page's session as the browser would), and its form makes the next file of a cnab
// account; a file with nothing to send comes back with the reason; a person who only reads sees no form.
import { freshCnpj } from '../../helpers/cnpj.ts'
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { mod10 } from '../../../src/modules/collections/boleto/modulos.ts'
import { colleagueWithPassword, personWithPassword } from '../../helpers/account-web.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { callerFor, created, EXAMPLE_NOW, exampleRegisters, formalizedExample, key, person, settableClock } from '../operations/helpers.ts'
import { refusalsOn, rowCells, signIn } from './steps.ts'

const ENDERECO = { logradouro: 'Rua das Acácias', numero: '100', bairro: 'Centro', cep: '13010000', cidade: 'Campinas', uf: 'SP' }

describe('the back office\'s remessas', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('makes the file of a cnab account, lists it with its download, and says when there is nothing to send', async () => {
    clock.set(EXAMPLE_NOW)
    const admin = await personWithPassword(ctx.db)
    const call = await callerFor(ctx.db, ctx.app, admin.clienteId, admin.usuarioId, clock)
    await ctx.db.ownerTransaction((tx) => tx.query('UPDATE clientes SET documento = $2 WHERE id = $1', [admin.clienteId, freshCnpj()]))
    const regs = await exampleRegisters(call, { sacado: ENDERECO })
    regs.sacados[1] = created(await call('POST', '/api/sacados', { documento: '11222333000181', razao_social: 'Sacado Numérico', ...ENDERECO }))
    const { op } = await formalizedExample(call, regs)
    const conta = { nome: 'Itaú arquivos', banco: '341', agencia: '1234', conta: '45678', conta_digito: String(mod10('123445678')), carteira: '109' }
    const account = created(await call('POST', '/api/contas-cobranca', conta))
    const aprovador = await person(ctx.db, admin.clienteId, 'aprovador', ctx.app, clock)
    created(await aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    for (const t of op.titulos as { id: string }[]) created(await call('POST', '/api/cobrancas', { titulo_id: t.id, conta_cobranca_id: account.id }, key()))

    const web = await signIn(ctx.app, admin.email)
    const empty = await web.get('/conta/cobrancas/remessas')
    assert.equal(empty.statusCode, 200)
    assert.match(empty.body, /id="remessas-vazio">Nenhuma remessa ainda/)
    assert.match((await web.get('/conta/cobrancas')).body, /<a href="\/conta\/cobrancas\/remessas" id="link-remessas">Remessas CNAB<\/a>/,
      'reached from the Cobrança section')

    const page = await web.done('/conta/cobrancas/remessas', 'form-remessa', { conta_cobranca_id: account.id })
    assert.match(page.body, /Remessa gerada: baixe o arquivo/)
    const [remessa] = created(await call('GET', '/api/cnab/remessas'), 200).itens
    assert.deepEqual(rowCells(page.body, `data-remessa="${remessa.id}"`), {
      Conta: 'Itaú arquivos', NSA: '1', Layout: 'CNAB 240', 'Cobranças': '3', 'Instruções': '0', Valor: 'R$ 50.000,00', Arquivo: remessa.nome_arquivo,
    })
    const link = new RegExp(`<a href="(/api/cnab/remessas/${remessa.id}/arquivo)" download="${remessa.nome_arquivo}">`).exec(page.body)
    assert.ok(link, 'the file\'s link')
    const file = await ctx.app.inject({ url: link[1]!, headers: { cookie: web.cookie, 'sec-fetch-site': 'same-origin' } })
    assert.equal(file.statusCode, 200, file.body)
    assert.equal(file.headers['content-disposition'], `attachment; filename="${remessa.nome_arquivo}"`)

    const again = await web.submit('/conta/cobrancas/remessas', 'form-remessa', { conta_cobranca_id: account.id })
    assert.equal(again.statusCode, 422)
    assert.match(refusalsOn(again.body), /Nada a enviar ao banco nesta conta/)

    const reader = await colleagueWithPassword(ctx.db, admin.clienteId, 'consulta')
    const seen = await (await signIn(ctx.app, reader.email)).get('/conta/cobrancas/remessas')
    assert.equal(seen.statusCode, 200)
    assert.ok(seen.body.includes(`data-remessa="${remessa.id}"`))
    assert.doesNotMatch(seen.body, /id="form-remessa"/, 'who only reads is offered no form')
  })

  it('the sacado form takes the address the remessa prints, the CEP as people type it; a bad one is told by its label', async () => {
    clock.set(EXAMPLE_NOW)
    const admin = await personWithPassword(ctx.db)
    const call = await callerFor(ctx.db, ctx.app, admin.clienteId, admin.usuarioId, clock)
    const web = await signIn(ctx.app, admin.email)
    const form = { documento: '111.444.777-35', razao_social: 'Maria Compradora', ...ENDERECO, cep: '13010-000', complemento: 'sala 2' }
    const bad = await web.submit('/conta/sacados', 'form-sacado', { ...form, cep: '1301' })
    assert.equal(bad.statusCode, 422)
    assert.match(refusalsOn(bad.body), /CEP:/)
    await web.done('/conta/sacados', 'form-sacado', form)
    const [made] = created(await call('GET', '/api/sacados'), 200).itens
    assert.deepEqual([made.logradouro, made.numero, made.complemento, made.bairro, made.cep, made.cidade, made.uf],
      ['Rua das Acácias', '100', 'sala 2', 'Centro', '13010000', 'Campinas', 'SP'])
  })
})

// What the back office refuses, and how: an amount that is not one (nothing sent, the page again with what was
// typed), the API's own refusals in words beside the form, a post from another site or without the page's token,
// another customer's ids (404), a role that does not reach a form (not offered, refused if forged), the person who
// asked for a payment approving it, and a form posted twice (one change), also while the first is still running.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { colleagueWithPassword, personWithPassword, postForm } from '../../helpers/account-web.ts'
import { rowsAs } from '../../helpers/credentials.ts'
import { holdInAnotherSession, onPostgresOnly } from '../../helpers/database.ts'
import { until } from '../../helpers/wait.ts'
import pg from 'pg'
import { useTestApp } from '../../helpers/fixture.ts'
import { callerFor, created, EXAMPLE_NOW, exampleRegisters, exampleTitles, settableClock } from '../operations/helpers.ts'
import { hiddenFields, paymentAsked, refusalsOn, signIn } from './steps.ts'

describe('the back office refuses', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  /** A customer with the example's registers and a draft operation, made through the API by its administrador. */
  const draft = async () => {
    const admin = await personWithPassword(ctx.db)
    const call = await callerFor(ctx.db, ctx.app, admin.clienteId, admin.usuarioId)
    const regs = await exampleRegisters(call)
    const op = created(await call('POST', '/api/operacoes', { cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-05' }))
    return { admin, call, regs, op, web: await signIn(ctx.app, admin.email) }
  }

  it('an amount that is not one: nothing sent, the page again with the field\'s error and what was typed', async () => {
    clock.set(EXAMPLE_NOW)
    const { web, op, regs, admin } = await draft()
    const path = `/conta/operacoes/${op.id}`
    for (const typed of ['12,345', '1,2,3', '-5,00', 'dez reais', '99999999999999999,00']) {
      const res = await web.submit(path, 'form-titulo', {
        tipo: 'cheque', numero: 'X1', sacado_id: regs.sacados[0].id, emissao: '2026-10-01', vencimento: '2026-11-04', valor_face: typed,
      })
      assert.equal(res.statusCode, 422, typed)
      assert.match(refusalsOn(res.body), /erro-valor_face: valor em reais, como 1\.234,56/, typed)
      assert.ok(res.body.includes(`aria-describedby="dica-valor_face erro-valor_face" aria-invalid="true" value="${typed}"`), typed)
      assert.ok(res.body.includes('value="X1"'), 'what was typed is kept')
    }
    assert.deepEqual(await rowsAs(ctx.db, admin.clienteId, 'select id from titulos'), [])
  })

  it('the API\'s refusal, in words beside its field or above the form, with status and typed values kept', async () => {
    const { web } = await draft()
    const dup = await web.submit('/conta/sacados', 'form-sacado', { documento: '111.444.777-35', razao_social: 'Outro nome' })
    assert.equal(dup.statusCode, 409)
    assert.match(refusalsOn(dup.body), /erro-documento: a empresa já tem um cadastro com este documento/)
    assert.ok(dup.body.includes('value="Outro nome"'))
    const short = await web.submit('/conta/sacados', 'form-sacado', { documento: '111.444.777-36', razao_social: 'X' })
    assert.equal(short.statusCode, 422)
    assert.match(refusalsOn(short.body), /erro-razao_social: no mínimo 2 caracteres/)
    const digits = await web.submit('/conta/sacados', 'form-sacado', { documento: '111.444.777-36', razao_social: 'Sacado de dígito errado' })
    assert.equal(digits.statusCode, 422)
    assert.match(refusalsOn(digits.body), /erro-documento: dígito verificador inválido/)
  })

  it('a post from another site, without the page\'s token, or without a session; another customer\'s ids', async () => {
    const { web, op } = await draft()
    const page = await web.get(`/conta/operacoes/${op.id}`)
    const { action, fields } = hiddenFields(page.body, 'form-cancelar')
    const asked = { ...fields, motivo: 'desistência' }
    assert.equal((await postForm(ctx.app, action, asked, { cookie: web.cookie, headers: { origin: 'https://outro.example' } })).statusCode, 403)
    assert.equal((await postForm(ctx.app, action, { ...asked, csrf: 'x' }, { cookie: web.cookie })).statusCode, 403)
    const anonymous = await postForm(ctx.app, action, asked)
    assert.equal(anonymous.statusCode, 303)
    assert.equal(anonymous.headers.location, '/conta/entrar')
    assert.equal((await web.get(`/conta/operacoes/${op.id}`)).body.includes('<dd id="estado">rascunho</dd>'), true, 'nothing changed')

    const other = await draft()
    for (const path of [`/conta/operacoes/${other.op.id}`, `/conta/cedentes/${other.regs.cedente.id}`, '/conta/operacoes/nao-e-um-id']) {
      assert.equal((await web.get(path)).statusCode, 404, path)
    }
    const forged = await postForm(ctx.app, `/conta/operacoes/${other.op.id}/cancelamento`, asked, { cookie: web.cookie })
    assert.equal(forged.statusCode, 404)
    assert.equal((await other.call('GET', `/api/operacoes/${other.op.id}`)).json().estado, 'rascunho')
  })

  it('a role that does not reach a form: not offered, and refused when forged', async () => {
    const { web, op, admin } = await draft()
    const consulta = await signIn(ctx.app, (await colleagueWithPassword(ctx.db, admin.clienteId, 'consulta')).email)
    for (const [path, form] of [['/conta/operacoes', 'form-operacao'], ['/conta/cedentes', 'form-cedente'], ['/conta/produtos', 'form-produto'],
      ['/conta/feriados', 'form-feriado'], [`/conta/operacoes/${op.id}`, 'form-titulo']] as const) {
      const page = await consulta.get(path)
      assert.equal(page.statusCode, 200, path)
      assert.ok(!page.body.includes(`id="${form}"`), `${form} is not offered to consulta`)
    }
    // The consulta's own session and token, on the administrador's form.
    const fields = hiddenFields((await web.get(`/conta/operacoes/${op.id}`)).body, 'form-cancelar').fields
    const own = /name="csrf" value="([^"]+)"/.exec((await consulta.get('/conta')).body)![1]!
    const refused = await postForm(ctx.app, `/conta/operacoes/${op.id}/cancelamento`, { ...fields, csrf: own, motivo: 'tentativa' },
      { cookie: consulta.cookie })
    assert.equal(refused.statusCode, 403)
    assert.match(refusalsOn(refused.body), /O seu papel não permite este passo/)
  })

  it('who asked for a payment is not offered its approval, and their forged approval is refused by the API', async () => {
    clock.set(EXAMPLE_NOW)
    const { web, op, call, regs } = await draft()
    created(await call('POST', `/api/operacoes/${op.id}/titulos`, { titulos: exampleTitles(regs.sacados.map((s: { id: string }) => s.id)) }))
    const payment = await paymentAsked(call, op.id)
    for (const path of [`/conta/operacoes/${op.id}`, '/conta/desembolsos']) {
      const page = await web.get(path)
      assert.ok(!page.body.includes(`id="botao-aprovar-${payment.id}"`), `${path}: the administrador who asked sees no approve button`)
      assert.ok(!page.body.includes(`id="aprovar-${payment.id}"`))
      assert.match(page.body, /class="aguarda-outra-pessoa"/)
    }
    const csrf = /name="csrf" value="([^"]+)"/.exec((await web.get('/conta')).body)![1]!
    const forged = await postForm(ctx.app, `/conta/desembolsos/${payment.id}/aprovacao`, { csrf, chave: crypto.randomUUID(), volta: '/conta/desembolsos' },
      { cookie: web.cookie })
    assert.equal(forged.statusCode, 403)
    assert.match(refusalsOn(forged.body), /Quem pediu o desembolso não pode aprová-lo/)
  })

  it('a form posted twice (a double click, a reload) makes one change', async () => {
    const { web, op, regs, admin } = await draft()
    const path = `/conta/operacoes/${op.id}`
    const { action, fields } = hiddenFields((await web.get(path)).body, 'form-titulo')
    const filled = {
      ...fields, tipo: 'cheque', numero: 'D1', sacado_id: regs.sacados[0].id, emissao: '2026-10-01', vencimento: '2026-11-04', valor_face: '100,00',
    }
    const [a, b] = [await postForm(ctx.app, action, filled, { cookie: web.cookie }), await postForm(ctx.app, action, filled, { cookie: web.cookie })]
    assert.deepEqual([a.statusCode, b.statusCode], [303, 303])
    assert.equal((await rowsAs(ctx.db, admin.clienteId, 'select id from titulos')).length, 1)
  })
})

describe('the back office, a form posted again while the first is still running', () => {
  const skip = onPostgresOnly('a second session holds the table the first post waits for; PGlite has one connection')
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } }, { skip })

  it('the second answer says the form is still being processed (409), and the first makes the one change', { skip }, async (t) => {
    const admin = await personWithPassword(ctx.db)
    const call = await callerFor(ctx.db, ctx.app, admin.clienteId, admin.usuarioId)
    const regs = await exampleRegisters(call)
    const op = created(await call('POST', '/api/operacoes', { cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-05' }))
    const web = await signIn(ctx.app, admin.email)
    const { action, fields } = hiddenFields((await web.get(`/conta/operacoes/${op.id}`)).body, 'form-titulo')
    const filled = {
      ...fields, tipo: 'cheque', numero: 'L1', sacado_id: regs.sacados[0].id, emissao: '2026-10-01', vencimento: '2026-11-04', valor_face: '100,00',
    }
    const held = await holdInAnotherSession(t, ctx.url, ['LOCK TABLE titulos IN EXCLUSIVE MODE'])
    const first = postForm(ctx.app, action, filled, { cookie: web.cookie })
    // The first post waits for the table, its Idempotency-Key taken.
    const watcher = new pg.Client({ connectionString: ctx.url! })
    await watcher.connect()
    t.after(() => watcher.end())
    await until('the first post waiting for the lock', async () =>
      (await watcher.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%titulos%'`)).rowCount! > 0)
    const second = await postForm(ctx.app, action, filled, { cookie: web.cookie })
    assert.equal(second.statusCode, 409, second.body)
    assert.match(refusalsOn(second.body), /Este formulário ainda está sendo processado: aguarde e recarregue a página/)
    await held.release()
    assert.equal((await first).statusCode, 303)
    assert.equal((await rowsAs(ctx.db, admin.clienteId, 'select id from titulos')).length, 1)
  })
})

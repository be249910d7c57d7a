// The approval card as an approver decides on it, without JavaScript (issue 32, item 7): the operation by its
// number, the cedente by name and document, the account with who added it, the requester by name and the amount;
// the approver approves or refuses with a reason (required), the requester is offered neither, and reads the reason.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { brl } from '../../../src/platform/lib/brl.ts'
import { colleagueWithPassword, personWithPassword } from '../../helpers/account-web.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { callerFor, created, EXAMPLE_NOW, exampleRegisters, exampleTitles, settableClock } from '../operations/helpers.ts'
import { paymentAsked, refusalsOn, signIn } from './steps.ts'

/** The text of the card of payment `id` on `html`: its terms and values, tags stripped. */
function card(html: string, id: string): Record<string, string> {
  const start = html.indexOf(`data-desembolso="${id}"`)
  assert.ok(start >= 0, `no card of payment ${id}`)
  const markup = html.slice(start, html.indexOf('</dl>', start))
  const text = (s: string) => s.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim()
  return Object.fromEntries([...markup.matchAll(/<dt>([^<]+)<\/dt><dd[^>]*>([\s\S]*?)<\/dd>/g)].map((m) => [m[1]!, text(m[2]!)]))
}

describe('the approval card', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('names what is decided on; the approver refuses with a reason, the requester reads it and may ask again', async () => {
    clock.set(EXAMPLE_NOW)
    const admin = await personWithPassword(ctx.db)
    const operador = await colleagueWithPassword(ctx.db, admin.clienteId, 'operador')
    const aprovador = await colleagueWithPassword(ctx.db, admin.clienteId, 'aprovador')
    const call = await callerFor(ctx.db, ctx.app, admin.clienteId, operador.usuarioId, clock)
    const regs = await exampleRegisters(call)
    const draft = created(await call('POST', '/api/operacoes', {
      cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-05', titulos: exampleTitles(regs.sacados.map((s) => s.id)),
    }))
    const payment = await paymentAsked(call, draft.id)
    const op = await signIn(ctx.app, operador.email)
    const ap = await signIn(ctx.app, aprovador.email)

    const seen = card((await ap.get('/conta/desembolsos')).body, payment.id)
    assert.equal(seen['Operação'], `Operação nº ${draft.numero}`)
    assert.equal(seen['Cedente'], 'Cedente Exemplo Ltda (11.222.333/0001-81)', 'the CNPJ punctuated')
    assert.equal(seen['Valor'], brl(4_637_053), 'the net amount of produto.md §2.6')
    assert.equal(seen['Conta'], 'Banco 341, agência 1234, conta 567890-1')
    assert.match(seen['Histórico da conta']!, /^Incluída no cadastro do cedente, em 05\/10\/2026, 12:00:00 por Pessoa operador$/)
    assert.equal(seen['Pedido'], 'por Pessoa operador em 05/10/2026, 12:00:00')
    assert.equal(seen['Situação'], 'aguardando aprovação')
    const approverPage = (await ap.get('/conta/desembolsos')).body
    assert.match(approverPage, new RegExp(`id="botao-aprovar-${payment.id}"`))
    assert.match(approverPage, new RegExp(`id="botao-recusar-${payment.id}"`))
    const own = (await op.get('/conta/desembolsos')).body
    assert.doesNotMatch(own, /id="(recusa|aprovar)-/, 'who asked decides nothing on it')
    assert.match(own, /quem pede não aprova nem recusa/)

    // A reason is required: the page says so beside its field, and nothing changed.
    const empty = await ap.submit('/conta/desembolsos', `recusa-${payment.id}`, { motivo: '  ' })
    assert.equal(empty.statusCode, 422)
    assert.match(refusalsOn(empty.body), /Motivo da recusa/)
    assert.equal(card(empty.body, payment.id)['Situação'], 'aguardando aprovação')

    const done = await ap.done('/conta/desembolsos', `recusa-${payment.id}`, { motivo: 'Conta diferente da do contrato' })
    assert.match(done.body, /Desembolso recusado: quem pediu vê o motivo/)
    const after = card((await op.get(`/conta/operacoes/${draft.id}`)).body, payment.id)
    assert.equal(after['Situação'], 'recusado')
    assert.equal(after['Recusado'], 'por Pessoa aprovador em 05/10/2026, 12:00:00: Conta diferente da do contrato')
    assert.match((await op.get(`/conta/operacoes/${draft.id}`)).body, /id="form-desembolso"/, 'the payment may be asked again')

    // Asked again, and refused this time from the operation's own page, which the approver comes back to.
    const again = created(await call('POST', `/api/operacoes/${draft.id}/desembolso`, {}, { 'idempotency-key': crypto.randomUUID() }))
    const opPath = `/conta/operacoes/${draft.id}`
    assert.equal(card((await ap.get(opPath)).body, again.id)['Situação'], 'aguardando aprovação')
    const short = await ap.submit(opPath, `recusa-${again.id}`, { motivo: 'x' })
    assert.equal(short.statusCode, 422)
    assert.match(refusalsOn(short.body), /Motivo da recusa: no mínimo 3 caracteres/)
    assert.match(short.body, /<h1>Operação nº/, 'the refusal is shown on the page the form was on')
    const back = await ap.submit(opPath, `recusa-${again.id}`, { motivo: 'Sem o contrato assinado' })
    assert.equal(back.statusCode, 303)
    assert.equal(back.headers.location, `${opPath}?feito=desembolso%2Frecusa`)
    assert.equal(card((await ap.get(opPath)).body, again.id)['Recusado'], 'por Pessoa aprovador (você) em 05/10/2026, 12:00:00: Sem o contrato assinado')
  })
})

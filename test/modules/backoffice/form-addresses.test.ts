// A refused form is answered at its post's address, so that is what the address bar shows (a new user's trial,
// issue 32): reloading it, or opening it from the history, is a GET that goes to the page the form is on, never
// to "Página não encontrada"; an address whose id is not one stays not found.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import { personWithPassword } from '../../helpers/account-web.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { signIn } from './steps.ts'

describe('a form\'s post address opened as a page', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' } })

  it('goes to the page the form is on', async () => {
    const web = await signIn(ctx.app, (await personWithPassword(ctx.db)).email)
    const id = randomUUID()
    for (const [path, to] of [
      [`/conta/operacoes/${id}/titulos`, `/conta/operacoes/${id}`], [`/conta/operacoes/${id}/formalizacao`, `/conta/operacoes/${id}`],
      [`/conta/desembolsos/${id}/pagamento`, '/conta/desembolsos'], [`/conta/razao/lancamentos-manuais/${id}/confirmacao`, '/conta/razao/lancamentos-manuais'],
      ['/conta/feriados/remover', '/conta/feriados'],
    ] as const) {
      const res = await web.get(path)
      assert.equal(res.statusCode, 303, path)
      assert.equal(res.headers.location, to, path)
    }
    assert.equal((await web.get('/conta/operacoes/nao-e-id/titulos')).statusCode, 404)
  })
})

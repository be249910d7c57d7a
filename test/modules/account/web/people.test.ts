// /conta lists the customer's people and their state (issue 20, item 10). There is no administrator among a
// customer's people yet, so suspending one is the operator's (`usuarios suspender`); the page says so, and shows
// the suspension once it is made. Another customer's people never appear.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { withTenant } from '../../../../src/platform/tenancy/tenancy.ts'
import { sendInvitation } from '../../../../src/modules/credentials/users/send-invitation.ts'
import { acceptInvitation, findInvitation } from '../../../../src/modules/credentials/users/store.ts'
import { accountPage, login, PASSWORD, personWithPassword, SITE_ORIGIN } from '../../../helpers/account-web.ts'
import { ARGON2ID_HASH, operatorNow } from '../../../helpers/credentials.ts'
import { cliRunner } from '../../../helpers/cli.ts'
import { useTestApp } from '../../../helpers/fixture.ts'

describe('/conta: the customer\'s people', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' } })
  const { lines, cli } = cliRunner(() => ctx.db)

  it('lists the customer\'s people with their state (a suspension shows at once), and no other customer\'s', async () => {
    const p = await personWithPassword(ctx.db)
    const stranger = await personWithPassword(ctx.db)
    const colleague = await withTenant(ctx.db, p.clienteId, (tx) => sendInvitation(tx,
      { clienteId: p.clienteId, email: 'bruno.colega@cliente.com.br', nome: 'Bruno <Colega>', invitedBy: 'Equipe comercial' }, operatorNow(), SITE_ORIGIN))
    const cookie = await login(ctx.app, p.email, PASSWORD, '198.51.100.90')
    const page = (await accountPage(ctx.app, cookie)).body
    const table = /<table id="pessoas"[\s\S]*?<\/table>/.exec(page)?.[0] ?? ''
    assert.match(table, /Quem tem acesso à conta da empresa \(2\)/)
    assert.match(table, new RegExp(`data-pessoa="${p.usuarioId}" aria-current="true">[^\\n]*${p.email.replace('.', '\\.')}[^\\n]*ativa`))
    assert.match(table, new RegExp(`data-pessoa="${colleague.user.id}">[^\\n]*Bruno &lt;Colega&gt;[^\\n]*convidada`))
    assert.ok(!page.includes(stranger.email), 'another customer\'s person is not listed')
    assert.match(page, /fale com o comercial/)

    // A colleague suspended by the operator shows as such, at once, on the page of a person still active.
    const inv = (await findInvitation(ctx.db.orm, new URL(colleague.link).searchParams.get('convite')!))!
    await withTenant(ctx.db, p.clienteId, (tx) => acceptInvitation(tx, inv, ARGON2ID_HASH, operatorNow()))
    assert.equal(await cli('usuarios', 'suspender', colleague.user.id, '--cliente', p.clienteId), 0, lines.join('\n'))
    const after = (await accountPage(ctx.app, cookie)).body
    assert.match(after, new RegExp(`data-pessoa="${colleague.user.id}">[^\\n]*suspensa`))
  })
})

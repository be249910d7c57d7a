// E-mail addresses in Unicode NFC (issue 20, item 8): `josé@…` typed with a combining accent (NFD) and with a
// precomposed é is one address, at invitation (the CLI) and at login; the other spelling cannot make a second
// account, so a failed login with it never lands in another customer's audit trail.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { auditRows } from '../../../helpers/credentials.ts'
import { cliRunner } from '../../../helpers/cli.ts'
import { login, PASSWORD, personWithPassword, postForm } from '../../../helpers/account-web.ts'
import { useTestApp } from '../../../helpers/fixture.ts'
import { until } from '../../../helpers/wait.ts'

describe('e-mail addresses in NFC', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' } })
  const { lines, cli } = cliRunner(() => ctx.db)
  const emailOf = async (usuarioId: string) => (await ctx.db.ownerTransaction((tx) =>
    tx.query<{ email: string }>('SELECT email FROM usuarios WHERE id = $1', [usuarioId])))[0]!.email

  it('invited in NFD, kept in NFC; logs in with either spelling', async () => {
    const nfd = 'jose\u0301.nfd@cliente.com.br'
    const nfc = 'jos\u00e9.nfd@cliente.com.br'
    assert.notEqual(nfd, nfc)
    const p = await personWithPassword(ctx.db, PASSWORD, nfd)
    assert.equal(await emailOf(p.usuarioId), nfc)
    assert.ok(await login(ctx.app, nfc, PASSWORD, '198.51.100.60'))
    assert.ok(await login(ctx.app, nfd, PASSWORD, '198.51.100.60'))
  })

  it('invited in NFC, logs in with NFD; the CLI refuses the other spelling as an e-mail in use, for any customer', async () => {
    const nfc = 'jos\u00e9.nfc@cliente.com.br'
    const nfd = 'jose\u0301.nfc@cliente.com.br'
    const p = await personWithPassword(ctx.db, PASSWORD, nfc)
    assert.ok(await login(ctx.app, nfd.toUpperCase(), PASSWORD, '198.51.100.61'))
    assert.equal(await cli('clientes', 'criar', '--nome', 'Outra Empresa', '--json'), 0)
    const other = (JSON.parse(lines[0]!) as { id: string }).id
    assert.equal(await cli('usuarios', 'convidar', '--cliente', other, '--email', nfd, '--nome', 'José Outro'), 2)
    assert.match(lines.join('\n'), /already belongs to a user/)
    // A wrong password with the other spelling is a failure of the one account there is, in its own trail only.
    const wrong = await postForm(ctx.app, '/conta/entrar', { email: nfd, senha: 'senha errada qualquer' }, { remoteAddress: '198.51.100.62' })
    assert.equal(wrong.statusCode, 422)
    await until('the failure audited', async () => (await auditRows(ctx.db, p.clienteId)).find((r) => r.acao === 'login.falha'))
    assert.deepEqual((await auditRows(ctx.db, other)).filter((r) => String(r.acao).startsWith('login.')), [])
  })
})

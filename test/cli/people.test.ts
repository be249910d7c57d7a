// `usuarios listar / suspender / reativar / reenviar-convite` (issue 20, item 10): one person's access taken away at
// once (sessions ended, their tokens refused, or revoked for good when they leave) and given back; an expired or
// lost invitation re-issued, the old link dead in the same act, the new one e-mailed as the first was.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { InvitationUnusableError } from '../../src/modules/credentials/errors.ts'
import { withTenant } from '../../src/platform/tenancy/tenancy.ts'
import { createToken } from '../../src/modules/credentials/tokens/store.ts'
import { acceptInvitation, findInvitation } from '../../src/modules/credentials/users/store.ts'
import { accountPage, invitedPerson, login, PASSWORD, personWithPassword, postForm } from '../helpers/account-web.ts'
import { bearer } from '../helpers/api-credentials.ts'
import { ARGON2ID_HASH, auditRows, dbError, operatorNow } from '../helpers/credentials.ts'
import { cliRunner } from '../helpers/cli.ts'
import { useTestApp } from '../helpers/fixture.ts'

describe('usuarios: one person\'s access', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' } })
  const { lines, cli } = cliRunner(() => ctx.db)

  const personsToken = async (clienteId: string, usuarioId: string) => (await withTenant(ctx.db, clienteId, (tx) => createToken(tx, {
    clienteId, usuarioId, nome: 'ERP da Ana', escopos: ['conta'], expiraEm: new Date(Date.now() + 86_400_000),
  }, { actor: { tipo: 'usuario', id: usuarioId }, now: new Date() }))).token
  const liveSessions = async (usuarioId: string) => (await ctx.db.ownerTransaction((tx) =>
    tx.query('SELECT id FROM sessoes WHERE usuario_id = $1 AND encerrada_em IS NULL', [usuarioId]))).length

  it('suspender: the person\'s sessions end and their tokens are refused at once; login says suspended; reativar gives both back', async () => {
    const p = await personWithPassword(ctx.db)
    const cookie = await login(ctx.app, p.email, PASSWORD, '198.51.100.80')
    const token = await personsToken(p.clienteId, p.usuarioId)
    assert.equal((await bearer(ctx.app, token, 'GET', '/api/conta')).statusCode, 200)

    assert.equal(await cli('usuarios', 'suspender', p.usuarioId, '--cliente', p.clienteId), 0, lines.join('\n'))
    assert.match(lines[0]!, /^suspended person [0-9a-f-]{36} \(Ana Souza\); 1 session\(s\) ended$/)
    assert.equal(await liveSessions(p.usuarioId), 0)
    assert.equal((await accountPage(ctx.app, cookie)).statusCode, 303, 'the open session no longer works')
    assert.equal((await bearer(ctx.app, token, 'GET', '/api/conta')).statusCode, 401, 'the person\'s token is refused')
    const refused = await postForm(ctx.app, '/conta/entrar', { email: p.email, senha: PASSWORD }, { remoteAddress: '198.51.100.80' })
    assert.equal(refused.statusCode, 403)
    assert.match(refused.body, /O seu acesso está suspenso/)
    const audit = await auditRows(ctx.db, p.clienteId)
    assert.deepEqual(audit.filter((r) => r.acao === 'usuario.suspenso').map((r) => [r.ator_tipo, r.alvo_id]), [['operador', p.usuarioId]])

    assert.equal(await cli('usuarios', 'suspender', p.usuarioId, '--cliente', p.clienteId, '--json'), 0)
    assert.deepEqual(JSON.parse(lines[0]!), { id: p.usuarioId, estado: 'suspenso', alterado: false, sessoes_encerradas: 0, tokens_revogados: 0 })

    assert.equal(await cli('usuarios', 'reativar', p.usuarioId, '--cliente', p.clienteId, '--json'), 0)
    assert.deepEqual(JSON.parse(lines[0]!), { id: p.usuarioId, estado: 'ativo', alterado: true })
    // The CLI is another client: this instance hears of the change by PostgreSQL's notification, and in any case within
    // the token lookup's half second (lookup-cache.ts), which a loaded machine may take to deliver.
    const deadline = Date.now() + 2000
    let again = await bearer(ctx.app, token, 'GET', '/api/conta')
    while (again.statusCode !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      again = await bearer(ctx.app, token, 'GET', '/api/conta')
    }
    assert.equal(again.statusCode, 200, 'a token not revoked works again')
    assert.ok(await login(ctx.app, p.email, PASSWORD, '198.51.100.80'))
    assert.ok((await auditRows(ctx.db, p.clienteId)).some((r) => r.acao === 'usuario.reativado'))
  })

  it('suspender --revogar-tokens: a person who leaves; their tokens are revoked for good, a reactivation does not bring them back', async () => {
    const p = await personWithPassword(ctx.db)
    const token = await personsToken(p.clienteId, p.usuarioId)
    assert.equal(await cli('usuarios', 'suspender', p.usuarioId, '--cliente', p.clienteId, '--revogar-tokens', '--json'), 0, lines.join('\n'))
    assert.deepEqual(JSON.parse(lines[0]!), { id: p.usuarioId, estado: 'suspenso', alterado: true, sessoes_encerradas: 0, tokens_revogados: 1 })
    assert.equal(await cli('usuarios', 'reativar', p.usuarioId, '--cliente', p.clienteId), 0)
    assert.equal((await bearer(ctx.app, token, 'GET', '/api/conta')).statusCode, 401)
    assert.ok((await auditRows(ctx.db, p.clienteId)).some((r) => r.acao === 'token.revogado'))
  })

  it('refuses what it cannot do: an invited person (no access yet, exit 2), another customer\'s person (exit 1), bad words (exit 2)', async () => {
    const invited = await invitedPerson(ctx.db)
    assert.equal(await cli('usuarios', 'suspender', invited.usuarioId, '--cliente', invited.clienteId), 2)
    assert.match(lines.join('\n'), /has not activated yet/)
    const other = await personWithPassword(ctx.db)
    assert.equal(await cli('usuarios', 'suspender', other.usuarioId, '--cliente', invited.clienteId), 1)
    assert.match(lines.join('\n'), /no person of this customer/)
    assert.equal(await liveSessions(other.usuarioId), 0)
    assert.equal(await cli('usuarios', 'reativar', other.usuarioId, '--cliente', other.clienteId, '--revogar-tokens'), 2)
    assert.equal(await cli('usuarios', 'suspender', other.usuarioId), 2)
    assert.match(lines.join('\n'), /needs --cliente ID/)
  })

  it('reenviar-convite: a new link e-mailed and printed once; the old one dies at once; not for a person already active', async () => {
    const p = await invitedPerson(ctx.db)
    assert.equal(await cli('usuarios', 'reenviar-convite', p.usuarioId, '--cliente', p.clienteId, '--json'), 0, lines.join('\n'))
    const out = JSON.parse(lines[0]!) as { id: string, convite_url: string }
    assert.equal(out.id, p.usuarioId)
    const fresh = new URL(out.convite_url).searchParams.get('convite')!
    assert.notEqual(fresh, p.token)
    const old = (await findInvitation(ctx.db.orm, p.token))!
    assert.ok(old.expiraEm.getTime() <= Date.now(), 'the old link expired')
    await assert.rejects(withTenant(ctx.db, p.clienteId, (tx) => acceptInvitation(tx, old, ARGON2ID_HASH, operatorNow())), InvitationUnusableError)
    const mails = await ctx.db.ownerTransaction((tx) => tx.query<{ texto: string }>(
      "SELECT texto FROM outbox WHERE destino = $1 AND tipo = 'convite' ORDER BY id", [p.email]))
    assert.equal(mails.length, 2)
    assert.ok(mails[1]!.texto.includes(out.convite_url), 'the new e-mail carries the new link')
    const audit = await auditRows(ctx.db, p.clienteId)
    assert.deepEqual(audit.filter((r) => r.acao === 'convite.reenviado').map((r) => r.alvo_id), [p.usuarioId])
    assert.ok(!JSON.stringify(audit).includes(fresh))
    // The new link works once, as the first would have.
    const inv = (await findInvitation(ctx.db.orm, fresh))!
    await withTenant(ctx.db, p.clienteId, (tx) => acceptInvitation(tx, inv, ARGON2ID_HASH, operatorNow()))
    assert.equal(await cli('usuarios', 'reenviar-convite', p.usuarioId, '--cliente', p.clienteId), 2)
    assert.match(lines.join('\n'), /the person is ativo, not waiting for an invitation/)
  })

  it('an invitation\'s expiry can be shortened, never lengthened (a trigger under the runtime role\'s new grant)', async () => {
    const p = await invitedPerson(ctx.db)
    const change = (interval: string) => withTenant(ctx.db, p.clienteId, (tx) => tx.execute(
      sql`UPDATE convites SET expira_em = expira_em + ${interval}::interval WHERE usuario_id = ${p.usuarioId}`))
    await assert.rejects(change('1 year'), dbError('23000', /so diminui/))
    await change('-1 hour')
    assert.ok((await findInvitation(ctx.db.orm, p.token))!.expiraEm.getTime() < Date.now() + 71 * 3_600_000)
  })

  it('listar: the customer\'s people with their state, as a table or --json; --help names every subcommand', async () => {
    const p = await personWithPassword(ctx.db)
    assert.equal(await cli('usuarios', 'listar', '--cliente', p.clienteId), 0)
    assert.deepEqual(lines[0]!.split('\t'), ['ID', 'NOME', 'E-MAIL', 'PAPEL', 'ESTADO', 'CONVIDADO EM (BRASÍLIA)', 'ATIVADO EM (BRASÍLIA)'])
    assert.deepEqual(lines[1]!.split('\t').slice(0, 5), [p.usuarioId, 'Ana Souza', p.email, 'administrador', 'ativo'])
    assert.equal(await cli('usuarios', 'listar', '--cliente', p.clienteId, '--json'), 0)
    assert.deepEqual((JSON.parse(lines[0]!) as Array<{ id: string, estado: string }>).map((u) => [u.id, u.estado]), [[p.usuarioId, 'ativo']])
    assert.equal(await cli('usuarios', '--help'), 0)
    for (const sub of ['convidar', 'listar', 'reenviar-convite', 'suspender', 'reativar', 'papel']) {
      assert.match(lines.join('\n'), new RegExp(`usuarios ${sub} `))
    }
  })
})

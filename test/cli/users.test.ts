// `usuarios convidar`: the person, the invitation and its e-mail in the outbox in one act, the link printed once
// and found by its secret; the audit trail names the invitation without its link; bad input exits 2.
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { withTenant } from '../../src/platform/tenancy/tenancy.ts'
import { findInvitation, listUsers } from '../../src/modules/credentials/users/store.ts'
import { auditRows } from '../helpers/credentials.ts'
import { cliRunner } from '../helpers/cli.ts'
import { useTestDatabase } from '../helpers/fixture.ts'

describe('usuarios convidar', () => {
  const tdb = useTestDatabase()
  const { lines, cli } = cliRunner(() => tdb.db)
  let cliente = ''

  before(async () => {
    assert.equal(await cli('clientes', 'criar', '--nome', 'Fomento Sul', '--json'), 0)
    cliente = (JSON.parse(lines[0]!) as { id: string }).id
  })

  const outboxOf = (email: string) => tdb.db.ownerTransaction((tx) => tx.query<{ tipo: string, cliente_id: string, assunto_email: string, texto: string }>(
    'SELECT tipo, cliente_id, assunto_email, texto FROM outbox WHERE destino = $1', [email]))

  it('invites a person: the e-mail with the link is queued with them, and the link finds their invitation', async () => {
    assert.equal(await cli('usuarios', 'convidar', '--cliente', cliente, '--email', 'Ana.Souza@Fomento.com.br', '--nome', 'Ana Souza', '--json'), 0,
      lines.join('\n'))
    const out = JSON.parse(lines[0]!) as { id: string, convite_url: string }
    const token = /^https?:\/\/[^/]+\/conta\/ativar\?convite=(fct_inv_[0-9A-Za-z]{38})$/.exec(out.convite_url)?.[1]
    assert.ok(token, out.convite_url)

    const found = await findInvitation(tdb.db.orm, token)
    assert.equal(found?.usuarioId, out.id)
    assert.equal(found?.clienteId, cliente)
    const users = await withTenant(tdb.db, cliente, (tx) => listUsers(tx, cliente))
    assert.deepEqual(users.map((u) => [u.id, u.email, u.estado]), [[out.id, 'ana.souza@fomento.com.br', 'convidado']])

    const [mail, ...more] = await outboxOf('ana.souza@fomento.com.br')
    assert.equal(more.length, 0)
    assert.equal(mail?.tipo, 'convite')
    assert.equal(mail?.cliente_id, cliente)
    assert.ok(mail?.texto.includes(out.convite_url), 'the e-mail carries the link')
    assert.match(mail!.texto, /Fomento Sul/)

    const audit = await auditRows(tdb.db, cliente)
    const sent = audit.filter((r) => r.acao === 'convite.enviado')
    assert.deepEqual(sent.map((r) => [r.ator_tipo, r.alvo_id]), [['operador', out.id]])
    assert.ok(!JSON.stringify(audit).includes(token), 'no secret in the audit trail')
  })

  it('prints the link once for a person, with its expiry', async () => {
    assert.equal(await cli('usuarios', 'convidar', '--cliente', cliente, '--email', 'bruno@fomento.com.br', '--nome', 'Bruno'), 0, lines.join('\n'))
    assert.match(lines.join('\n'), /^convite_url: https?:\/\/\S+\/conta\/ativar\?convite=fct_inv_/m)
    assert.match(lines.join('\n'), /^expira_em: /m)
  })

  it('bad input exits 2 with one line, and queues nothing', async () => {
    for (const [args, message] of [
      [['--email', 'x@fomento.com.br', '--nome', 'X'], /needs --cliente/],
      [['--cliente', cliente, '--nome', 'X'], /needs --email/],
      [['--cliente', cliente, '--email', 'not-an-address', '--nome', 'X'], /e-mail is not valid/],
      [['--cliente', cliente, '--email', 'ana.souza@fomento.com.br', '--nome', 'Outra Ana'], /already belongs to a user/],
    ] as const) {
      assert.equal(await cli('usuarios', 'convidar', ...args), 2, lines.join('\n'))
      assert.match(lines.join('\n'), message)
    }
    assert.equal((await outboxOf('not-an-address')).length, 0)
    assert.equal((await outboxOf('ana.souza@fomento.com.br')).length, 1, 'the duplicate queued no second e-mail')
  })

  it('a suspended customer gets no invitation (exit 1), and nothing is queued', async () => {
    assert.equal(await cli('clientes', 'suspender', cliente), 0)
    try {
      assert.equal(await cli('usuarios', 'convidar', '--cliente', cliente, '--email', 'carla@fomento.com.br', '--nome', 'Carla'), 1)
      assert.match(lines.join('\n'), /suspended/)
      assert.equal((await outboxOf('carla@fomento.com.br')).length, 0)
    } finally {
      await cli('clientes', 'reativar', cliente)
    }
  })
})

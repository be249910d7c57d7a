// `usuarios`: the people of a customer who use the web app. `convidar` invites one: the activation link goes by
// e-mail through the outbox (a sandbox .eml without SMTP_URL) and is printed once, for the operator to pass on when
// the e-mail cannot be; it works once, for 72 hours. `reenviar-convite` sends a new one when it expired or was
// lost (the old link dies); `suspender` and `reativar` take one person's access away and give it back; `papel`
// changes what they may do (roles.ts).
import { instantWithOffset } from '../../../platform/lib/brasilia-time.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { resendInvitation, sendInvitation, type SentInvitation } from '../users/send-invitation.ts'
import { listUsers, type User } from '../users/store.ts'
import { reactivateUser, suspendUser } from '../users/suspension.ts'
import { setRole } from '../users/role.ts'
import { isPapel, PAPEIS, type Papel } from '../roles.ts'
import { isoOrNull, operatorContext, parseCommand, requireUuid } from './operator.ts'
import { shown, tableRow, UsageError, type CommandContext } from '../../../platform/cli/output.ts'

/** Who the invitation e-mail says invites, when the operator does. */
const OPERATOR_NAME = 'Equipe comercial'

export const USERS_HELP = `  usuarios convidar --cliente ID --email E --nome NOME [--papel PAPEL] [--json]
                               a person of the customer, invited to the web app: the activation link
                               (one use, 72 h) is e-mailed and printed once ({"id", "convite_url"});
                               --papel ${PAPEIS.join(', ')} (default
                               administrador: the customer's first person administers it)
  usuarios listar --cliente ID [--json]
                               the customer's people: id, name, e-mail, state (convidado, ativo,
                               suspenso), since when
  usuarios reenviar-convite ID --cliente ID [--json]
                               a new invitation for a person who has not activated yet (the last one
                               expired or was lost): e-mailed and printed once; links sent before stop
                               working at once
  usuarios suspender ID --cliente ID [--revogar-tokens] [--json]
                               take one person's access away now: their sessions end, and the tokens
                               they made are refused while they are suspended; --revogar-tokens also
                               revokes those tokens for good (a person who leaves the company)
  usuarios reativar ID --cliente ID [--json]
                               give a suspended person their access back (tokens not revoked work again)
  usuarios papel ID --cliente ID --papel PAPEL [--json]
                               what the person may do, from their next request on: ${PAPEIS.join(', ')};
                               the customer's last active administrador keeps the role`

export async function usersCommand(argv: string[], ctx: CommandContext): Promise<number> {
  const [sub, ...rest] = argv
  switch (sub) {
    case 'convidar': return invite(rest, ctx)
    case 'listar': return list(rest, ctx)
    case 'reenviar-convite': return reinvite(rest, ctx)
    case 'suspender': return suspend(rest, ctx)
    case 'reativar': return reactivate(rest, ctx)
    case 'papel': return changeRole(rest, ctx)
    default: throw new UsageError(sub ? `unknown subcommand "usuarios ${sub}"` : 'usuarios needs a subcommand')
  }
}

async function invite(argv: string[], ctx: CommandContext): Promise<number> {
  const { values } = parseCommand(argv, { cliente: { type: 'string' }, email: { type: 'string' }, nome: { type: 'string' }, papel: { type: 'string' } })
  const clienteId = requireUuid(values.cliente, 'usuarios convidar needs --cliente ID')
  if (values.email === undefined) throw new UsageError('usuarios convidar needs --email')
  if (values.nome === undefined) throw new UsageError('usuarios convidar needs --nome')
  const papel = values.papel === undefined ? undefined : requirePapel(values.papel, 'usuarios convidar')
  const input = { clienteId, email: values.email, nome: values.nome, ...(papel ? { papel } : {}), invitedBy: OPERATOR_NAME }
  const db = await ctx.open()
  // Before anything is written: without an origin the service answers at, no invitation is made.
  const origin = ctx.publicUrl()
  const sent = await withTenant(db, clienteId, (tx) => sendInvitation(tx, input, operatorContext(ctx), origin))
  printInvitation(sent, values.json === true, ctx)
  return 0
}

async function reinvite(argv: string[], ctx: CommandContext): Promise<number> {
  const { clienteId, usuarioId, json } = personArgs(argv, 'reenviar-convite')
  const ref = { clienteId, usuarioId, invitedBy: OPERATOR_NAME }
  const db = await ctx.open()
  const origin = ctx.publicUrl()
  const sent = await withTenant(db, clienteId, (tx) => resendInvitation(tx, ref, operatorContext(ctx), origin))
  printInvitation(sent, json, ctx)
  return 0
}

function printInvitation(sent: SentInvitation, json: boolean, ctx: CommandContext): void {
  if (json) {
    ctx.out.log(JSON.stringify({ id: sent.user.id, convite_url: sent.link }))
    return
  }
  ctx.out.log(`id: ${sent.user.id}`)
  ctx.out.log(`convite_url: ${sent.link}`)
  ctx.out.log(`expira_em: ${instantWithOffset(sent.expiraEm)}`)
  ctx.out.log(`The invitation e-mail is queued (${sent.protocolo}); the link is shown only this once.`)
}

async function list(argv: string[], ctx: CommandContext): Promise<number> {
  const { values } = parseCommand(argv, { cliente: { type: 'string' } })
  const clienteId = requireUuid(values.cliente, 'usuarios listar needs --cliente ID')
  const people = await withTenant(await ctx.open(), clienteId, (tx) => listUsers(tx, clienteId))
  if (values.json) {
    ctx.out.log(JSON.stringify(people.map(asJson)))
    return 0
  }
  if (people.length === 0) {
    ctx.out.log('no people')
    return 0
  }
  ctx.out.log(tableRow(['ID', 'NOME', 'E-MAIL', 'PAPEL', 'ESTADO', 'CONVIDADO EM (BRASÍLIA)', 'ATIVADO EM (BRASÍLIA)']))
  for (const u of people) {
    ctx.out.log(tableRow([u.id, u.nome, u.email, u.papel, u.estado, instantWithOffset(u.criadoEm), u.ativadoEm ? instantWithOffset(u.ativadoEm) : '-']))
  }
  return 0
}

async function suspend(argv: string[], ctx: CommandContext): Promise<number> {
  const { clienteId, usuarioId, json, revokeTokens } = personArgs(argv, 'suspender')
  const done = await withTenant(await ctx.open(), clienteId,
    (tx) => suspendUser(tx, { clienteId, usuarioId }, operatorContext(ctx), { revokeTokens }))
  if (json) {
    ctx.out.log(JSON.stringify({
      id: usuarioId, estado: done.user.estado, alterado: done.changed, sessoes_encerradas: done.sessionsEnded, tokens_revogados: done.tokensRevoked,
    }))
    return 0
  }
  const what = done.changed ? `suspended ${who(done.user)}` : `${who(done.user)} was suspended already`
  ctx.out.log(`${what}; ${done.sessionsEnded} session(s) ended${revokeTokens ? `, ${done.tokensRevoked} token(s) revoked` : ''}`)
  return 0
}

async function reactivate(argv: string[], ctx: CommandContext): Promise<number> {
  const { clienteId, usuarioId, json } = personArgs(argv, 'reativar')
  const done = await withTenant(await ctx.open(), clienteId, (tx) => reactivateUser(tx, { clienteId, usuarioId }, operatorContext(ctx)))
  if (json) ctx.out.log(JSON.stringify({ id: usuarioId, estado: done.user.estado, alterado: done.changed }))
  else ctx.out.log(done.changed ? `reactivated ${who(done.user)}` : `${who(done.user)} is ${done.user.estado}: nothing changed`)
  return 0
}

async function changeRole(argv: string[], ctx: CommandContext): Promise<number> {
  const { values, positionals } = parseCommand(argv, { cliente: { type: 'string' }, papel: { type: 'string' } }, 1)
  const usuarioId = requireUuid(positionals[0], 'usuarios papel needs the person\'s id (see usuarios listar)')
  const clienteId = requireUuid(values.cliente, 'usuarios papel needs --cliente ID')
  if (values.papel === undefined) throw new UsageError(`usuarios papel needs --papel (${PAPEIS.join(', ')})`)
  const papel = requirePapel(values.papel, 'usuarios papel')
  const done = await withTenant(await ctx.open(), clienteId, (tx) => setRole(tx, { clienteId, usuarioId }, papel, operatorContext(ctx)))
  if (values.json) ctx.out.log(JSON.stringify({ id: usuarioId, papel: done.user.papel, alterado: done.changed }))
  else ctx.out.log(done.changed ? `${who(done.user)} is now ${papel}` : `${who(done.user)} is ${papel} already: nothing changed`)
  return 0
}

function requirePapel(value: string, command: string): Papel {
  if (!isPapel(value)) throw new UsageError(`${command}: --papel must be one of ${PAPEIS.join(', ')}, not "${value}"`)
  return value
}

/** `ID --cliente ID` of the commands about one person; `--revogar-tokens` is `suspender`'s alone. */
function personArgs(argv: string[], sub: 'reenviar-convite' | 'suspender' | 'reativar') {
  const { values, positionals } = parseCommand(argv, { cliente: { type: 'string' }, 'revogar-tokens': { type: 'boolean' } }, 1)
  if (values['revogar-tokens'] && sub !== 'suspender') throw new UsageError(`usuarios ${sub} takes no --revogar-tokens`)
  const usuarioId = requireUuid(positionals[0], `usuarios ${sub} needs the person's id (see usuarios listar)`)
  const clienteId = requireUuid(values.cliente, `usuarios ${sub} needs --cliente ID`)
  return { clienteId, usuarioId, json: values.json === true, revokeTokens: values['revogar-tokens'] === true }
}

const who = (u: User) => `person ${u.id} (${shown(u.nome)})`

function asJson(u: User) {
  return { id: u.id, nome: u.nome, email: u.email, papel: u.papel, estado: u.estado, criado_em: u.criadoEm.toISOString(), ativado_em: isoOrNull(u.ativadoEm) }
}

// `usuarios convidar`: a person of a customer, invited to the web app. The activation link goes by e-mail
// through the outbox (a sandbox .eml without SMTP_URL) and is printed once, for the operator to pass on when
// the e-mail cannot be; it works once, for 72 hours.
import { instantWithOffset } from '../brasilia-time.ts'
import { withTenant } from '../auth/tenancy.ts'
import { sendInvitation } from '../auth/users/send-invitation.ts'
import { asUsage, operatorContext, parseCommand, requireUuid } from './operator.ts'
import { UsageError, type CommandContext } from './output.ts'

/** Who the invitation e-mail says invites, when the operator does. */
const OPERATOR_NAME = 'Equipe comercial'

export const USERS_HELP = `  usuarios convidar --cliente ID --email E --nome NOME [--json]
                               a person of the customer, invited to the web app: the activation link
                               (one use, 72 h) is e-mailed and printed once ({"id", "convite_url"})`

export async function usersCommand(argv: string[], ctx: CommandContext): Promise<number> {
  const [sub, ...rest] = argv
  if (sub !== 'convidar') throw new UsageError(sub ? `unknown subcommand "usuarios ${sub}"` : 'usuarios needs a subcommand')
  const { values } = parseCommand(rest, { cliente: { type: 'string' }, email: { type: 'string' }, nome: { type: 'string' } })
  const clienteId = requireUuid(values.cliente, 'usuarios convidar needs --cliente ID')
  if (values.email === undefined) throw new UsageError('usuarios convidar needs --email')
  if (values.nome === undefined) throw new UsageError('usuarios convidar needs --nome')
  const input = { clienteId, email: values.email, nome: values.nome, invitedBy: OPERATOR_NAME }
  const db = await ctx.open()
  const sent = await asUsage(() => withTenant(db, clienteId, (tx) => sendInvitation(tx, input, operatorContext(ctx), ctx.config.publicUrl)))
  if (values.json) {
    ctx.out.log(JSON.stringify({ id: sent.user.id, convite_url: sent.link }))
    return 0
  }
  ctx.out.log(`id: ${sent.user.id}`)
  ctx.out.log(`convite_url: ${sent.link}`)
  ctx.out.log(`expira_em: ${instantWithOffset(sent.expiraEm)}`)
  ctx.out.log(`The invitation e-mail is queued (${sent.protocolo}); the link is shown only this once.`)
  return 0
}

// Inviting a person is one act: the user and the invitation rows, the e-mail with the activation link in the
// outbox, and the audit row, in the caller's tenant transaction, so the trail's `convite.enviado` never names an
// invitation whose e-mail was not queued (nor an e-mail without its invitation).
import { randomUUID } from 'node:crypto'
import type { Orm } from '../../../platform/db/database.ts'
import { enqueueMessage } from '../../../platform/outbox/enqueue.ts'
import { INVITATION_PREFIX, renderInvitation } from '../../../platform/outbox/invitation.ts'
import type { ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { activeCustomer } from '../customers/store.ts'
import { inviteUser, reissueInvitation, type NewInvitation, type User } from './store.ts'
import type { Papel } from '../roles.ts'

/** Where the activation link points: the web app's page that takes the invitation's secret. */
export const ACTIVATION_PATH = '/conta/ativar'

export type SentInvitation = { user: User, link: string, expiraEm: Date, protocolo: string }

export async function sendInvitation(
  tx: Orm, input: { clienteId: string, email: string, nome: string, papel?: Papel, invitedBy: string }, ctx: ActionContext, publicUrl: string,
): Promise<SentInvitation> {
  const { user, invitation } = await inviteUser(tx, input, ctx)
  return mailInvitation(tx, user, invitation, input.invitedBy, ctx, publicUrl)
}

/**
 * A new invitation for a person whose invitation expired or was lost, sent as the first one was; the links sent
 * before stop working in the same transaction (reissueInvitation).
 */
export async function resendInvitation(
  tx: Orm, ref: { clienteId: string, usuarioId: string, invitedBy: string }, ctx: ActionContext, publicUrl: string,
): Promise<SentInvitation> {
  const { user, invitation } = await reissueInvitation(tx, ref, ctx)
  return mailInvitation(tx, user, invitation, ref.invitedBy, ctx, publicUrl)
}

async function mailInvitation(
  tx: Orm, user: User, invitation: NewInvitation, invitedBy: string, ctx: ActionContext, publicUrl: string,
): Promise<SentInvitation> {
  const customer = await activeCustomer(tx, user.clienteId)
  const link = `${publicUrl}${ACTIVATION_PATH}?convite=${invitation.token}`
  const rendered = renderInvitation({
    invitedBy, customerName: customer.nome, inviteeName: user.nome, link, expiresAt: invitation.expiraEm,
  })
  const { protocolo } = await enqueueMessage(tx, {
    kind: 'convite', name: { prefix: INVITATION_PREFIX }, to: user.email, clienteId: user.clienteId, expiresAt: invitation.expiraEm,
    // The CLI has no request: the message carries an id of its own, as a request would.
    requestId: ctx.requestId ?? randomUUID(), ...rendered,
  }, { now: () => ctx.now })
  return { user, link, expiraEm: invitation.expiraEm, protocolo }
}

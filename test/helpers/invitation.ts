// An invitation message as the credential layer will queue one: rendered by renderInvitation, with a fresh secret
// link, so a test can look for the link (or its absence) wherever the message may go.
import { randomUUID } from 'node:crypto'
import { newToken } from '../../src/modules/credentials/token-format.ts'
import { INVITATION_TTL_MS } from '../../src/modules/credentials/users/store.ts'
import type { OutgoingMessage } from '../../src/platform/outbox/enqueue.ts'
import { INVITATION_PREFIX, renderInvitation, type Invitation } from '../../src/platform/outbox/invitation.ts'

export type TestInvitation = { message: OutgoingMessage & { expiresAt: Date }, token: string, link: string }

export function invitationMessage(
  opts: { to?: string, now?: Date, requestId?: string, names?: Partial<Pick<Invitation, 'invitedBy' | 'customerName' | 'inviteeName'>> } = {},
): TestInvitation {
  const token = newToken('convite')
  const link = `https://www.fomento.example/conta/ativar?convite=${token}`
  const expiresAt = new Date((opts.now ?? new Date()).getTime() + INVITATION_TTL_MS)
  const rendered = renderInvitation({
    invitedBy: 'Equipe comercial', customerName: 'Açúcar & Álcool Ltda', inviteeName: 'Ana Souza', ...opts.names, link, expiresAt,
  })
  const message = {
    kind: 'convite', name: { prefix: INVITATION_PREFIX }, to: opts.to ?? 'ana.souza@empresa.com.br', requestId: opts.requestId ?? 'cli-convite',
    clienteId: randomUUID(), expiresAt, ...rendered,
  }
  return { message, token, link }
}

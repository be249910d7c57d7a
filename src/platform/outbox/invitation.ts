// The invitation e-mail: a person is asked to activate their access to a customer's account. Names come from
// operators and customers, so they are cleaned like a visitor's (src/platform/outbox/mime-safe.ts) and escaped by html`…`. No tracking:
// no images, no pixel, no redirect, the link exactly as the caller made it.
import { instantLabel, TIME_ZONE_NOTE } from '../lib/brasilia-time.ts'
import { html } from '../lib/html.ts'
import type { RenderedMail } from './enqueue.ts'
import { headerSafe, textSafe } from './mime-safe.ts'

export type Invitation = {
  /** Who invites: a person's name, or the team's ("Equipe comercial") when the operator does. */
  invitedBy: string
  customerName: string
  inviteeName: string
  /** The one-time activation link (`PUBLIC_URL` + `/conta/ativar?convite=TOKEN`): a secret, never logged. */
  link: string
  expiresAt: Date
}

/** An invitation's protocolo says what it is wherever it is quoted: `CV-20261121-7F3K9Q2M`. */
export const INVITATION_PREFIX = 'CV'

/** A name on one line: a line break in it could otherwise start a paragraph of the sender's choosing. */
const oneLine = (s: string, max = 200) => headerSafe(textSafe(s), max)

export function renderInvitation(inv: Invitation): RenderedMail & { html: string } {
  const link = checkedLink(inv.link)
  const who = oneLine(inv.invitedBy)
  const customer = oneLine(inv.customerName)
  const until = `${instantLabel(inv.expiresAt)} (${TIME_ZONE_NOTE})`
  const contact = `${new URL(link).origin}/contato`
  const text = [
    `Olá, ${oneLine(inv.inviteeName)}.`,
    '',
    `${who} convidou você para acessar a conta de ${customer} na plataforma.`,
    '',
    'Para aceitar, abra o link abaixo e crie a sua senha:',
    '',
    link,
    '',
    `O link pode ser usado uma única vez e vale até ${until}.`,
    '',
    'Não esperava este convite? Ignore este e-mail: sem a ativação nenhum acesso é criado, e o link deixa de valer',
    `sozinho. Não encaminhe esta mensagem: o link é pessoal. Em caso de dúvida, fale conosco em ${contact}.`,
  ].join('\n')
  const markup = html`<!doctype html><html lang="pt-BR"><body>
<p>Olá, ${oneLine(inv.inviteeName)}.</p>
<p>${who} convidou você para acessar a conta de <strong>${customer}</strong> na plataforma.</p>
<p>Para aceitar, abra o link abaixo e crie a sua senha:</p>
<p><a href="${link}">${link}</a></p>
<p>O link pode ser usado uma única vez e vale até ${until}.</p>
<p><small>Não esperava este convite? Ignore este e-mail: sem a ativação nenhum acesso é criado, e o link deixa de valer sozinho.
Não encaminhe esta mensagem: o link é pessoal. Em caso de dúvida, fale conosco em
<a href="${contact}">${contact}</a>.</small></p>
</body></html>`
  return {
    subject: `Convite para acessar a conta de ${oneLine(customer, 120)}`, text, html: markup.toString(),
    // RFC 3834: sent by a machine, so auto-responders do not answer it.
    headers: { extra: { 'Auto-Submitted': 'auto-generated' } },
  }
}

// The URL parser drops tabs and line breaks, and trims spaces: a link holding any is refused, not repaired.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\s\u0000-\u001f\u007f-\u009f]/

/** An absolute http(s) URL without credentials; anything else is the caller's mistake (named, never echoed). */
function checkedLink(link: string): string {
  let url: URL | undefined
  try {
    url = new URL(link)
  } catch {
    url = undefined
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || UNSAFE.test(link)) {
    throw new TypeError('renderInvitation: link must be an absolute http(s) URL, as built from PUBLIC_URL')
  }
  return link
}
